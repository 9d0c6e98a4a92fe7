package dev.strata.cli.command;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Targetable;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.StateView;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.JsonValue;
import dev.strata.state.LockRequest;
import dev.strata.state.PgBackend;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.StateCodec;
import dev.strata.state.StateEdits;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code strata state <subcommand>}: inspect and edit the state of the selected workspace, with
 * Terraform's subcommands, flags and messages. Every subcommand that writes takes the lock (unless
 * {@code -lock=false}), keeps the state as it was in {@code terraform.tfstate.backup}, and says what it
 * did.
 */
final class StateCommand extends ParentCommand {
    private static final FlagSet LIST = new FlagSet();
    private static final Flag<String> LIST_ID = LIST.string(
            "id",
            "",
            "ID",
            "Filters the results to include only instances whose resource types have an attribute named \"id\" "
                    + "whose value equals the given id string.");

    private static final Flag<Boolean> LIST_HISTORY = LIST.bool(
            "history",
            false,
            "List the stored serials of the workspace's state instead of its resources (pg backend, which keeps "
                    + "every serial).");

    private static final FlagSet SHOW = new FlagSet();
    private static final FlagSet PULL = new FlagSet();
    private static final Flag<String> PULL_SERIAL = PULL.string(
            "serial",
            "",
            "N",
            "Print serial N from the state's history (pg backend) instead of the current state. To restore it, "
                    + "save it to a file and \"state push -force\" that file.");
    private static final Flag<String> PULL_LINEAGE = PULL.string(
            "lineage",
            "",
            "LINEAGE",
            "With -serial: the lineage of the serial, when the history holds more than one (default: the "
                    + "current lineage).");

    private static final FlagSet PUSH = new FlagSet();
    private static final Flag<Boolean> PUSH_FORCE =
            PUSH.bool("force", false, "Write the state even if lineages don't match or the remote serial is higher.");
    private static final LockFlags PUSH_LOCK = new LockFlags(PUSH);

    private static final FlagSet RM = new FlagSet();
    private static final Flag<Boolean> RM_DRY =
            RM.bool("dry-run", false, "Only print which instances would be removed.");
    private static final LockFlags RM_LOCK = new LockFlags(RM);

    private static final FlagSet MV = new FlagSet();
    private static final Flag<Boolean> MV_DRY = MV.bool("dry-run", false, "Only print what would be moved.");
    private static final LockFlags MV_LOCK = new LockFlags(MV);

    private static final FlagSet REPLACE = new FlagSet();
    private static final Flag<Boolean> REPLACE_YES = REPLACE.bool("auto-approve", false, "Skip interactive approval.");
    private static final LockFlags REPLACE_LOCK = new LockFlags(REPLACE);

    /** Each subcommand's usage and text; the command's help is made from them. */
    private static final List<SubcommandHelp> HELP = List.of(
            new SubcommandHelp(
                    "list",
                    "[-id=ID] [-history] [ADDRESS...]",
                    "list resource instances, optionally only "
                            + "those in the given modules or resources; with -history, the stored serials of the state.",
                    LIST),
            new SubcommandHelp(
                    "show",
                    "ADDRESS",
                    "show the attributes of one resource instance; sensitive values " + "are hidden.",
                    SHOW),
            new SubcommandHelp(
                    "pull",
                    "[-serial=N [-lineage=L]]",
                    "print the state as stored, as JSON; with -serial, " + "an earlier serial from the history.",
                    PULL),
            new SubcommandHelp(
                    "push",
                    "[-force] [-lock=false] [-lock-timeout=DURATION] FILE",
                    "replace the state "
                            + "with FILE (\"-\" reads standard input). Refuses a different lineage or an older serial unless "
                            + "-force.",
                    PUSH),
            new SubcommandHelp(
                    "rm",
                    "[-dry-run] [-lock=false] [-lock-timeout=DURATION] ADDRESS...",
                    "forget " + "instances without destroying them.",
                    RM),
            new SubcommandHelp(
                    "mv",
                    "[-dry-run] [-lock=false] [-lock-timeout=DURATION] SOURCE DESTINATION",
                    "move a " + "module, resource or instance to another address.",
                    MV),
            new SubcommandHelp(
                    "replace-provider",
                    "[-auto-approve] [-lock=false] [-lock-timeout=DURATION] FROM TO",
                    "point resources at another provider, e.g. hashicorp/aws to registry.acme.corp/acme/aws.",
                    REPLACE));

