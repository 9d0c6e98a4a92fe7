package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The real {@code terraform} binary as a test oracle, run offline in one directory: no checkpoint calls, a CLI
 * configuration the test chooses ({@code /dev/null} unless told), none of the {@code TF_} settings of the test's
 * own environment (variables, logging, plugin caches). Tests that need it skip (not fail) where it is not on the
 * PATH.
 */
public final class Terraform {
    private final Path exe;
    private final Path dir;
    private String cliConfig = "/dev/null";
    private boolean inAutomation = true;
    private boolean mergeStderr;
    private String stdin;
    private Duration timeout = Duration.ofMinutes(10);
    private final Map<String, String> env = new TreeMap<>();
    private final List<String> unset = new ArrayList<>(List.of("TF_"));

    private Terraform(Path exe, Path dir) {
        this.exe = exe;
        this.dir = dir;
    }

    /** The {@code terraform} on the PATH. */
    public static Optional<Path> find() {
        return Executables.onPath("terraform");
    }

    /** The {@code terraform} on the PATH, or skips the calling test. */
    public static Path assumeInstalled() {
        Optional<Path> exe = find();
        assumeTrue(exe.isPresent(), "terraform is not on the PATH");
        return exe.get();
    }

    /** A run of {@code exe} in {@code dir}, configured by the calls that follow. */
    public static Terraform at(Path exe, Path dir) {
        return new Terraform(exe, dir);
    }

    /** A run of the {@code terraform} on the PATH in {@code dir}; skips the calling test without one. */
    public static Terraform in(Path dir) {
        return at(assumeInstalled(), dir);
    }

    /** The CLI configuration file ({@code TF_CLI_CONFIG_FILE}), e.g. one that installs from a filesystem mirror. */
    public Terraform cliConfig(Path file) {
        this.cliConfig = file.toString();
        return this;
    }

    /**
     * Whether {@code TF_IN_AUTOMATION} is set (the default). Without it terraform prints the hints meant for a
     * person after a plan, which text comparisons of the whole output cover.
     */
    public Terraform inAutomation(boolean on) {
        this.inAutomation = on;
        return this;
    }

    /** stderr into stdout, in the order written (as a terminal shows them). */
    public Terraform mergeStderr() {
        this.mergeStderr = true;
        return this;
    }

    /** Text for the process's standard input (closed after it; closed at once without). */
    public Terraform stdin(String text) {
        this.stdin = text;
        return this;
    }

    public Terraform timeout(Duration limit) {
        this.timeout = limit;
        return this;
    }

    /** Drops the inherited environment variables whose names start with {@code prefix} (e.g. credentials). */
    public Terraform unsetInherited(String prefix) {
        unset.add(prefix);
        return this;
    }

    public Terraform env(String name, String value) {
        env.put(name, value);
        return this;
    }

    public Terraform env(Map<String, String> more) {
        env.putAll(more);
        return this;
    }

    /** Runs {@code terraform args...}, whatever its exit code. */
    public ProcessResult run(String... args) throws IOException, InterruptedException {
        return Processes.run(process(args), stdin, timeout);
    }

    /**
     * {@code terraform args...} configured but not started, for a run the test watches while it lasts (a lock
     * held, a kill); its output goes where the test redirects it.
     */
    public ProcessBuilder process(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(mergeStderr);
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> unset.stream().anyMatch(k::startsWith));
        e.put("CHECKPOINT_DISABLE", "1");
        e.put("TF_CLI_CONFIG_FILE", cliConfig);
        if (inAutomation) {
            e.put("TF_IN_AUTOMATION", "1");
        }
        e.putAll(env);
        return pb;
    }

    /** Runs {@code terraform args...}, fails the test unless it exits {@code expectedExit}; returns stdout. */
    public String expect(int expectedExit, String... args) throws IOException, InterruptedException {
        ProcessResult r = run(args);
        assertThat(r.exitCode())
                .as("terraform " + String.join(" ", args) + " in " + dir + "\n" + r.stdout() + r.stderr())
                .isEqualTo(expectedExit);
        return r.stdout();
    }

    /** Runs {@code terraform args...}, fails the test unless it exits 0; returns stdout. */
    public String ok(String... args) throws IOException, InterruptedException {
        return expect(0, args);
    }
}
