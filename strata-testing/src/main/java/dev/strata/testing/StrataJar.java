package dev.strata.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The packaged CLI ({@code strata-cli/target/strata.jar}, built by {@code package}) launched as users do, for the
 * integration tests that need a real process: exit codes, signals, kills, memory limits.
 */
public final class StrataJar {
    private StrataJar() {}

    /** The jar ({@code -Dstrata.jar}, else {@code target/strata.jar}), or skips the calling test where it is not built. */
    public static Path assumePackaged() {
        Path jar =
                Path.of(System.getProperty("strata.jar", "target/strata.jar")).toAbsolutePath();
        assumeTrue(Files.isRegularFile(jar), "strata.jar not built: " + jar);
        return jar;
    }

    /**
     * {@code java jvmOptions... -jar jar args...} in {@code dir}, on the test's own JDK (with the launcher's
     * exit option where the JDK has it), with none of the user's
     * settings that change the CLI's output ({@code STRATA_*}, {@code NO_COLOR}) inherited, and with the test
     * JVM's {@link TestHome} as its home (so the user's own caches and CLI configuration are not used).
     */
    public static ProcessBuilder process(Path jar, Path dir, List<String> jvmOptions, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (Runtime.version().feature() >= 22) {
            // As the launcher: no 300 ms wait at exit for the JDK's poller thread after socket I/O.
            cmd.add("-XX:UserThreadWaitAttemptsAtExit=0");
        }
        cmd.addAll(jvmOptions);
        cmd.add("-jar");
        cmd.add(jar.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("STRATA_") || k.equals("NO_COLOR"));
        return TestHome.apply(pb);
    }
}
