package dev.strata.cli.command;

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

    LegacyStatePaths(FlagSet flags) {
        state = flags.string(
                "state", "", "PATH", "Legacy option for the local backend only: the state file to read and update.");
        stateOut = flags.string(
                "state-out",
                "",
                "PATH",
                "Legacy option for the local backend only: write the updated state here instead of to -state.");
        backup = flags.string(
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
        return Parsed.of(new Paths(args.get(state), args.get(stateOut), args.get(backup)));
    }

    /**
     * The working directory's backend with the paths applied; with another backend than local, the
     * paths are refused, because silently writing somewhere else than asked would lose changes.
     */
    static Result<Backend> backend(CommandContext context, Paths paths) {
        Result<Backend> b = StateCli.backend(context);
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
