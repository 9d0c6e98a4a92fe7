package dev.strata.cli.command;

import dev.strata.cli.view.Terminal;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a command may take from its surroundings. Commands read files, the environment and the
 * terminal only through this record, so that tests can run them in-process with fake surroundings.
 *
 * @param workingDir    absolute directory that every relative path of the command resolves against
 *                      (the {@code -chdir} target when given; the JVM itself cannot change directory)
 * @param stdin         the command's standard input
 * @param stdout        the command's standard output; commands hand it to their views, never print to it
 * @param stderr        the command's standard error; same rule
 * @param colorAllowed  whether the output may carry ANSI colour: false when stdout is not a terminal,
 *                      when {@code NO_COLOR} is set, or when {@code -no-color} was given
 * @param terminalWidth columns available for wrapping human output
 * @param env           the process environment (injected so tests need not mutate the real one)
 * @param runId         the id of this invocation, also carried by every log line
 * @param startDir      the directory the process was started in, before {@code -chdir}; Terraform's
 *                      {@code path.cwd}
 * @param compactWarnings whether warnings are listed by summary only when there are no errors
 *                      ({@code -compact-warnings})
 */
public record CommandContext(
        Path workingDir,
        InputStream stdin,
        PrintStream stdout,
        PrintStream stderr,
        boolean colorAllowed,
        int terminalWidth,
        Map<String, String> env,
        String runId,
        Path startDir,
        boolean compactWarnings)
        implements Terminal {

    public CommandContext {
        Objects.requireNonNull(workingDir, "workingDir");
        Objects.requireNonNull(stdin, "stdin");
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
        Objects.requireNonNull(runId, "runId");
        workingDir = workingDir.toAbsolutePath().normalize();
        startDir = startDir == null ? workingDir : startDir.toAbsolutePath().normalize();
        env = Map.copyOf(env);
        if (terminalWidth <= 0) {
            terminalWidth = DEFAULT_TERMINAL_WIDTH;
        }
    }

    /** A context with full warnings. */
    public CommandContext(
            Path workingDir,
            InputStream stdin,
            PrintStream stdout,
            PrintStream stderr,
            boolean colorAllowed,
            int terminalWidth,
            Map<String, String> env,
            String runId,
            Path startDir) {
        this(workingDir, stdin, stdout, stderr, colorAllowed, terminalWidth, env, runId, startDir, false);
    }

    /** A context for a process started in {@code workingDir} (no {@code -chdir} yet). */
    public CommandContext(
            Path workingDir,
            InputStream stdin,
            PrintStream stdout,
            PrintStream stderr,
            boolean colorAllowed,
            int terminalWidth,
            Map<String, String> env,
            String runId) {
        this(workingDir, stdin, stdout, stderr, colorAllowed, terminalWidth, env, runId, null);
    }

    /** Terraform's width for output that is not a terminal (and for a terminal whose size is unknown). */
    public static final int DEFAULT_TERMINAL_WIDTH = 78;

    /** Resolves a user-given path the way a process whose current directory is {@link #workingDir()} would. */
    public Path resolve(String path) {
        return workingDir.resolve(path).normalize();
    }

    /** Whether TF_IN_AUTOMATION is set: output is for a wrapper, without the hints at a person's next command. */
    @Override
    public boolean inAutomation() {
        return getenv("TF_IN_AUTOMATION") != null;
    }

    /** An environment variable, or null when unset. Empty values count as unset, as in Terraform. */
    @Override
    public String getenv(String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    /** The context after {@code -chdir=dir}: paths resolve against {@code dir}; {@link #startDir()} stays. */
    public CommandContext withWorkingDir(Path dir) {
        return new CommandContext(
                dir, stdin, stdout, stderr, colorAllowed, terminalWidth, env, runId, startDir, compactWarnings);
    }

    public CommandContext withColorAllowed(boolean allowed) {
        return new CommandContext(
                workingDir, stdin, stdout, stderr, allowed, terminalWidth, env, runId, startDir, compactWarnings);
    }

    /** The context with warnings compact ({@code -compact-warnings}) or in full. */
    public CommandContext withCompactWarnings(boolean compact) {
        return new CommandContext(
                workingDir, stdin, stdout, stderr, colorAllowed, terminalWidth, env, runId, startDir, compact);
    }
}
