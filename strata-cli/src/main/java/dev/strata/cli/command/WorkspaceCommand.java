package dev.strata.cli.command;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.StateView;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.state.Workspaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** {@code strata workspace list|show|new|select|delete}, with Terraform's messages and safety checks. */
final class WorkspaceCommand extends ParentCommand {
    private static final FlagSet LIST = new FlagSet();
    private static final FlagSet SHOW = new FlagSet();
    private static final FlagSet NEW = new FlagSet();
    private static final LockFlags NEW_LOCK = new LockFlags(NEW);
    private static final FlagSet SELECT = new FlagSet();
    private static final Flag<Boolean> OR_CREATE =
            SELECT.bool("or-create", false, "Create the workspace if it does not exist.");
    private static final FlagSet DELETE = new FlagSet();
    private static final Flag<Boolean> DELETE_FORCE = DELETE.bool(
            "force",
            false,
            "Remove a workspace even if it is managing resources. Strata can no longer track or manage the workspace's infrastructure.");
    private static final LockFlags DELETE_LOCK = new LockFlags(DELETE);

    private static final String NEW_EMPTY = "You're now on a new, empty workspace. Workspaces isolate their state,\n"
            + "so if you run \"strata plan\" Strata will not see any existing state\nfor this configuration.";

    /** Each subcommand's usage and text; the command's help is made from them. */
    private static final List<SubcommandHelp> HELP = List.of(
            new SubcommandHelp("list", "", "list workspaces; the selected one is marked with *.", LIST),
            new SubcommandHelp("show", "", "print the name of the selected workspace.", SHOW),
            new SubcommandHelp(
                    "new",
                    "[-lock=false] [-lock-timeout=DURATION] NAME",
                    "create a workspace and select " + "it.",
                    NEW),
            new SubcommandHelp("select", "[-or-create] NAME", "select a workspace.", SELECT),
            new SubcommandHelp(
                    "delete",
                    "[-force] [-lock=false] [-lock-timeout=DURATION] NAME",
                    "delete a " + "workspace; one that still tracks resources is only deleted with -force.",
                    DELETE));

    WorkspaceCommand() {
        super(
                "workspace",
                "Workspace management",
                "<subcommand> [options] [NAME]",
                "new, list, show, select and delete Strata workspaces.",
                "TF_WORKSPACE, when set, overrides the " + "selected workspace.",
                HELP);
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        StateView view = new StateView(context);
        return StateCli.run(context, this, parsed, view, (sub, args, current, backend) -> switch (sub) {
            case "list" -> list(view, backend, current);
            case "show" -> {
                view.line(current);
                yield 0;
            }
            case "new" -> create(context, view, backend, args);
            case "select" -> select(context, view, backend, current, args);
            case "delete" -> delete(view, backend, current, args);
            default -> throw new IllegalStateException(sub);
        });
    }

    /**
     * A subcommand's arguments, or the plain line (Terraform's wording, not a diagnostic) that refuses its
     * workspace name: missing, more than one, or malformed.
     */
    record Named<T>(Optional<T> args, String refusal) {

        static <T> Named<T> of(T args) {
            return new Named<>(Optional.of(args), "");
        }

        static <T> Named<T> refused(String line) {
            return new Named<>(Optional.empty(), line);
        }

        <U> Named<U> map(Function<T, U> f) {
            return args.isPresent() ? of(f.apply(args.get())) : refused(refusal);
        }

        /** The arguments, or empty after printing the refusal. */
        Optional<T> orRefuse(StateView view) {
            if (args.isEmpty()) {
                view.errorText(refusal);
            }
            return args;
        }
    }

    /** The one workspace name a subcommand takes. */
    private static Named<String> oneName(ParsedArgs args, String usage) {
        if (args.positionals().size() != 1) {
            return Named.refused(
                    "Expected a single argument: NAME.\n\nUsage: strata [global options] workspace " + usage);
        }
        String name = args.positionals().get(0);
        Diagnostic bad = Workspaces.checkName(name);
        // As Terraform prints it: between blank lines, broken where its text is.
        return bad != null
                ? Named.refused("\nThe workspace name \"" + name + "\" is not allowed. The name must contain only URL "
                        + "safe\ncharacters, and no path separators.\n")
                : Named.of(name);
    }

    /**
     * {@code workspace new}'s name and lock. The lock flags are reported only after the name is known to be
     * new, so the record carries their result unreported.
     */
    record NewArgs(String name, Parsed<LockRequest> lock) {

        static Named<NewArgs> parse(ParsedArgs args) {
            return oneName(args, "new [OPTIONS] NAME")
                    .map(name -> new NewArgs(name, NEW_LOCK.parse(args, "OperationTypeInvalid")));
        }
    }

    /** {@code workspace select}'s name and whether a missing workspace is created. */
    record SelectArgs(String name, boolean orCreate) {

        static Named<SelectArgs> parse(ParsedArgs args) {
            return oneName(args, "select [OPTIONS] NAME").map(name -> new SelectArgs(name, args.get(OR_CREATE)));
        }
    }

    /**
     * {@code workspace delete}'s name, -force and lock; the lock flags are reported only after the
     * workspace-existence checks, so the record carries their result unreported.
     */
    record DeleteArgs(String name, boolean force, Parsed<LockRequest> lock) {

        static Named<DeleteArgs> parse(ParsedArgs args) {
            return oneName(args, "delete [OPTIONS] NAME")
                    .map(name -> new DeleteArgs(
                            name, args.get(DELETE_FORCE), DELETE_LOCK.parse(args, "OperationTypeInvalid")));
        }
    }

