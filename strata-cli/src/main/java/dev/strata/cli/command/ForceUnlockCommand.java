package dev.strata.cli.command;

import dev.strata.cli.view.StateView;
import dev.strata.hcl.Result;
import dev.strata.state.LockInfo;
import java.util.Optional;

/**
 * {@code strata force-unlock LOCK_ID}: removes a lock left behind by a holder that is gone. A lock
 * held by a running process is not removed (its OS lock would stay anyway): stop that process instead.
 */
final class ForceUnlockCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> FORCE =
            FLAGS.bool("force", false, "Don't ask for input for unlock confirmation.");

    @Override
    public String name() {
        return "force-unlock";
    }

    @Override
    public String synopsis() {
        return "Release a stuck lock on the current workspace";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "[options] LOCK_ID";
    }

    @Override
    public String description() {
        return "Manually unlock the state for the defined configuration.\n\n"
                + "This will not modify your infrastructure. This command removes the lock on the state for the "
                + "current workspace. The behavior of this lock is dependent on the backend being used. Local state "
                + "files cannot be unlocked while the process that locked them is still running.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /** The arguments: the id of the lock to remove, and whether to skip the confirmation. */
    record Args(String lockId, boolean force) {

        /** Empty when the lock id is missing or more than one argument is given. */
        static Optional<Args> parse(ParsedArgs args) {
            return args.positionals().size() != 1
                    ? Optional.empty()
                    : Optional.of(new Args(args.positionals().get(0), args.get(FORCE)));
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        StateView view = new StateView(context);
        Optional<Args> args = Args.parse(parsed);
        if (args.isEmpty()) {
            // Terraform's wording, as a plain line rather than a diagnostic.
            view.errorText("Expected a single argument: LOCK_ID");
            return 1;
        }
        String id = args.get().lockId();
        Parsed<String> workspace = StateCli.workspace(context);
        if (!workspace.diagnostics().isEmpty()) {
            view.diagnostics(workspace.diagnostics());
            return 1;
        }
        if (!args.get().force()) {
            if (!view.confirm("Do you really want to force-unlock?\n"
                    + "  Strata will remove the lock on the remote state.\n"
                    + "  This will allow local Strata commands to modify this state, even though it\n"
                    + "  may still be in use. Only 'yes' will be accepted to confirm.\n\n"
                    + "  Enter a value: ")) {
                view.errorText("force-unlock cancelled.");
                return 1;
            }
        }
        var backend = StateCli.backend(context);
        view.diagnostics(backend.diagnostics());
        if (backend.value() == null) {
            return 1;
        }
        Result<LockInfo> r = backend.value().forceUnlock(workspace.value(), id);
        if (r.hasErrors()) {
            r.diagnostics().forEach(d -> view.errorText("Failed to unlock state: " + d.detail()));
            return 1;
        }
        view.success("Strata state has been successfully unlocked!\n\n"
                + "The state has been unlocked, and Strata commands should now be able to\n"
                + "obtain a new lock on the remote state.");
        return 0;
    }
}
