package dev.strata.cli.command;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.NotificationEmitter;

/**
 * Keeps the old generation of the serial collector (the launcher's) near its live data during long
 * operations. The serial collector grows the old generation instead of collecting it for as long as the
 * maximum heap allows (a quarter of the machine's memory by default), so an apply of 100,000 instances
 * with about 0.5 GB of live data reached 3 GB of resident memory, nearly all of it garbage never
 * collected. Here a usage threshold on the old generation triggers a full collection when it is crossed,
 * and the next threshold is set to a multiple of what survived: the heap still grows with the live
 * data, without a hard limit that a larger estate could hit, but garbage no longer makes it grow.
 * Other collectors size their old generation themselves and are left alone.
 */
final class HeapGrowth {
    /** Below this the old generation is never collected on our behalf. */
    static final long FLOOR = 256L << 20;
    /** The next threshold, as a multiple of what survived the last full collection. */
    static final double GROWTH = 1.5;

    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    private HeapGrowth() {}

    /** Installs the threshold once per process; no-op unless the old generation is the serial collector's. */
    static void limit() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        MemoryPoolMXBean tenured = null;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getName().equals("Tenured Gen") && p.isUsageThresholdSupported()) {
                tenured = p;
            }
        }
        if (tenured == null) {
            return;
        }
        MemoryPoolMXBean pool = tenured;
        pool.setUsageThreshold(FLOOR);
        NotificationEmitter emitter = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
        emitter.addNotificationListener(
                (n, handback) -> {
                    if (MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED.equals(n.getType())) {
                        collect(pool);
                    }
                },
                null,
                null);
    }

    /** Runs on the JVM's notification thread, never on an engine thread. */
    private static void collect(MemoryPoolMXBean pool) {
        System.gc();
        pool.setUsageThreshold(nextThreshold(pool.getUsage().getUsed()));
    }

    static long nextThreshold(long live) {
        return Math.max(FLOOR, (long) (live * GROWTH));
    }
}
