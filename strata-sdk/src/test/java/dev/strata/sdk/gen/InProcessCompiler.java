package dev.strata.sdk.gen;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/** Compiles generated sources with javax.tools in this JVM, against the test's class path. */
final class InProcessCompiler {
    private InProcessCompiler() {}

    /**
     * The outcome: whether it compiled, javac's error messages (at most 20), the wall-clock time and the
     * CPU time of this thread (javac runs in it), which a busy machine distorts less.
     */
    record Outcome(boolean ok, List<String> errors, long millis, long cpuMillis) {}

    /** Every {@code .java} file under {@code sources}, in path order. */
    static List<Path> javaFiles(Path sources) {
        try (Stream<Path> walk = Files.walk(sources)) {
            return walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compiles {@code files} into {@code classes}, with {@code extraClassPath} before the test's class path. */
    static Outcome compile(List<Path> files, Path classes, List<Path> extraClassPath) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: the tests need a JDK");
        }
        Files.createDirectories(classes);
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        long t0 = System.nanoTime();
        long c0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        boolean ok;
        try (StandardJavaFileManager fm =
                javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            fm.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(classes));
            List<Path> cp = new ArrayList<>(extraClassPath);
            for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                cp.add(Path.of(e));
            }
            fm.setLocationFromPaths(StandardLocation.CLASS_PATH, cp);
            StringWriter out = new StringWriter();
            ok = javac.getTask(
                            out,
                            fm,
                            diagnostics,
                            List.of("--release", "21", "-proc:none", "-implicit:none", "-Xlint:none", "-nowarn"),
                            null,
                            fm.getJavaFileObjectsFromPaths(files))
                    .call();
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        long cpuMillis = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - c0) / 1_000_000;
        List<String> errors = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .limit(20)
                .map(d -> d.getSource() == null
                        ? d.getMessage(Locale.ROOT)
                        : d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                .toList();
        return new Outcome(ok, errors, millis, cpuMillis);
    }

    /** The peak heap use since the JVM started (or since the last {@link #resetPeak}), in MiB. */
    static long peakHeapMib() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum / (1024 * 1024);
    }

    static void resetPeak() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
    }
}