    StateCommand() {
        super(
                "state",
                "Advanced state management",
                "<subcommand> [options] [args]",
                "This command has subcommands "
                        + "for advanced state management. They work on the state of the selected workspace.",
                "",
                HELP);
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        StateView view = new StateView(context);
        return StateCli.run(context, this, parsed, view, (sub, args, workspace, backend) -> switch (sub) {
            case "list" -> list(view, backend, workspace, args);
            case "show" -> show(view, backend, workspace, args);
            case "pull" -> pull(view, backend, workspace, args);
            case "push" -> push(context, view, backend, workspace, args);
            case "rm" -> rm(view, backend, workspace, args);
            case "mv" -> mv(view, backend, workspace, args);
            case "replace-provider" -> replaceProvider(context, view, backend, workspace, args);
            default -> throw new IllegalStateException(sub);
        });
    }

    /** Opens the state for reading or writing, reporting problems; empty on failure. */
    private static Optional<StateManager> open(StateView view, Backend backend, String workspace, LockRequest lock) {
        Result<StateManager> r = backend.open(workspace, lock);
        view.diagnostics(r.diagnostics());
        return r.hasErrors() ? Optional.empty() : Optional.of(r.value());
    }

    /** As {@link #open}, for a state that must exist: a workspace without one is reported and closed again. */
    private static Optional<StateManager> openExisting(
            StateView view, Backend backend, String workspace, LockRequest lock) {
        Optional<StateManager> opened = open(view, backend, workspace, lock);
        if (opened.isPresent() && !opened.get().exists()) {
            try (StateManager m = opened.get()) {
                view.errorText(NO_STATE);
                return Optional.empty();
            }
        }
        return opened;
    }

    /** Opens the state with the lock the flags ask for, reporting bad flags (and a missing state if it must exist). */
    private static Optional<StateManager> openLocked(
            StateView view, Backend backend, String workspace, Parsed<LockRequest> lock, boolean mustExist) {
        if (lock.hasErrors()) {
            view.diagnostics(lock.diagnostics());
            return Optional.empty();
        }
        return mustExist
                ? openExisting(view, backend, workspace, lock.value())
                : open(view, backend, workspace, lock.value());
    }

    /**
     * The addresses a subcommand was given and the lock its flags ask for: what rm and mv check before
     * opening the state.
     */
    private record Edit(List<Targetable> addresses, LockRequest lock) {}

    private static Parsed<Edit> edit(List<String> texts, LockFlags flags, ParsedArgs args) {
        Parsed<List<Targetable>> addrs = addresses(texts);
        if (addrs.hasErrors()) {
            return Parsed.failed(addrs.diagnostics());
        }
        Parsed<LockRequest> lock = flags.parse(args, "OperationTypeInvalid");
        return lock.hasErrors() ? Parsed.failed(lock.diagnostics()) : Parsed.of(new Edit(addrs.value(), lock.value()));
    }

    private static final String NO_STATE =
            "No state file was found!\n\nState management commands require a state file. "
                    + "Run this command\nin a directory where Strata has been run or use the -state flag\nto point the command to "
                    + "a specific state location.";

    private static Parsed<List<Targetable>> addresses(List<String> texts) {
        List<Targetable> out = new ArrayList<>();
        List<CliDiagnostic> problems = new ArrayList<>();
        for (String t : texts) {
            Result<Targetable> r = Addrs.parseTarget(t);
            if (r.value() == null) {
                problems.add(CliDiagnostic.error(
                        "Invalid address",
                        "\"" + t + "\" is not a valid resource address: "
                                + Addrs.problem(r.diagnostics())
                                + " Addresses look like aws_instance.web, aws_instance.web[0], "
                                + "data.aws_ami.ubuntu or module.net.aws_subnet.a[\"x\"]."));
            }
            out.add(r.value());
        }
        return problems.isEmpty() ? Parsed.of(out) : Parsed.failed(problems);
    }

