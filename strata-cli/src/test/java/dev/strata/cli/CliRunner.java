package dev.strata.cli;

import dev.strata.cli.command.Command;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.Commands;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real {@code strata} frame in-process, as a user would from a shell in {@link #dir()}, with
 * captured streams, an injected environment and no colour unless asked. For end-to-end tests of any
 * command: {@code CliRunner.in(tempDir).env("STRATA_LOG", "debug").run("fmt", "-check")}.
 *
 * <p>Unless the test gives its own {@code HOME} (or cache directory), the CLI's home is the test JVM's
 * {@link dev.strata.testing.TestHome}: the per-user caches under {@code ~/.cache/strata} are never the
 * developer's own, nor shared with test runs in other checkouts.
 *
 * <p>Logging is process-wide (one Logback context), so runs that set {@code STRATA_LOG} must not
 * overlap; JUnit's default sequential execution guarantees that.
 */
public final class CliRunner {
    private final Path dir;
    private final Map<String, String> env = new HashMap<>();
    private String stdin = "";
    private boolean colorAllowed;
    /** As the CLI's for output that is not a terminal. */
    private int width = dev.strata.cli.command.CommandContext.DEFAULT_TERMINAL_WIDTH;

    private List<Command> commands = Commands.all();

    private CliRunner(Path dir) {
        this.dir = dir;
    }

    /** A runner whose process current directory is {@code dir} (typically a JUnit {@code @TempDir}). */
    public static CliRunner in(Path dir) {
        return new CliRunner(dir);
    }

    public Path dir() {
        return dir;
    }

    public CliRunner env(String name, String value) {
        env.put(name, value);
        return this;
    }

    public CliRunner env(Map<String, String> more) {
        env.putAll(more);
        return this;
    }

    public CliRunner stdin(String text) {
        this.stdin = text;
        return this;
    }

    /** As if stdout were a terminal that supports colour (the default is a pipe: no colour). */
    public CliRunner terminal(boolean colorAllowed) {
        this.colorAllowed = colorAllowed;
        return this;
    }

    public CliRunner width(int columns) {
        this.width = columns;
        return this;
    }

    /** Replaces the registered commands, e.g. to add a probe command in a frame test. */
    public CliRunner commands(List<Command> commands) {
        this.commands = List.copyOf(commands);
        return this;
    }

    public Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String runId = "test" + Long.toHexString(System.nanoTime() & 0xffffffL);
        CommandContext context = new CommandContext(
                dir,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                colorAllowed,
                width,
                dev.strata.testing.TestHome.withDefaults(env),
                runId);
        int code = Main.run(Arrays.asList(args), context, commands);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), runId);
    }

    /** What one invocation produced. */
    public record Result(int exitCode, String stdout, String stderr, String runId) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }
}
