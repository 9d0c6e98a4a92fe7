package dev.strata.bench;

import dev.strata.hcl.Result;
import dev.strata.state.Encryption;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The state read of a plan alone (the bytes already in memory, as {@code LocalStateManager} reads them
 * under the lock): thread CPU time, bytes allocated and the heap the snapshot keeps, per pass; the process's CPU time includes the collections. CPU and
 * allocation, unlike wall time, mean something on a shared machine. Run it with the launcher's flags
 * ({@code -XX:+UseSerialGC -XX:TieredStopAtLevel=1}) to see what a plan pays.
 * Usage: StateReadCpuTime STATE_FILE [PASSES]
 */
public final class StateReadCpuTime {
    private StateReadCpuTime() {}

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        byte[] bytes = Files.readAllBytes(file);
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long tid = Thread.currentThread().threadId();
        System.out.printf("state: %s, %d bytes%n", file, bytes.length);
        StateSnapshot kept = null;
        for (int pass = 0; pass < passes; pass++) {
            kept = null;
            System.gc();
            long heap0 = mem.getHeapMemoryUsage().getUsed();
            long a0 = mx.getThreadAllocatedBytes(tid);
            long c0 = mx.getCurrentThreadCpuTime();
            long p0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            Result<StateSnapshot> r = Encryption.NONE.decode(bytes, file.toString(), "");
            long wall = System.nanoTime() - t0;
            long cpu = mx.getCurrentThreadCpuTime() - c0;
            long process = os.getProcessCpuTime() - p0;
            long allocated = mx.getThreadAllocatedBytes(tid) - a0;
            if (r.hasErrors()) {
                System.out.println(r.diagnostics());
                System.exit(1);
            }
            kept = r.value();
            System.gc();
            long retained = mem.getHeapMemoryUsage().getUsed() - heap0;
            System.out.printf(
                    "pass %d: wall %.0f ms, thread cpu %.0f ms, process cpu %.0f ms (collections included), allocated %.0f MB, retained %.0f MB, %d resources%n",
                    pass,
                    wall / 1e6,
                    cpu / 1e6,
                    process / 1e6,
                    allocated / 1e6,
                    retained / 1e6,
                    kept.resources().size());
        }
    }
}