    private int list(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.get(LIST_HISTORY)) {
            return history(view, backend, workspace, args);
        }
        Parsed<List<Targetable>> parsedFilters = addresses(args.positionals());
        if (parsedFilters.hasErrors()) {
            view.diagnostics(parsedFilters.diagnostics());
            return 1;
        }
        List<Targetable> filters = parsedFilters.value();
        Optional<StateManager> opened = openExisting(view, backend, workspace, LockRequest.none());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            StateSnapshot s = m.state();
            Set<AbsResourceInstance> shown = new LinkedHashSet<>();
            List<CliDiagnostic> problems = new ArrayList<>();
            if (filters.isEmpty()) {
                shown.addAll(s.instanceAddresses());
            }
            for (Targetable f : filters) {
                List<AbsResourceInstance> matched = StateEdits.matching(s, f);
                if (matched.isEmpty()) {
                    problems.add(CliDiagnostic.error(
                            "Unknown resource",
                            "The current state contains no resource " + f
                                    + ". If you've just added this resource to the configuration, you must run \"strata apply\" "
                                    + "first to create the resource's entry in the state."));
                }
                shown.addAll(matched);
            }
            String id = args.get(LIST_ID);
            List<String> lines = new ArrayList<>();
            for (AbsResourceInstance a : shown) {
                if (id.isEmpty() || m.state().objects(a).stream().anyMatch(o -> hasId(o, id))) {
                    lines.add(a.toString());
                }
            }
            view.lines(lines);
            view.diagnostics(problems);
            return problems.isEmpty() ? 0 : 1;
        }
    }

    private static boolean hasId(ResourceInstanceObject o, String id) {
        return o.attributes() instanceof JsonValue.ObjectValue a
                && a.get("id") instanceof JsonValue.StringValue s
                && s.value().equals(id);
    }

    private static final String NO_INSTANCE =
            "No instance found for the given address!\n\nThis command requires that the "
                    + "address references one specific instance.\nTo view the available instances, use \"strata state list\". "
                    + "Please modify \nthe address to reference a specific instance.";

    private int show(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().size() != 1) {
            view.errorText(
                    "Exactly one argument expected.\n\nUsage: strata [global options] state show [options] ADDRESS");
            return 1;
        }
        Parsed<List<Targetable>> addrs = addresses(args.positionals());
        if (addrs.hasErrors()) {
            view.diagnostics(addrs.diagnostics());
            return 1;
        }
        Optional<StateManager> opened = openExisting(view, backend, workspace, LockRequest.none());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            AbsResourceInstance target = switch (addrs.value().get(0)) {
                case AbsResourceInstance i -> i;
                case AbsResource r -> r.instance(InstanceKey.NONE);
                case ModuleInstance mod -> null;
            };
            List<ResourceInstanceObject> objs =
                    target == null ? List.of() : m.state().objects(target);
            if (objs.isEmpty()) {
                view.errorText(NO_INSTANCE);
                return 1;
            }
            for (ResourceInstanceObject o : objs) {
                view.showInstance(target, o);
            }
            return 0;
        }
    }

    /** The history of a workspace: every serial written, newest first. Only the pg backend keeps one. */
    private static Optional<PgBackend> historyOf(StateView view, Backend backend) {
        if (Interrupts.unwrap(backend) instanceof PgBackend pg) {
            return Optional.of(pg);
        }
        view.diagnostics(List.of(CliDiagnostic.error(
                "No state history",
                "The local backend keeps only the "
                        + "previous state (terraform.tfstate.backup), not a history of serials. The pg backend keeps every "
                        + "serial of every workspace.")));
        return Optional.empty();
    }

    private int history(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (!args.positionals().isEmpty()) {
            view.errorText("-history takes no addresses.\n\nUsage: strata [global options] state list -history");
            return 1;
        }
        Optional<PgBackend> history = historyOf(view, backend);
        if (history.isEmpty()) {
            return 1;
        }
        PgBackend pg = history.get();
        Result<List<PgBackend.HistoryEntry>> h = pg.history(workspace);
        view.diagnostics(h.diagnostics());
        if (h.hasErrors()) {
            return 1;
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format("%-8s %-36s  %-24s %s", "SERIAL", "LINEAGE", "WRITTEN", "BYTES"));
        for (PgBackend.HistoryEntry e : h.value()) {
            lines.add(String.format(
                    "%-8d %-36s  %-24s %d",
                    e.serial(),
                    e.lineage(),
                    e.writtenAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                    e.bytes()));
        }
        view.lines(lines);
        return 0;
    }

    private int pullSerial(StateView view, Backend backend, String workspace, ParsedArgs args) {
        long serial;
        try {
            serial = Long.parseLong(args.get(PULL_SERIAL));
        } catch (NumberFormatException e) {
            view.diagnostics(List.of(CliDiagnostic.error(
                    "Invalid value for -serial",
                    "The value \""
                            + args.get(PULL_SERIAL) + "\" is not a serial number: write a whole number, as listed by "
                            + "\"strata state list -history\".")));
            return 1;
        }
        Optional<PgBackend> history = historyOf(view, backend);
        if (history.isEmpty()) {
            return 1;
        }
        PgBackend pg = history.get();
        String lineage = args.get(PULL_LINEAGE);
        if (lineage.isEmpty()) {
            Result<List<PgBackend.HistoryEntry>> h = pg.history(workspace);
            view.diagnostics(h.diagnostics());
            if (h.hasErrors()) {
                return 1;
            }
            List<String> lineages = h.value().stream()
                    .filter(e -> e.serial() == serial)
                    .map(PgBackend.HistoryEntry::lineage)
                    .distinct()
                    .toList();
            String current = h.value().isEmpty() ? null : h.value().get(0).lineage();
            if (lineages.contains(current)) {
                lineage = current;
            } else if (lineages.size() == 1) {
                lineage = lineages.get(0);
            } else if (lineages.isEmpty()) {
                view.diagnostics(List.of(CliDiagnostic.error(
                        "No such state in the history",
                        "Workspace \""
                                + workspace + "\" has no stored serial " + serial
                                + ". \"strata state list -history\" lists "
                                + "the stored serials.")));
                return 1;
            } else {
                view.diagnostics(List.of(CliDiagnostic.error(
                        "Ambiguous serial",
                        "Serial " + serial + " exists in " + "lineages " + String.join(", ", lineages)
                                + ". Choose one with -lineage.")));
                return 1;
            }
        }
        Result<StateSnapshot> s = pg.historic(workspace, lineage, serial);
        view.diagnostics(s.diagnostics());
        if (s.hasErrors()) {
            return 1;
        }
        view.raw(StateCodec.write(s.value()));
        return 0;
    }

    private int pull(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (!args.get(PULL_SERIAL).isEmpty()) {
            return pullSerial(view, backend, workspace, args);
        }
        Optional<StateManager> opened = open(view, backend, workspace, LockRequest.none());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            if (m.exists()) {
                view.raw(StateCodec.write(m.state()));
            }
            return 0;
        }
    }

    private int push(CommandContext context, StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().size() != 1) {
            view.errorText(
                    "Exactly one argument expected.\n\nUsage: strata [global options] state push [options] PATH");
            return 1;
        }
        String file = args.positionals().get(0);
        byte[] bytes;
        try {
            // Through the backend's reader: if this is a state file this process holds locked, opening it anew
            // and closing it would drop the lock.
            bytes = file.equals("-")
                    ? context.stdin().readAllBytes()
                    : dev.strata.state.LocalBackend.readStateFile(context.resolve(file));
        } catch (NoSuchFileException e) {
            view.errorText("open " + file + ": no such file or directory");
            return 1;
        } catch (IOException e) {
            view.errorText("Error reading source state \"" + file + "\": " + dev.strata.hcl.IoProblems.reason(e));
            return 1;
        }
        Result<StateSnapshot> incoming = StateCodec.read(bytes, file, "");
        if (incoming.hasErrors()) {
            view.diagnostics(incoming.diagnostics());
            return 1;
        }
        Optional<StateManager> opened =
                openLocked(view, backend, workspace, PUSH_LOCK.parse(args, "OperationTypeInvalid"), false);
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            Result<StateSnapshot> w = m.replace(incoming.value(), args.get(PUSH_FORCE));
            if (w.hasErrors()) {
                w.diagnostics().forEach(d -> view.errorText(d.summary() + ": " + d.detail()));
                return 1;
            }
            return 0;
        }
    }

    private int rm(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().isEmpty()) {
            view.errorText(
                    "At least one address is required.\n\nUsage: strata [global options] state rm [options] ADDRESS...");
            return 1;
        }
        Parsed<Edit> edit = edit(args.positionals(), RM_LOCK, args);
        if (edit.hasErrors()) {
            view.diagnostics(edit.diagnostics());
            return 1;
        }
        boolean dry = args.get(RM_DRY);
        Optional<StateManager> opened = openExisting(
                view,
                backend,
                workspace,
                dry ? LockRequest.none() : edit.value().lock());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            List<CliDiagnostic> problems = new ArrayList<>();
            Set<AbsResourceInstance> gone = new LinkedHashSet<>();
            for (Targetable a : edit.value().addresses()) {
                List<AbsResourceInstance> matched = StateEdits.matching(m.state(), a);
                if (matched.isEmpty()) {
                    problems.add(CliDiagnostic.error(
                            "Invalid target address",
                            "No matching objects found. To view the "
                                    + "available instances, use \"strata state list\". Please modify the address to reference a "
                                    + "specific instance."));
                }
                gone.addAll(matched);
            }
            if (!problems.isEmpty()) {
                view.diagnostics(problems);
                return 1;
            }
            List<String> lines = new ArrayList<>();
            for (AbsResourceInstance a : gone) {
                lines.add((dry ? "Would remove " : "Removed ") + a);
            }
            if (dry) {
                view.lines(lines);
                return 0;
            }
            Result<StateSnapshot> w = m.persist(StateEdits.remove(m.state(), List.copyOf(gone)));
            if (w.hasErrors()) {
                view.diagnostics(w.diagnostics());
                return 1;
            }
            view.lines(lines);
            view.line("Successfully removed " + gone.size() + " resource instance(s).");
            return 0;
        }
    }

    private int replaceProvider(
            CommandContext context, StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().size() != 2) {
            view.errorText(
                    "Exactly two arguments expected.\n\nUsage: strata [global options] state replace-provider [options] "
                            + "FROM_PROVIDER_FQN TO_PROVIDER_FQN");
            return 1;
        }
        Optional<StateManager> opened =
                openLocked(view, backend, workspace, REPLACE_LOCK.parse(args, "OperationTypeInvalid"), true);
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            Result<StateEdits.ProviderReplacement> r = StateEdits.replaceProvider(
                    m.state(), args.positionals().get(0), args.positionals().get(1));
            if (r.hasErrors()) {
                view.diagnostics(r.diagnostics());
                return 1;
            }
            StateEdits.ProviderReplacement rep = r.value();
            if (rep.changed().isEmpty()) {
                view.line("No matching resources found.");
                return 0;
            }
            List<String> plan = new ArrayList<>(List.of(
                    "Strata will perform the following actions:",
                    "",
                    "  ~ Updating provider:",
                    "    - " + rep.from(),
                    "    + " + rep.to(),
                    "",
                    "Changing " + rep.changed().size() + " resources:",
                    ""));
            rep.changed().forEach(a -> plan.add("  " + a));
            plan.add("");
            view.lines(plan);
            if (!args.get(REPLACE_YES)) {
                if (!view.confirm("Do you want to make these changes?\nOnly 'yes' will be accepted to continue.\n\n"
                        + "Enter a value: ")) {
                    view.errorText("Cancelled replacing providers.");
                    return 1;
                }
            }
            Result<StateSnapshot> w = m.persist(rep.state());
            if (w.hasErrors()) {
                view.diagnostics(w.diagnostics());
                return 1;
            }
            view.line("Successfully replaced provider for " + rep.changed().size() + " resources.");
            return 0;
        }
    }

    private int mv(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().size() != 2) {
            view.errorText(
                    "Exactly two arguments expected.\n\nUsage: strata [global options] state mv [options] SOURCE DESTINATION");
            return 1;
        }
        Parsed<Edit> edit = edit(args.positionals(), MV_LOCK, args);
        if (edit.hasErrors()) {
            view.diagnostics(edit.diagnostics());
            return 1;
        }
        List<Targetable> addrs = edit.value().addresses();
        boolean dry = args.get(MV_DRY);
        Optional<StateManager> opened = openExisting(
                view,
                backend,
                workspace,
                dry ? LockRequest.none() : edit.value().lock());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            Result<StateSnapshot> moved = StateEdits.move(m.state(), addrs.get(0), addrs.get(1));
            if (moved.hasErrors()) {
                view.diagnostics(moved.diagnostics());
                return 1;
            }
            String what = "\"" + addrs.get(0) + "\" to \"" + addrs.get(1) + "\"";
            if (dry) {
                view.line("Would move " + what);
                return 0;
            }
            Result<StateSnapshot> w = m.persist(moved.value());
            if (w.hasErrors()) {
                view.diagnostics(w.diagnostics());
                return 1;
            }
            view.line("Move " + what);
            view.line("Successfully moved 1 object(s).");
            return 0;
        }
    }
}
