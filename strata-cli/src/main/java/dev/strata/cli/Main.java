package dev.strata.cli;

import dev.strata.cli.command.Command;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.Commands;
import dev.strata.cli.command.FlagSet;
import dev.strata.cli.command.ParsedArgs;
import dev.strata.cli.command.SubcommandHelp;
import dev.strata.cli.logging.LogSettings;
import dev.strata.cli.logging.Logging;
import dev.strata.cli.logging.RunId;
import dev.strata.cli.logging.StrataLogbackProvider;
import dev.strata.cli.sdk.StackPrograms;
import dev.strata.cli.version.Version;
import dev.strata.cli.view.FrameView;
import dev.strata.cli.view.HelpView;
import dev.strata.cli.view.View;
import dev.strata.hcl.Nesting;
import dev.strata.tfplugin.install.CliConfig;
import java.io.Console;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the {@code strata} command: {@code strata [global options] <subcommand> [args]}.
 * {@link #main} only gathers the process's surroundings and exits; everything else is {@link #run},
 * which tests call in-process.
 */
public final class Main {
    /** Exit code when no subcommand is given; Terraform's, kept for wrappers that check it. */
    static final int EXIT_NO_SUBCOMMAND = 127;

    private Main() {}

    public static void main(String[] args) {
        utf8Output();
        StrataLogbackProvider.select();
        // A thread that dies of something uncaught must not print a Java stack trace on the
        // terminal; the log (STRATA_LOG) gets it instead.
        Thread.setDefaultUncaughtExceptionHandler(
                (t, e) -> LoggerFactory.getLogger(Main.class).error("thread {} stopped", t.getName(), e));
        int code = run(args, systemContext());
        if (code != 0 || otherThreadsKeepTheJvmAlive()) {
            System.exit(code);
        }
        // Success with nothing left running: returning ends the JVM with status 0 and runs the shutdown
        // hooks just as System.exit(0) would, without Runtime.exit's System.Logger look-up, a service
        // search that opens every jar on the class path (about 0.07 s of CPU, a third of `version`).
    }

    /**
     * Standard output and error in UTF-8, whatever the locale, as Terraform writes them. A JVM started without
     * one (no {@code LANG}, as in many containers and CI jobs) encodes them in ASCII, and every other character
     * (a value's "é", the diagnostics' box-drawing lines) would come out as "?". The streams are made as the
     * JDK makes its own: buffered, flushed on each line.
     */
    static void utf8Output() {
        if (!java.nio.charset.StandardCharsets.UTF_8.equals(System.out.charset())) {
            System.setOut(utf8(java.io.FileDescriptor.out));
        }
        if (!java.nio.charset.StandardCharsets.UTF_8.equals(System.err.charset())) {
            System.setErr(utf8(java.io.FileDescriptor.err));
        }
    }

    private static java.io.PrintStream utf8(java.io.FileDescriptor fd) {
        return new java.io.PrintStream(
                new java.io.BufferedOutputStream(new java.io.FileOutputStream(fd), 8192),
                true,
                java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Whether a platform thread other than this one would keep the JVM running after main returns. */
    static boolean otherThreadsKeepTheJvmAlive() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 8];
        int n = root.enumerate(threads, true);
        if (n == threads.length) {
            return true; // more than counted started meanwhile: assume one of them stays
        }
        for (int i = 0; i < n; i++) {
            Thread t = threads[i];
            if (t != Thread.currentThread() && t.isAlive() && !t.isDaemon()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs one invocation. {@code context} describes the process: its current directory (before
     * {@code -chdir}), streams, whether colour is possible, environment and run id.
     */
    public static int run(String[] args, CommandContext context) {
        return run(Arrays.asList(args), context, Commands.all());
    }

    static int run(List<String> rawArgs, CommandContext initial, List<Command> commands) {
        // Configurations and values may nest as deep as Nesting.MAX_DEPTH, and the loaders, the
        // validator and the renderers recurse once per level: run the command on a stack that holds it.
        try {
            return Nesting.onDeepStack(() -> runHere(rawArgs, initial, commands));
        } catch (Throwable t) {
            // Only a failure of the frame itself gets here (commands' own are handled in dispatch).
            crashed(new FrameView(initial), null, t);
            return 1;
        }
    }

    private static int runHere(List<String> rawArgs, CommandContext initial, List<Command> commands) {
        List<String> args = new ArrayList<>();
        boolean noColor = stripNoColor(rawArgs, args);
        CommandContext context = initial.withColorAllowed(initial.colorAllowed() && !noColor);
        View view = new View(context);
        FrameView frame = new FrameView(context);

        Logging.configure(LogSettings.fromEnv(context.env(), context.workingDir()), context.stderr(), context.runId())
                .forEach(view::diagnosticOnStderr);
        Logger log = LoggerFactory.getLogger(Main.class);
        try {
            log.debug("strata {} started in {}", Version.current(), context.workingDir());
            return dispatch(args, context, commands, frame, log);
        } finally {
            Logging.shutdown();
        }
    }

    private static int dispatch(
            List<String> args, CommandContext context, List<Command> commands, FrameView frame, Logger log) {
        GlobalArgs global;
        switch (GlobalArgs.parse(args)) {
            case GlobalArgs.Outcome.Invalid invalid -> {
                frame.diagnostic(invalid.diagnostic());
                return 1;
            }
            case GlobalArgs.Outcome.Parsed parsed -> global = parsed.args();
        }

        cliConfigurationProblems(context, frame);
        if (global.chdir() != null) {
            Path dir = context.workingDir().resolve(global.chdir()).normalize();
            if (!Files.exists(dir)) {
                frame.chdirFailed(global.chdir(), "no such file or directory");
                return 1;
            }
            if (!Files.isDirectory(dir)) {
                frame.chdirFailed(global.chdir(), "not a directory");
                return 1;
            }
            context = context.withWorkingDir(dir);
            log.debug("working directory is now {}", context.workingDir());
        }

        if (global.subcommand() == null) {
            new HelpView(context).global(Commands.listing(commands));
            return global.help() ? 0 : EXIT_NO_SUBCOMMAND;
        }
        Optional<Command> found = Commands.find(commands, global.subcommand());
        if (found.isEmpty()) {
            frame.unknownCommand(global.subcommand(), Commands.suggest(commands, global.subcommand()));
            return 1;
        }
        Command command = found.get();
        List<String> rest;
        switch (EnvArgs.merge(context.env(), command, global.rest())) {
            case EnvArgs.Outcome.Invalid invalid -> {
                frame.diagnostic(invalid.diagnostic());
                return 1;
            }
            case EnvArgs.Outcome.Merged merged -> {
                // TF_CLI_ARGS=-no-color is the usual way CI turns colour off.
                rest = new ArrayList<>();
                if (stripNoColor(merged.args(), rest)) {
                    context = context.withColorAllowed(false);
                    frame = new FrameView(context);
                }
            }
        }
        if (global.help() || FlagSet.wantsHelp(rest)) {
            Optional<SubcommandHelp> sub = rest.stream()
                    .filter(a -> !a.startsWith("-"))
                    .findFirst()
                    .flatMap(name -> SubcommandHelp.find(command.subcommands(), name));
            if (sub.isPresent()) {
                new HelpView(context).page(Commands.help(command, sub.get()));
            } else {
                new HelpView(context).page(Commands.help(command));
            }
            return 0;
        }
        ParsedArgs parsed;
        switch (command.flags().parse(rest)) {
            case FlagSet.Outcome.Invalid invalid -> {
                if (command.streamsJson() && FlagSet.wantsJson(rest)) {
                    // As Terraform: a stream that was asked for gets the problem as one of its messages.
                    frame.invalidArgumentsAsJson(command.name(), invalid.diagnostic());
                } else {
                    frame.invalidArguments(command.name(), invalid.diagnostic());
                }
                return 1;
            }
            case FlagSet.Outcome.Parsed p -> parsed = p.args();
        }
        // A Java stack program runs first; the command then works on its synthesis (ADR 0021).
        switch (StackPrograms.prepare(context.workingDir(), command.name())) {
            case StackPrograms.Outcome.NotAProgram n -> {}
            case StackPrograms.Outcome.Synthesised s -> {
                context = context.withWorkingDir(s.workDir());
                log.debug("stack program synthesised into {}", s.workDir());
            }
            case StackPrograms.Outcome.Failed f -> {
                f.problems().forEach(frame::diagnostic);
                return 1;
            }
        }
        // Argument values are not logged: -var and friends carry secrets.
        log.debug("running command {}", command.name());
        try {
            int code = command.run(context, parsed);
            log.debug("command {} finished with exit code {}", command.name(), code);
            return code;
        } catch (Throwable t) {
            crashed(frame, command.name(), t);
            return 1;
        }
    }

    /**
     * Reports a throwable that ended a command (out of memory and stack overflow included) as an
     * error without a stack trace; the stack trace goes to the log.
     */
    private static void crashed(FrameView frame, String command, Throwable t) {
        try {
            LoggerFactory.getLogger(Main.class).error("{} stopped", command == null ? "strata" : command, t);
        } catch (Throwable ignored) {
            // Logging itself failed (out of memory, say); the message below is what matters.
        }
        frame.crashed(command, t);
    }

    /**
     * As Terraform: a CLI configuration file that does not read or parse is reported before the command, which
     * still runs (with what could be read). Only a file that exists is parsed, so most runs pay nothing.
     */
    private static void cliConfigurationProblems(CommandContext context, FrameView frame) {
        Map<String, String> env = context.env();
        dev.strata.hcl.Result<CliConfig> r;
        try {
            Path home = Path.of(env.getOrDefault("HOME", System.getProperty("user.home")));
            if (!Files.exists(dev.strata.tfplugin.install.CliConfigFile.location(env, home))) {
                return;
            }
            r = CliConfig.load(env, home);
        } catch (java.nio.file.InvalidPathException e) {
            // A name this JVM cannot encode (non-ASCII without a UTF-8 locale): no file, as for a missing one.
            return;
        }
        if (!r.diagnostics().isEmpty()) {
            frame.cliConfigurationProblems(r.diagnostics(), name -> {
                try {
                    return Files.readAllBytes(Path.of(name));
                } catch (java.io.IOException | RuntimeException e) {
                    return null;
                }
            });
        }
    }

    /** Terraform accepts -no-color anywhere (before {@code --}), whatever the command; so do we. */
    private static boolean stripNoColor(List<String> in, List<String> out) {
        boolean found = false;
        boolean afterDashes = false;
        for (String a : in) {
            if (!afterDashes && a.equals("--")) {
                afterDashes = true;
            }
            if (!afterDashes && (a.equals("-no-color") || a.equals("--no-color"))) {
                found = true;
            } else {
                out.add(a);
            }
        }
        return found;
    }

    private static CommandContext systemContext() {
        Map<String, String> env = System.getenv();
        boolean tty = stdoutIsTerminal();
        boolean color = tty && env.getOrDefault("NO_COLOR", "").isEmpty() && !"dumb".equals(env.get("TERM"));
        return new CommandContext(
                Path.of("").toAbsolutePath(),
                System.in,
                System.out,
                System.err,
                color,
                terminalWidth(env, tty),
                env,
                RunId.generate());
    }

    /**
     * The launcher knows (it can run {@code [ -t 1 ]}) and passes {@code -Dstrata.stdout.tty}. Without it,
     * ask the JDK: {@code Console.isTerminal()} exists from JDK 22 (we compile for 21, hence reflection);
     * before that a non-null console meant a terminal.
     */
    private static boolean stdoutIsTerminal() {
        String prop = System.getProperty("strata.stdout.tty");
        if (prop != null) {
            return Boolean.parseBoolean(prop);
        }
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method m = Console.class.getMethod("isTerminal");
            return (Boolean) m.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    /**
     * The terminal's columns, as the launcher read them ({@code stty size}) or {@code COLUMNS} says; as
     * Terraform, 78 when stdout is not a terminal, whatever {@code COLUMNS} says.
     */
    private static int terminalWidth(Map<String, String> env, boolean tty) {
        if (!tty) {
            return CommandContext.DEFAULT_TERMINAL_WIDTH;
        }
        for (String candidate : new String[] {System.getProperty("strata.terminal.width"), env.get("COLUMNS")}) {
            if (candidate != null) {
                try {
                    int w = Integer.parseInt(candidate.trim());
                    if (w > 0) {
                        return w;
                    }
                } catch (NumberFormatException ignored) {
                    // not a width; try the next source
                }
            }
        }
        return CommandContext.DEFAULT_TERMINAL_WIDTH;
    }
}