    private int list(StateView view, Backend backend, String current) {
        Result<List<String>> r = backend.workspaces();
        view.diagnostics(r.diagnostics());
        List<String> lines = new ArrayList<>();
        for (String w : r.value()) {
            lines.add((w.equals(current) ? "* " : "  ") + w);
        }
        lines.add("");
        view.lines(lines);
        return r.hasErrors() ? 1 : 0;
    }

    private int create(CommandContext context, StateView view, Backend backend, ParsedArgs parsed) {
        Optional<NewArgs> given = NewArgs.parse(parsed).orRefuse(view);
        if (given.isEmpty()) {
            return 1;
        }
        String name = given.get().name();
        Parsed<LockRequest> lock = given.get().lock();
        if (lock.hasErrors()) {
            view.diagnostics(lock.diagnostics());
            return 1;
        }
        if (backend.workspaces().value().contains(name)) {
            view.errorText("Workspace \"" + name + "\" already exists");
            return 1;
        }
        return createAndSelect(context, view, backend, name);
    }

    private static int createAndSelect(CommandContext context, StateView view, Backend backend, String name) {
        Result<String> r = backend.createWorkspace(name);
        if (r.hasErrors()) {
            view.diagnostics(r.diagnostics());
            return 1;
        }
        if (!selectAndReport(context, view, name)) {
            return 1;
        }
        view.success("Created and switched to workspace \"" + name + "\"!\n\n" + NEW_EMPTY);
        return 0;
    }

    private static boolean selectAndReport(CommandContext context, StateView view, String name) {
        Result<String> r = Workspaces.select(context.workingDir(), context.env(), name);
        view.diagnostics(r.diagnostics());
        return !r.hasErrors();
    }

    private int select(CommandContext context, StateView view, Backend backend, String current, ParsedArgs parsed) {
        Optional<SelectArgs> given = SelectArgs.parse(parsed).orRefuse(view);
        if (given.isEmpty()) {
            return 1;
        }
        String name = given.get().name();
        if (context.getenv("TF_WORKSPACE") != null) {
            view.errorText(
                    "\nThe selected workspace is currently overridden using the TF_WORKSPACE\nenvironment variable.\n\n"
                            + "To select a new workspace, either update this environment variable or unset\nit and then run this command again.\n");
            return 1;
        }
        if (!backend.workspaces().value().contains(name)) {
            if (!given.get().orCreate()) {
                view.errorText(
                        "Workspace \"" + name + "\" doesn't exist.\n\nYou can create this workspace with the \"new\" "
                                + "subcommand \nor include the \"-or-create\" flag with the \"select\" subcommand.");
                return 1;
            }
            return createAndSelect(context, view, backend, name);
        }
        if (!selectAndReport(context, view, name)) {
            return 1;
        }
        view.success("Switched to workspace \"" + name + "\".");
        return 0;
    }

    private int delete(StateView view, Backend backend, String current, ParsedArgs parsed) {
        Optional<DeleteArgs> given = DeleteArgs.parse(parsed).orRefuse(view);
        if (given.isEmpty()) {
            return 1;
        }
        DeleteArgs args = given.get();
        String name = args.name();
        if (!backend.workspaces().value().contains(name)) {
            view.errorText("Workspace \"" + name + "\" doesn't exist.");
            return 1;
        }
        if (name.equals(current)) {
            view.errorText("Workspace \"" + name + "\" is your active workspace.\n\nYou cannot delete the currently "
                    + "active workspace. Please switch\nto another workspace and try again.");
            return 1;
        }
        if (name.equals(Workspaces.DEFAULT)) {
            view.errorText("cannot delete default state");
            return 1;
        }
        Parsed<LockRequest> lock = args.lock();
        if (lock.hasErrors()) {
            view.diagnostics(lock.diagnostics());
            return 1;
        }
        Result<StateManager> opened = backend.open(name, lock.value());
        boolean force = args.force();
        // A state that cannot be read is not known to be empty: only -force deletes it.
        if (opened.hasErrors() && !force) {
            view.diagnostics(opened.diagnostics());
            return 1;
        }
        List<AbsResourceInstance> tracked;
        try (StateManager m = opened.value()) {
            view.diagnostics(opened.diagnostics());
            tracked = m == null ? List.of() : m.state().instanceAddresses();
            if (!tracked.isEmpty() && !force) {
                StringBuilder d = new StringBuilder(
                        "Workspace \"" + name + "\" is currently tracking the following resource instances:\n");
                tracked.forEach(a -> d.append("  - ").append(a).append('\n'));
                d.append("\nDeleting this workspace would cause Strata to lose track of any associated remote objects, "
                        + "which would then require you to delete them manually outside of Strata. You should destroy "
                        + "these objects with Strata before deleting the workspace.\n\nIf you want to delete this "
                        + "workspace anyway, and have Strata forget about these managed objects, use the -force option "
                        + "to disable this safety check.");
                view.diagnostics(List.of(CliDiagnostic.error("Workspace is not empty", d.toString())));
                return 1;
            }
            Result<String> r = backend.deleteWorkspace(name);
            if (r.hasErrors()) {
                view.diagnostics(r.diagnostics());
                return 1;
            }
        }
        view.success("Deleted workspace \"" + name + "\"!");
        if (!tracked.isEmpty()) {
            view.warningText(
                    "WARNING: \"" + name + "\" was non-empty.\nThe resources managed by the deleted workspace may "
                            + "still exist,\nbut are no longer manageable by Strata since the state has\nbeen deleted.");
        }
        return 0;
    }
}
