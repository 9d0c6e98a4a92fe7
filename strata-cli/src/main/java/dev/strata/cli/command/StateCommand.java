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
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code strata state <subcommand>}: inspect and edit the state of the selected workspace, with
 * Terraform's subcommands, flags and messages. Every subcommand that writes takes the lock (unless
 * {@code -lock=false}), keeps the state as it was in {@code terraform.tfstate.backup}, and says what it
 * did.
 */
final class StateCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();

    private static final FlagSet LIST = new FlagSet();
    private static final Flag<String> LIST_ID = LIST.string("id", "", "ID",
            "Filters the results to include only instances whose resource types have an attribute named \"id\" "
                    + "whose value equals the given id string.");

    private static final Flag<Boolean> LIST_HISTORY = LIST.bool("history", false,
            "List the stored serials of the workspace's state instead of its resources (pg backend, which keeps "
                    + "every serial).");

    private static final FlagSet SHOW = new FlagSet();
    private static final FlagSet PULL = new FlagSet();
    private static final Flag<String> PULL_SERIAL = PULL.string("serial", "", "N",
            "Print serial N from the state's history (pg backend) instead of the current state. To restore it, "
                    + "save it to a file and \"state push -force\" that file.");
    private static final Flag<String> PULL_LINEAGE = PULL.string("lineage", "", "LINEAGE",
            "With -serial: the lineage of the serial, when the history holds more than one (default: the "
                    + "current lineage).");

    private static final FlagSet PUSH = new FlagSet();
    private static final Flag<Boolean> PUSH_FORCE = PUSH.bool("force", false,
            "Write the state even if lineages don't match or the remote serial is higher.");
    private static final LockFlags PUSH_LOCK = new LockFlags(PUSH);

    private static final FlagSet RM = new FlagSet();
    private static final Flag<Boolean> RM_DRY = RM.bool("dry-run", false, "Only print which instances would be removed.");
    private static final LockFlags RM_LOCK = new LockFlags(RM);

    private static final FlagSet MV = new FlagSet();
    private static final Flag<Boolean> MV_DRY = MV.bool("dry-run", false, "Only print what would be moved.");
    private static final LockFlags MV_LOCK = new LockFlags(MV);

    private static final FlagSet REPLACE = new FlagSet();
    private static final Flag<Boolean> REPLACE_YES = REPLACE.bool("auto-approve", false, "Skip interactive approval.");
    private static final LockFlags REPLACE_LOCK = new LockFlags(REPLACE);


    @Override
    public String name() {
        return "state";
    }

    @Override
    public String synopsis() {
        return "Advanced state management";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "<subcommand> [options] [args]";
    }

    /** Each subcommand's usage and text; the command's help is made from them. */
    private static final List<SubcommandHelp> HELP = List.of(
            new SubcommandHelp("list", "[-id=ID] [-history] [ADDRESS...]", "list resource instances, optionally only "
                    + "those in the given modules or resources; with -history, the stored serials of the state.", LIST),
            new SubcommandHelp("show", "ADDRESS", "show the attributes of one resource instance; sensitive values "
                    + "are hidden.", SHOW),
            new SubcommandHelp("pull", "[-serial=N [-lineage=L]]", "print the state as stored, as JSON; with -serial, "
                    + "an earlier serial from the history.", PULL),
            new SubcommandHelp("push", "[-force] [-lock=false] [-lock-timeout=DURATION] FILE", "replace the state "
                    + "with FILE (\"-\" reads standard input). Refuses a different lineage or an older serial unless "
                    + "-force.", PUSH),
            new SubcommandHelp("rm", "[-dry-run] [-lock=false] [-lock-timeout=DURATION] ADDRESS...", "forget "
                    + "instances without destroying them.", RM),
            new SubcommandHelp("mv", "[-dry-run] [-lock=false] [-lock-timeout=DURATION] SOURCE DESTINATION", "move a "
                    + "module, resource or instance to another address.", MV),
            new SubcommandHelp("replace-provider", "[-auto-approve] [-lock=false] [-lock-timeout=DURATION] FROM TO",
                    "point resources at another provider, e.g. hashicorp/aws to registry.acme.corp/acme/aws.",
                    REPLACE));

    @Override
    public String description() {
        return SubcommandHelp.describe("This command has subcommands for advanced state management. They work on "
                + "the state of the selected workspace.", HELP, "");
    }

    @Override
    public List<SubcommandHelp> subcommands() {
        return HELP;
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        try (Interrupts signals = Interrupts.install(context)) {
            return run(context, parsed, signals);
        }
    }

    private int run(CommandContext context, ParsedArgs parsed, Interrupts signals) {
        StateView view = new StateView(context);
        List<CliDiagnostic> selectProblems = new ArrayList<>();
        SubcommandHelp.Selected selected = SubcommandHelp.select("state", HELP, parsed.positionals(), selectProblems);
        if (selected == null) {
            view.diagnostics(selectProblems);
            return 1;
        }
        String sub = selected.name();
        ParsedArgs args = selected.args();
        List<CliDiagnostic> problems = new ArrayList<>();
        String workspace = StateCli.workspace(context, problems);
        if (!problems.isEmpty()) {
            view.diagnostics(problems);
            return 1;
        }
        dev.strata.hcl.Diagnostics.Builder backendDiags = dev.strata.hcl.Diagnostics.builder();
        Backend backend = signals.tracking(StateCli.backend(context, backendDiags));
        view.diagnostics(backendDiags.build());
        if (backend == null) {
            return 1;
        }
        return switch (sub) {
            case "list" -> list(view, backend, workspace, args);
            case "show" -> show(view, backend, workspace, args);
            case "pull" -> pull(view, backend, workspace, args);
            case "push" -> push(context, view, backend, workspace, args);
            case "rm" -> rm(view, backend, workspace, args);
            case "mv" -> mv(view, backend, workspace, args);
            case "replace-provider" -> replaceProvider(context, view, backend, workspace, args);
            default -> throw new IllegalStateException(sub);
        };
    }

    /** Opens the state for reading or writing, reporting problems; null on failure. */
    private static StateManager open(StateView view, Backend backend, String workspace, LockRequest lock) {
        Result<StateManager> r = backend.open(workspace, lock);
        view.diagnostics(r.diagnostics());
        return r.hasErrors() ? null : r.value();
    }

    private static final String NO_STATE = "No state file was found!\n\nState management commands require a state file. "
            + "Run this command\nin a directory where Strata has been run or use the -state flag\nto point the command to "
            + "a specific state location.";

    private static List<Targetable> addresses(StateView view, List<String> texts) {
        List<Targetable> out = new ArrayList<>();
        List<CliDiagnostic> problems = new ArrayList<>();
        for (String t : texts) {
            Result<Targetable> r = Addrs.parseTarget(t);
            if (r.value() == null) {
                problems.add(CliDiagnostic.error("Invalid address", "\"" + t + "\" is not a valid resource address: "
                        + Addrs.problem(r.diagnostics()) + " Addresses look like aws_instance.web, aws_instance.web[0], "
                        + "data.aws_ami.ubuntu or module.net.aws_subnet.a[\"x\"]."));
            }
            out.add(r.value());
        }
        if (!problems.isEmpty()) {
            view.diagnostics(problems);
            return null;
        }
        return out;
    }

    private int list(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.get(LIST_HISTORY)) {
            return history(view, backend, workspace, args);
        }
        List<Targetable> filters = addresses(view, args.positionals());
        if (filters == null) {
            return 1;
        }
        try (StateManager m = open(view, backend, workspace, LockRequest.none())) {
            if (m == null) {
                return 1;
            }
            if (!m.exists()) {
                view.errorText(NO_STATE);
                return 1;
            }
            StateSnapshot s = m.state();
            Set<AbsResourceInstance> shown = new LinkedHashSet<>();
            List<CliDiagnostic> problems = new ArrayList<>();
            if (filters.isEmpty()) {
                shown.addAll(s.instanceAddresses());
            }
            for (Targetable f : filters) {
                List<AbsResourceInstance> matched = StateEdits.matching(s, f);
                if (matched.isEmpty()) {
                    problems.add(CliDiagnostic.error("Unknown resource", "The current state contains no resource " + f
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
        return o.attributes() instanceof JsonValue.ObjectValue a && a.get("id") instanceof JsonValue.StringValue s
                && s.value().equals(id);
    }

    private static final String NO_INSTANCE = "No instance found for the given address!\n\nThis command requires that the "
            + "address references one specific instance.\nTo view the available instances, use \"strata state list\". "
            + "Please modify \nthe address to reference a specific instance.";

    private int show(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().size() != 1) {
            view.errorText("Exactly one argument expected.\n\nUsage: strata [global options] state show [options] ADDRESS");
            return 1;
        }
        List<Targetable> addrs = addresses(view, args.positionals());
        if (addrs == null) {
            return 1;
        }
        try (StateManager m = open(view, backend, workspace, LockRequest.none())) {
            if (m == null) {
                return 1;
            }
            if (!m.exists()) {
                view.errorText(NO_STATE);
                return 1;
            }
            AbsResourceInstance target = switch (addrs.get(0)) {
                case AbsResourceInstance i -> i;
                case AbsResource r -> r.instance(InstanceKey.NONE);
                case ModuleInstance mod -> null;
            };
            List<ResourceInstanceObject> objs = target == null ? List.of() : m.state().objects(target);
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
    private static PgBackend historyOf(StateView view, Backend backend) {
        if (Interrupts.unwrap(backend) instanceof PgBackend pg) {
            return pg;
        }
        view.diagnostics(List.of(CliDiagnostic.error("No state history", "The local backend keeps only the "
                + "previous state (terraform.tfstate.backup), not a history of serials. The pg backend keeps every "
                + "serial of every workspace.")));
        return null;
    }

    private int history(StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (!args.positionals().isEmpty()) {
            view.errorText("-history takes no addresses.\n\nUsage: strata [global options] state list -history");
            return 1;
        }
        PgBackend pg = historyOf(view, backend);
        if (pg == null) {
            return 1;
        }
        Result<List<PgBackend.HistoryEntry>> h = pg.history(workspace);
        view.diagnostics(h.diagnostics());
        if (h.hasErrors()) {
            return 1;
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format("%-8s %-36s  %-24s %s", "SERIAL", "LINEAGE", "WRITTEN", "BYTES"));
        for (PgBackend.HistoryEntry e : h.value()) {
            lines.add(String.format("%-8d %-36s  %-24s %d", e.serial(), e.lineage(),
                    e.writtenAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS), e.bytes()));
        }
        view.lines(lines);
        return 0;
    }

    private int pullSerial(StateView view, Backend backend, String workspace, ParsedArgs args) {
        long serial;
        try {
            serial = Long.parseLong(args.get(PULL_SERIAL));
        } catch (NumberFormatException e) {
            view.diagnostics(List.of(CliDiagnostic.error("Invalid value for -serial", "The value \""
                    + args.get(PULL_SERIAL) + "\" is not a serial number: write a whole number, as listed by "
                    + "\"strata state list -history\".")));
            return 1;
        }
        PgBackend pg = historyOf(view, backend);
        if (pg == null) {
            return 1;
        }
        String lineage = args.get(PULL_LINEAGE);
        if (lineage.isEmpty()) {
            Result<List<PgBackend.HistoryEntry>> h = pg.history(workspace);
            view.diagnostics(h.diagnostics());
            if (h.hasErrors()) {
                return 1;
            }
            List<String> lineages = h.value().stream().filter(e -> e.serial() == serial)
                    .map(PgBackend.HistoryEntry::lineage).distinct().toList();
            String current = h.value().isEmpty() ? null : h.value().get(0).lineage();
            if (lineages.contains(current)) {
                lineage = current;
            } else if (lineages.size() == 1) {
                lineage = lineages.get(0);
            } else if (lineages.isEmpty()) {
                view.diagnostics(List.of(CliDiagnostic.error("No such state in the history", "Workspace \""
                        + workspace + "\" has no stored serial " + serial + ". \"strata state list -history\" lists "
                        + "the stored serials.")));
                return 1;
            } else {
                view.diagnostics(List.of(CliDiagnostic.error("Ambiguous serial", "Serial " + serial + " exists in "
                        + "lineages " + String.join(", ", lineages) + ". Choose one with -lineage.")));
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
        try (StateManager m = open(view, backend, workspace, LockRequest.none())) {
            if (m == null) {
                return 1;
            }
            if (m.exists()) {
                view.raw(StateCodec.write(m.state()));
            }
            return 0;
        }
    }

    private int push(CommandContext context, StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().size() != 1) {
            view.errorText("Exactly one argument expected.\n\nUsage: strata [global options] state push [options] PATH");
            return 1;
        }
        String file = args.positionals().get(0);
        byte[] bytes;
        try {
            // Through the backend's reader: if this is a state file this process holds locked, opening it anew
            // and closing it would drop the lock.
            bytes = file.equals("-") ? context.stdin().readAllBytes()
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
        List<CliDiagnostic> problems = new ArrayList<>();
        LockRequest lock = PUSH_LOCK.request(args, "OperationTypeInvalid", problems);
        if (lock == null) {
            view.diagnostics(problems);
            return 1;
        }
        try (StateManager m = open(view, backend, workspace, lock)) {
            if (m == null) {
                return 1;
            }
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
            view.errorText("At least one address is required.\n\nUsage: strata [global options] state rm [options] ADDRESS...");
            return 1;
        }
        List<Targetable> addrs = addresses(view, args.positionals());
        if (addrs == null) {
            return 1;
        }
        List<CliDiagnostic> problems = new ArrayList<>();
        LockRequest lock = RM_LOCK.request(args, "OperationTypeInvalid", problems);
        if (lock == null) {
            view.diagnostics(problems);
            return 1;
        }
        boolean dry = args.get(RM_DRY);
        try (StateManager m = open(view, backend, workspace, dry ? LockRequest.none() : lock)) {
            if (m == null) {
                return 1;
            }
            if (!m.exists()) {
                view.errorText(NO_STATE);
                return 1;
            }
            Set<AbsResourceInstance> gone = new LinkedHashSet<>();
            for (Targetable a : addrs) {
                List<AbsResourceInstance> matched = StateEdits.matching(m.state(), a);
                if (matched.isEmpty()) {
                    problems.add(CliDiagnostic.error("Invalid target address", "No matching objects found. To view the "
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

    private int replaceProvider(CommandContext context, StateView view, Backend backend, String workspace, ParsedArgs args) {
        if (args.positionals().size() != 2) {
            view.errorText("Exactly two arguments expected.\n\nUsage: strata [global options] state replace-provider [options] "
                    + "FROM_PROVIDER_FQN TO_PROVIDER_FQN");
            return 1;
        }
        List<CliDiagnostic> problems = new ArrayList<>();
        LockRequest lock = REPLACE_LOCK.request(args, "OperationTypeInvalid", problems);
        if (lock == null) {
            view.diagnostics(problems);
            return 1;
        }
        try (StateManager m = open(view, backend, workspace, lock)) {
            if (m == null) {
                return 1;
            }
            if (!m.exists()) {
                view.errorText(NO_STATE);
                return 1;
            }
            Result<StateEdits.ProviderReplacement> r = StateEdits.replaceProvider(m.state(),
                    args.positionals().get(0), args.positionals().get(1));
            if (r.hasErrors()) {
                view.diagnostics(r.diagnostics());
                return 1;
            }
            StateEdits.ProviderReplacement rep = r.value();
            if (rep.changed().isEmpty()) {
                view.line("No matching resources found.");
                return 0;
            }
            List<String> plan = new ArrayList<>(List.of("Strata will perform the following actions:", "",
                    "  ~ Updating provider:", "    - " + rep.from(), "    + " + rep.to(), "",
                    "Changing " + rep.changed().size() + " resources:", ""));
            rep.changed().forEach(a -> plan.add("  " + a));
            plan.add("");
            view.lines(plan);
            if (!args.get(REPLACE_YES)) {
                view.prompt("Do you want to make these changes?\nOnly 'yes' will be accepted to continue.\n\nEnter a value: ");
                String answer;
                try {
                    answer = new java.io.BufferedReader(new java.io.InputStreamReader(context.stdin(),
                            java.nio.charset.StandardCharsets.UTF_8)).readLine();
                } catch (IOException e) {
                    answer = null;
                }
                view.line("");
                if (answer == null || !answer.strip().equals("yes")) {
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
            view.errorText("Exactly two arguments expected.\n\nUsage: strata [global options] state mv [options] SOURCE DESTINATION");
            return 1;
        }
        List<Targetable> addrs = addresses(view, args.positionals());
        if (addrs == null) {
            return 1;
        }
        List<CliDiagnostic> problems = new ArrayList<>();
        LockRequest lock = MV_LOCK.request(args, "OperationTypeInvalid", problems);
        if (lock == null) {
            view.diagnostics(problems);
            return 1;
        }
        boolean dry = args.get(MV_DRY);
        try (StateManager m = open(view, backend, workspace, dry ? LockRequest.none() : lock)) {
            if (m == null) {
                return 1;
            }
            if (!m.exists()) {
                view.errorText(NO_STATE);
                return 1;
            }
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
