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

    private static final LegacyStatePaths LIST_FILES = new LegacyStatePaths(LIST, false, false);

    private static final FlagSet SHOW = new FlagSet();
    private static final LegacyStatePaths SHOW_FILES = new LegacyStatePaths(SHOW, false, false);
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
    private static final LegacyStatePaths RM_FILES = new LegacyStatePaths(RM, false, true);

    private static final FlagSet MV = new FlagSet();
    private static final Flag<Boolean> MV_DRY = MV.bool("dry-run", false, "Only print what would be moved.");
    private static final LockFlags MV_LOCK = new LockFlags(MV);
    private static final LegacyStatePaths MV_FILES = new LegacyStatePaths(MV, true, true);

    private static final FlagSet REPLACE = new FlagSet();
    private static final Flag<Boolean> REPLACE_YES = REPLACE.bool("auto-approve", false, "Skip interactive approval.");
    private static final LockFlags REPLACE_LOCK = new LockFlags(REPLACE);
    private static final LegacyStatePaths REPLACE_FILES = new LegacyStatePaths(REPLACE, false, true);

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
        return StateCli.run(
                context, this, parsed, view, StateCommand::files, (sub, args, workspace, backend) -> switch (sub) {
                    case "list" -> list(view, backend, workspace, args);
                    case "show" -> show(context, view, backend, workspace, args);
                    case "pull" -> pull(view, backend, workspace, args);
                    case "push" -> push(context, view, backend, workspace, args);
                    case "rm" -> rm(view, backend, workspace, args);
                    case "mv" -> mv(view, backend, workspace, args);
                    case "replace-provider" -> replaceProvider(context, view, backend, workspace, args);
                    default -> throw new IllegalStateException(sub);
                });
    }

    /**
     * The state files of a subcommand: the legacy paths it takes, and, for those that edit the state
     * (not push, which keeps the plain backup as Terraform's does), Terraform's timestamped backups.
     */
    private static StateCli.Files files(String sub, ParsedArgs args) {
        return switch (sub) {
            case "list" -> new StateCli.Files(LIST_FILES.parse(args).value(), false);
            case "show" -> new StateCli.Files(SHOW_FILES.parse(args).value(), false);
            case "rm" -> new StateCli.Files(RM_FILES.parse(args).value(), true);
            case "mv" -> new StateCli.Files(MV_FILES.parse(args).value(), true);
            case "replace-provider" ->
                new StateCli.Files(REPLACE_FILES.parse(args).value(), true);
            default -> StateCli.Files.DEFAULT;
        };
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

    /**
     * {@code state list}'s arguments: the id filter, whether the history is listed instead, and the
     * address filters (none with {@code -history}). Empty when {@code -history} is given addresses,
     * which Strata refuses with a plain usage line.
     */
    record ListArgs(String id, boolean history, List<Targetable> filters) {

        static Optional<Parsed<ListArgs>> parse(ParsedArgs args) {
            if (args.get(LIST_HISTORY)) {
                return args.positionals().isEmpty()
                        ? Optional.of(Parsed.of(new ListArgs(args.get(LIST_ID), true, List.of())))
                        : Optional.empty();
            }
            Parsed<List<Targetable>> filters = addresses(args.positionals());
            return Optional.of(
                    filters.hasErrors()
                            ? Parsed.failed(filters.diagnostics())
                            : Parsed.of(new ListArgs(args.get(LIST_ID), false, filters.value())));
        }
    }

    /** {@code state show}'s one address; empty when not exactly one is given (Terraform's plain usage line). */
    record ShowArgs(Targetable address) {

        static Optional<Parsed<ShowArgs>> parse(ParsedArgs args) {
            if (args.positionals().size() != 1) {
                return Optional.empty();
            }
            Parsed<List<Targetable>> addrs = addresses(args.positionals());
            return Optional.of(
                    addrs.hasErrors()
                            ? Parsed.failed(addrs.diagnostics())
                            : Parsed.of(new ShowArgs(addrs.value().get(0))));
        }
    }

    /** {@code state pull}'s arguments: the serial from the history to print (none: the current state) and its lineage. */
    record PullArgs(Optional<Long> serial, Optional<String> lineage) {

        static Parsed<PullArgs> parse(ParsedArgs args) {
            String lineage = args.get(PULL_LINEAGE);
            Optional<String> chosen = lineage.isEmpty() ? Optional.empty() : Optional.of(lineage);
            String serial = args.get(PULL_SERIAL);
            if (serial.isEmpty()) {
                return Parsed.of(new PullArgs(Optional.empty(), chosen));
            }
            try {
                return Parsed.of(new PullArgs(Optional.of(Long.parseLong(serial)), chosen));
            } catch (NumberFormatException e) {
                return Parsed.failed(CliDiagnostic.error(
                        "Invalid value for -serial",
                        "The value \""
                                + serial + "\" is not a serial number: write a whole number, as listed by "
                                + "\"strata state list -history\"."));
            }
        }
    }

    /**
     * {@code state push}'s arguments. The lock flags are reported only after the file is read, as before,
     * so the record carries their result unreported. Empty when not exactly one file is given.
     */
    record PushArgs(String file, boolean force, Parsed<LockRequest> lock) {

        static Optional<PushArgs> parse(ParsedArgs args) {
            return args.positionals().size() != 1
                    ? Optional.empty()
                    : Optional.of(new PushArgs(
                            args.positionals().get(0),
                            args.get(PUSH_FORCE),
                            PUSH_LOCK.parse(args, "OperationTypeInvalid")));
        }
    }

    /**
     * {@code state rm}'s addresses, dry-run flag and the lock to take (none for a dry run). Address
     * problems come before a malformed lock timeout. Empty without addresses.
     */
    record RmArgs(List<Targetable> addresses, boolean dryRun, LockRequest lock) {

        static Optional<Parsed<RmArgs>> parse(ParsedArgs args) {
            if (args.positionals().isEmpty()) {
                return Optional.empty();
            }
            Parsed<Edit> e = edit(args, RM_LOCK, args.get(RM_DRY));
            return Optional.of(
                    e.hasErrors()
                            ? Parsed.failed(e.diagnostics())
                            : Parsed.of(new RmArgs(
                                    e.value().addresses(),
                                    e.value().dryRun(),
                                    e.value().lock())));
        }
    }

    /** {@code state mv}'s source and destination, as {@link RmArgs}; empty unless exactly two addresses are given. */
    record MvArgs(Targetable source, Targetable destination, boolean dryRun, LockRequest lock) {

        static Optional<Parsed<MvArgs>> parse(ParsedArgs args) {
            if (args.positionals().size() != 2) {
                return Optional.empty();
            }
            Parsed<Edit> e = edit(args, MV_LOCK, args.get(MV_DRY));
            if (e.hasErrors()) {
                return Optional.of(Parsed.failed(e.diagnostics()));
            }
            List<Targetable> addrs = e.value().addresses();
            return Optional.of(Parsed.of(new MvArgs(
                    addrs.get(0), addrs.get(1), e.value().dryRun(), e.value().lock())));
        }
    }

    /** {@code state replace-provider}'s two provider addresses, as given; empty unless exactly two are given. */
    record ReplaceProviderArgs(String from, String to, boolean autoApprove, LockRequest lock) {

        static Optional<Parsed<ReplaceProviderArgs>> parse(ParsedArgs args) {
            if (args.positionals().size() != 2) {
                return Optional.empty();
            }
            Parsed<LockRequest> lock = REPLACE_LOCK.parse(args, "OperationTypeInvalid");
            return Optional.of(
                    lock.hasErrors()
                            ? Parsed.failed(lock.diagnostics())
                            : Parsed.of(new ReplaceProviderArgs(
                                    args.positionals().get(0),
                                    args.positionals().get(1),
                                    args.get(REPLACE_YES),
                                    lock.value())));
        }
    }

    /** What rm and mv share: the addresses (checked first), then the lock, which a dry run does not take. */
    private record Edit(List<Targetable> addresses, boolean dryRun, LockRequest lock) {}

    private static Parsed<Edit> edit(ParsedArgs args, LockFlags flags, boolean dryRun) {
        Parsed<List<Targetable>> addrs = addresses(args.positionals());
        if (addrs.hasErrors()) {
            return Parsed.failed(addrs.diagnostics());
        }
        Parsed<LockRequest> lock = flags.parse(args, "OperationTypeInvalid");
        return lock.hasErrors()
                ? Parsed.failed(lock.diagnostics())
                : Parsed.of(new Edit(addrs.value(), dryRun, dryRun ? LockRequest.none() : lock.value()));
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

    private int list(StateView view, Backend backend, String workspace, ParsedArgs parsed) {
        Optional<Parsed<ListArgs>> given = ListArgs.parse(parsed);
        if (given.isEmpty()) {
            view.errorText("-history takes no addresses.\n\nUsage: strata [global options] state list -history");
            return 1;
        }
        if (given.get().hasErrors()) {
            view.diagnostics(given.get().diagnostics());
            return 1;
        }
        ListArgs args = given.get().value();
        if (args.history()) {
            return history(view, backend, workspace);
        }
        List<Targetable> filters = args.filters();
        Optional<StateManager> opened = openExisting(view, backend, workspace, LockRequest.none());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            StateSnapshot s = m.state();
            Set<AbsResourceInstance> shown = new LinkedHashSet<>();
            if (filters.isEmpty()) {
                shown.addAll(s.instanceAddresses());
            }
            for (Targetable f : filters) {
                List<AbsResourceInstance> matched = StateEdits.targeted(s, f);
                if (matched.isEmpty()) {
                    // As Terraform: an address that names nothing is an error, and nothing is listed.
                    view.diagnostics(List.of(
                            f instanceof ModuleInstance
                                    ? CliDiagnostic.error(
                                            "Unknown module",
                                            "The current state contains no module at " + f
                                                    + ". If you've just added this module to the configuration, you "
                                                    + "must run \"strata apply\" first to create the module's entry in "
                                                    + "the state.")
                                    : CliDiagnostic.error(
                                            "Unknown resource",
                                            "The current state contains no resource " + f
                                                    + ". If you've just added this resource to the configuration, you "
                                                    + "must run \"strata apply\" first to create the resource's entry in "
                                                    + "the state.")));
                    return 1;
                }
                shown.addAll(matched);
            }
            String id = args.id();
            List<String> lines = new ArrayList<>();
            for (AbsResourceInstance a : shown) {
                if (id.isEmpty() || m.state().objects(a).stream().anyMatch(o -> hasId(o, id))) {
                    lines.add(a.toString());
                }
            }
            view.lines(lines);
            return 0;
        }
    }

    private static boolean hasId(ResourceInstanceObject o, String id) {
        return o.attributes() instanceof JsonValue.ObjectValue a
                && a.get("id") instanceof JsonValue.StringValue s
                && s.value().equals(id);
    }

    private static final String ONE_INSTANCE = "This command requires that the address references one specific "
            + "instance.\nTo view the available instances, use \"strata state list\". Please modify \nthe address to "
            + "reference a specific instance.";

    private static final String NO_INSTANCE = "No instance found for the given address!\n\n" + ONE_INSTANCE;

    private int show(CommandContext context, StateView view, Backend backend, String workspace, ParsedArgs parsed) {
        Optional<Parsed<ShowArgs>> given = ShowArgs.parse(parsed);
        if (given.isEmpty()) {
            view.errorText(
                    "Exactly one argument expected.\n\nUsage: strata [global options] state show [options] ADDRESS");
            return 1;
        }
        if (given.get().hasErrors()) {
            view.diagnostics(given.get().diagnostics());
            return 1;
        }
        Optional<StateManager> opened = openExisting(view, backend, workspace, LockRequest.none());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            AbsResourceInstance target = switch (given.get().value().address()) {
                case AbsResourceInstance i -> i;
                case AbsResource r -> r.instance(InstanceKey.NONE);
                case ModuleInstance mod -> {
                    // As Terraform: a module is not an instance address at all.
                    view.errorText("Error parsing instance address: " + mod + "\n\n" + ONE_INSTANCE);
                    yield null;
                }
            };
            if (target == null) {
                return 1;
            }
            // As Terraform: the current object only, not those deposed beside it.
            List<ResourceInstanceObject> objs = m.state().objects(target).stream()
                    .filter(o -> !o.isDeposed())
                    .toList();
            if (objs.isEmpty()) {
                view.errorText(NO_INSTANCE);
                return 1;
            }
            // As Terraform: the object as show renders it, typed by its provider's schema where there is one.
            var schemas = new dev.strata.engine.Schemas(Operation.providers(context));
            var rs = m.state().resource(target.containingResource()).orElseThrow();
            for (ResourceInstanceObject o : objs) {
                view.showInstance(rs, o, schemas);
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

    private int history(StateView view, Backend backend, String workspace) {
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

    private int pullSerial(StateView view, Backend backend, String workspace, long serial, Optional<String> chosen) {
        Optional<PgBackend> history = historyOf(view, backend);
        if (history.isEmpty()) {
            return 1;
        }
        PgBackend pg = history.get();
        String lineage = chosen.orElse("");
        if (chosen.isEmpty()) {
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

    private int pull(StateView view, Backend backend, String workspace, ParsedArgs parsed) {
        Parsed<PullArgs> args = PullArgs.parse(parsed);
        if (args.hasErrors()) {
            view.diagnostics(args.diagnostics());
            return 1;
        }
        if (args.value().serial().isPresent()) {
            return pullSerial(
                    view,
                    backend,
                    workspace,
                    args.value().serial().get(),
                    args.value().lineage());
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

    private int push(CommandContext context, StateView view, Backend backend, String workspace, ParsedArgs parsed) {
        Optional<PushArgs> given = PushArgs.parse(parsed);
        if (given.isEmpty()) {
            view.errorText(
                    "Exactly one argument expected.\n\nUsage: strata [global options] state push [options] PATH");
            return 1;
        }
        PushArgs args = given.get();
        String file = args.file();
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
        // push reports malformed lock flags only once the file has been read and decoded.
        if (args.lock().hasErrors()) {
            view.diagnostics(args.lock().diagnostics());
            return 1;
        }
        Optional<StateManager> opened =
                open(view, backend, workspace, args.lock().value());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            Result<StateSnapshot> w = m.replace(incoming.value(), args.force());
            if (w.hasErrors()) {
                w.diagnostics().forEach(d -> view.errorText(d.summary() + ": " + d.detail()));
                return 1;
            }
            return 0;
        }
    }

    private int rm(StateView view, Backend backend, String workspace, ParsedArgs parsed) {
        Optional<Parsed<RmArgs>> given = RmArgs.parse(parsed);
        if (given.isEmpty()) {
            view.errorText(
                    "At least one address is required.\n\nUsage: strata [global options] state rm [options] ADDRESS...");
            return 1;
        }
        if (given.get().hasErrors()) {
            view.diagnostics(given.get().diagnostics());
            return 1;
        }
        RmArgs args = given.get().value();
        boolean dry = args.dryRun();
        Optional<StateManager> opened = openExisting(view, backend, workspace, args.lock());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            Set<AbsResourceInstance> gone = new LinkedHashSet<>();
            for (Targetable a : args.addresses()) {
                gone.addAll(StateEdits.targeted(m.state(), a));
            }
            // As Terraform: addresses that name nothing are passed over while another names something.
            if (gone.isEmpty() && dry) {
                view.lines(List.of("Would have removed nothing."));
                return 0;
            }
            if (gone.isEmpty()) {
                view.diagnostics(List.of(CliDiagnostic.error(
                        "Invalid target address",
                        "No matching objects found. To view the available instances, use \"strata state list\". "
                                + "Please modify the address to reference a specific instance.")));
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
            CommandContext context, StateView view, Backend backend, String workspace, ParsedArgs parsed) {
        Optional<Parsed<ReplaceProviderArgs>> given = ReplaceProviderArgs.parse(parsed);
        if (given.isEmpty()) {
            view.errorText(
                    "Exactly two arguments expected.\n\nUsage: strata [global options] state replace-provider [options] "
                            + "FROM_PROVIDER_FQN TO_PROVIDER_FQN");
            return 1;
        }
        if (given.get().hasErrors()) {
            view.diagnostics(given.get().diagnostics());
            return 1;
        }
        ReplaceProviderArgs args = given.get().value();
        Optional<StateManager> opened = openExisting(view, backend, workspace, args.lock());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            Result<StateEdits.ProviderReplacement> r = StateEdits.replaceProvider(m.state(), args.from(), args.to());
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
            if (!args.autoApprove()) {
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

    private int mv(StateView view, Backend backend, String workspace, ParsedArgs parsed) {
        Optional<Parsed<MvArgs>> given = MvArgs.parse(parsed);
        if (given.isEmpty()) {
            view.errorText(
                    "Exactly two arguments expected.\n\nUsage: strata [global options] state mv [options] SOURCE DESTINATION");
            return 1;
        }
        if (given.get().hasErrors()) {
            view.diagnostics(given.get().diagnostics());
            return 1;
        }
        MvArgs args = given.get().value();
        boolean dry = args.dryRun();
        Optional<StateManager> opened = openExisting(view, backend, workspace, args.lock());
        if (opened.isEmpty()) {
            return 1;
        }
        try (StateManager m = opened.get()) {
            Result<StateSnapshot> moved = StateEdits.move(m.state(), args.source(), args.destination());
            if (moved.hasErrors()) {
                view.diagnostics(moved.diagnostics());
                return 1;
            }
            // Quoted as Go's %q quotes, as Terraform prints them: the quotes of a string key escaped.
            String what = quoted(args.source().toString()) + " to "
                    + quoted(args.destination().toString());
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

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
