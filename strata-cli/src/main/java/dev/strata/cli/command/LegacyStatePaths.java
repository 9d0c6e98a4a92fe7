package dev.strata.cli.command;

import dev.strata.config.ModuleConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.LocalBackend;

/**
 * Terraform's legacy local-state flags, {@code -state=PATH}, {@code -state-out=PATH} and
 * {@code -backup=PATH} (with {@code -backup=-} for none), declared the same way by every command that
 * takes them. They apply to the local backend only, and there to the default workspace's state.
 */
final class LegacyStatePaths {
    private final Flag<String> state;
    private final Flag<String> stateOut;
    private final Flag<String> backup;

    /** All three flags, as the commands that plan or change state declare them. */
    LegacyStatePaths(FlagSet flags) {
        this(flags, true, true);
    }

    /** {@code -state}, and {@code -state-out} and {@code -backup} where the command takes them (Terraform's sets). */
    LegacyStatePaths(FlagSet flags, boolean withStateOut, boolean withBackup) {
        state = flags.string(
                "state", "", "PATH", "Legacy option for the local backend only: the state file to read and update.");
        stateOut = !withStateOut
                ? null
                : flags.string(
                        "state-out",
                        "",
                        "PATH",
                        "Legacy option for the local backend only: write the updated state here instead of to -state.");
        backup = !withBackup
                ? null
                : flags.string(
                        "backup",
                        "",
                        "PATH",
                        "Legacy option for the local backend only: where to keep the state as it was before the change"
                                + " (default: the written state's path with .backup); \"-\" keeps no backup.");
    }

    /** The paths given; empty strings for the flags not given. */
    record Paths(String state, String stateOut, String backup) {
        static final Paths NONE = new Paths("", "", "");

        boolean any() {
            return !state.isEmpty() || !stateOut.isEmpty() || !backup.isEmpty();
        }
    }

    Parsed<Paths> parse(ParsedArgs args) {
        return Parsed.of(new Paths(
                args.get(state), stateOut == null ? "" : args.get(stateOut), backup == null ? "" : args.get(backup)));
    }

    /**
     * The working directory's backend with the paths applied; with another backend than local, the
     * paths are refused, because silently writing somewhere else than asked would lose changes.
     */
    static Result<Backend> backend(CommandContext context, Paths paths) {
        return backend(context, paths, false);
    }

    /**
     * As {@link #backend(CommandContext, Paths)}; {@code timestamped} keeps the backups of a local state as the
     * {@code state} subcommands do ({@code terraform.tfstate.<unix seconds>.backup}).
     */
    static Result<Backend> backend(CommandContext context, Paths paths, boolean timestamped) {
        return backend(context, paths, timestamped, StateCli.rootModule(context));
    }

    /**
     * As {@link #backend(CommandContext, Paths, boolean)}, with the root module the command already loaded
     * from the working directory (an operation has: reading it again cost a plan's start a second parse).
     */
    static Result<Backend> backend(CommandContext context, Paths paths, boolean timestamped, ModuleConfig root) {
        Result<Backend> b = StateCli.backend(context, root);
        if (timestamped && b.value() instanceof LocalBackend local) {
            b = Result.of(local.withTimestampedBackups(java.time.Instant.now().getEpochSecond()), b.diagnostics());
        }
        if (b.value() == null || !paths.any()) {
            return b;
        }
        if (!(b.value() instanceof LocalBackend local)) {
            return Result.of(
                    null,
                    b.diagnostics()
                            .with(Diagnostic.error(
                                    "Legacy state options need the local backend",
                                    "The -state, -state-out and -backup options apply to the local backend only, but"
                                            + " this working directory uses another backend. Remove them, or use"
                                            + " \"strata state pull\" and \"strata state push\" to work with the"
                                            + " state as a file.",
                                    null)));
        }
        return Result.of(local.withLegacyPaths(paths.state(), paths.stateOut(), paths.backup()), b.diagnostics());
    }
}
