package dev.strata.bench;

import dev.strata.hcl.syntax.NativeSyntax;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Scan + parse throughput measured in thread CPU time rather than wall time, so that the number
 * means something on a shared, loaded machine (where JMH's wall-clock scores mostly measure the
 * other processes). Parses the whole corpus repeatedly and prints the last passes, after warm-up.
 * Usage: ParseCpuTime CORPUS_DIR [PASSES]
 */
public final class ParseCpuTime {
    private ParseCpuTime() {}

    public static void main(String[] args) throws IOException {
        Path corpus = Path.of(args.length > 0 ? args[0] : "../shared/corpus/hcl");
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        List<byte[]> files = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.walk(corpus)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".tf")).sorted().toList()) {
                files.add(Files.readAllBytes(p));
                names.add(corpus.relativize(p).toString());
            }
        }
        long total = files.stream().mapToLong(b -> b.length).sum();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        System.out.printf("corpus: %d files, %d bytes%n", files.size(), total);
        long bestCpu = Long.MAX_VALUE;
        for (int pass = 0; pass < passes; pass++) {
            long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            for (int i = 0; i < files.size(); i++) {
                NativeSyntax.parseConfig(files.get(i), names.get(i));
            }
            long wall = System.nanoTime() - t0;
            long cpu = mx.getCurrentThreadCpuTime() - c0;
            if (pass >= passes / 2) {
                bestCpu = Math.min(bestCpu, cpu);
            }
            if (pass >= passes - 5) {
                System.out.printf(
                        "pass %d: wall %.1f ms, cpu %.1f ms, %.1f MB/s of CPU%n",
                        pass, wall / 1e6, cpu / 1e6, total / 1e6 / (cpu / 1e9));
            }
        }
        System.out.printf(
                "best of the second half: %.1f ms of CPU per pass = %.1f MB/s%n",
                bestCpu / 1e6, total / 1e6 / (bestCpu / 1e9));
    }
}
