package dev.strata.cli.command;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;

/**
 * Run in a JVM of its own by {@link HeapGrowthTest}: promotes 2 GB of garbage (1 MB arrays that live
 * long enough to leave the young generation, at most 256 at a time) and prints the old generation's
 * peak use in megabytes. With "guard" as argument, {@link HeapGrowth} is installed first. The guard acts on
 * the JVM's notification thread; a pause of a millisecond every 16 MB (an engine's pace of allocation is far
 * below the probe's 2 GB in a fraction of a second) lets that thread run on a loaded machine too, where it
 * could otherwise wait behind the probe's allocation until the old generation had grown past the limit.
 */
final class HeapGrowthProbe {
    private HeapGrowthProbe() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("guard")) {
            HeapGrowth.limit();
        }
        byte[][] ring = new byte[256][];
        long sum = 0;
        for (int i = 0; i < 2048; i++) {
            ring[i % ring.length] = new byte[1 << 20];
            sum += ring[(i * 7) % ring.length] == null ? 0 : ring[(i * 7) % ring.length].length;
            if (i % 16 == 15) {
                Thread.sleep(1);
            }
        }
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getName().equals("Tenured Gen")) {
                System.out.println(p.getPeakUsage().getUsed() >> 20);
            }
        }
        System.err.println(sum);
    }
}
