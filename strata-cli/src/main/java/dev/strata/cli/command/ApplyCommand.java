package dev.strata.cli.command;

import dev.strata.cli.version.Version;
import dev.strata.cli.view.ApplyView;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.PlanView;
import dev.strata.engine.ApplyResult;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.state.StateManager;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code strata apply [PLANFILE]} and {@code strata destroy}: plan under the state lock (or load a
 * saved plan), ask for approval unless {@code -auto-approve}, then apply with live progress. The
 * first Ctrl-C, SIGTERM or SIGHUP stops starting operations and lets running ones finish; the second
 * exits at once, after releasing the lock (every completed operation is already durable in the
 * journal); see {@link Interrupts}. Nothing changes before the configuration, the saved plan and the
 * state location have passed their checks ({@link Operation#checkConfigPresent}, {@link SavedPlanChecks},
 * {@link Operation#checkStateWritable}).
 */
final class ApplyCommand implements Command {
    private final boolean destroy;
    private final boolean refreshOnly;
    private final FlagSet flags = new FlagSet();
    private final Operation op = new Operation(flags);
    private final Flag<Boolean> autoApprove = flags.bool("auto-approve", false, "Skip interactive approval of plan "
            + "before applying.");
    private final Flag<Boolean> destroyFlag;
    private final Flag<Boolean> json = flags.bool("json", false, "Produce output in a machine-readable JSON format "
            + "(Terraform's UI messages); requires -auto-approve or a saved plan. Always disables color.");

    private ApplyCommand(boolean destroy, boolean refreshOnly) {
        this.destroy = destroy;
        this.refreshOnly = refreshOnly;
        this.destroyFlag = destroy || refreshOnly ? null : flags.bool("destroy", false, "Destroy Strata-managed "
                + "infrastructure. The command \"strata destroy\" is a convenience alias for this option.");
    }

    static ApplyCommand apply() {
        return new ApplyCommand(false, false);
    }

    static ApplyCommand destroy() {
        return new ApplyCommand(true, false);
    }

    static ApplyCommand refresh() {
        return new ApplyCommand(false, true);
    }

    @Override
    public String name() {
        return destroy ? "destroy" : refreshOnly ? "refresh" : "apply";
    }

    @Override
    public String synopsis() {
        return destroy ? "Destroy previously-created infrastructure" : refreshOnly
                ? "Update the state to match remote systems" : "Create or update infrastructure";
    }

    @Override
    public Section section() {
        return refreshOnly ? Section.OTHER : Section.MAIN;
    }

    @Override
    public String usage() {
        return destroy || refreshOnly ? "[options]" : "[options] [PLAN]";
    }

    @Override
    public String description() {
        if (destroy) {
            return "Destroy Strata-managed infrastructure, in reverse dependency order. This is an alias for "
                    + "\"strata apply -destroy\".";
        }
        if (refreshOnly) {
            return "Update the state file of your infrastructure with metadata that matches the physical resources "
                    + "they are tracking. This is an alias for \"strata apply -refresh-only -auto-approve\".";
        }
        return "Creates or updates infrastructure according to Strata configuration files in the current "
                + "directory.\n\nBy default, Strata will generate a new plan and present it for your approval "
                + "before taking any action. You can optionally provide a plan file created by a previous call to "
                + "\"strata plan\", in which case Strata will take the actions described in that plan without any "
                + "confirmation prompt.\n\nEvery completed operation is saved durably before anything that depends "
                + "on it starts; resources whose count or for_each was unknown at plan time are expanded and "
                + "created during the same apply.";
    }

    @Override
    public FlagSet flags() {
        return flags;
    }

    @Override
    public int run(CommandContext context, ParsedArgs args) {
        boolean machine = args.get(json);
        if (machine) {
            context = context.withColorAllowed(false);
        }
        dev.strata.cli.view.PlanJsonView jsonView = machine ? new dev.strata.cli.view.PlanJsonView(context) : null;
        if (machine) {
            jsonView.version();
        }
        PlanView humanPlan = new PlanView(context).withSchemas(new dev.strata.engine.Schemas(Operation.providers(context)));
        dev.strata.cli.view.View planView = machine ? jsonView : humanPlan;
        if (machine && args.positionals().isEmpty() && !args.get(autoApprove) && !refreshOnly) {
            planView.diagnostics(List.of(CliDiagnostic.error("Plan file or auto-approve required", "Strata cannot ask "
                    + "for interactive approval when -json is set. You can either apply a saved plan file, or enable "
                    + "the -auto-approve option.")));
            return 1;
        }
        if (args.positionals().size() > (destroy || refreshOnly ? 0 : 1)) {
            planView.diagnostics(List.of(CliDiagnostic.error("Too many command line arguments", "Expected at most "
                    + "one positional argument, the path of a saved plan file.")));
            return 1;
        }
        boolean fromFile = !args.positionals().isEmpty();
        PlanMode requestedMode = destroy || (destroyFlag != null && args.get(destroyFlag)) ? PlanMode.DESTROY
                : refreshOnly ? PlanMode.REFRESH_ONLY : PlanMode.NORMAL;
        // As Terraform: "strata refresh" and destroy mode work without configuration; apply does not.
        OperationRunner.Request request = new OperationRunner.Request("OperationTypeApply",
                !fromFile && requestedMode == PlanMode.NORMAL ? Operation.Needs.APPLY : null, fromFile);
        Views views = new Views(machine, jsonView, humanPlan, planView);
        CommandContext ctx = context;
        return OperationRunner.run(context, args, op, planView, request,
                s -> apply(ctx, s, views, fromFile, requestedMode));
    }

    /**
     * How the command shows the plan: {@code plan} is the one in use, the JSON one with {@code -json}
     * ({@code json} null otherwise), else the human one, which also asks for approval.
     */
    private record Views(boolean machine, dev.strata.cli.view.PlanJsonView json, PlanView human,
                         dev.strata.cli.view.View plan) {}

    private int apply(CommandContext context, OperationRunner.Session s, Views views, boolean fromFile,
                      PlanMode requestedMode) {
        ParsedArgs args = s.args();
        boolean machine = views.machine();
        dev.strata.cli.view.PlanJsonView jsonView = views.json();
        PlanView humanPlan = views.human();
        dev.strata.cli.view.View planView = views.plan();
        Operation.Loaded loaded = s.loaded();
        StateManager state = s.state();
        Interrupts signals = s.signals();
        Plan plan;
        PlanOptions options;
        if (fromFile) {
            Result<PlanFiles.Loaded> pf = PlanFiles.read(context.resolve(args.positionals().getFirst()),
                    loaded.tree(), context.workingDir());
            planView.diagnostics(pf.diagnostics(), loaded.sources());
            if (pf.value() == null) {
                return 1;
            }
            plan = pf.value().plan();
            options = pf.value().options();
            if (!options.workspace().equals(s.workspace())) {
                planView.diagnostics(List.of(CliDiagnostic.error("Saved plan is for a different workspace",
                        "The plan was created in workspace \"" + options.workspace() + "\", but the selected "
                                + "workspace is \"" + s.workspace() + "\".")));
                return 1;
            }
            var conflicts = SavedPlanChecks.check(context, args, op, loaded, args.positionals().getFirst(), plan,
                    options, destroyFlag);
            // Their snippets may be in .tfvars files, which the configuration's sources do not hold.
            planView.diagnostics(conflicts, new dev.strata.cli.view.FileSources(context.workingDir()));
            if (conflicts.hasErrors()) {
                return 1;
            }
            // Parallelism is how the apply runs, not what it does: the apply's own flag wins.
            options = new PlanOptions(context.workingDir(), context.startDir(), options.workspace(),
                    options.mode(), options.refresh(), options.targets(), options.replace(),
                    args.isGiven(op.parallelism) ? args.get(op.parallelism) : options.parallelism());
            if (!Operation.checkStateWritable(state, planView, loaded.sources())) {
                return 1;
            }
        } else {
            options = op.options(context, args, requestedMode, s.workspace(), planView);
            if (options == null) {
                return 1;
            }
            if (requestedMode != PlanMode.REFRESH_ONLY
                    && !Operation.checkStateWritable(state, planView, loaded.sources())) {
                return 1;
            }
            Result<Plan> planned;
            try (ApplyView progress = new ApplyView(context)) {
                planned = s.engine().plan(loaded.variables(), state.state(), options, machine ? jsonView : progress);
            }
            planView.diagnostics(planned.diagnostics(), loaded.sources());
            if (planned.value() == null) {
                return 1;
            }
            plan = planned.value();
            if (machine) {
                jsonView.changes(plan);
            } else if (!refreshOnly) {
                humanPlan.plan(plan);
            }
            if (!plan.hasChanges() && !refreshOnly) {
                // A journal left by an interrupted run is folded into the snapshot even when nothing
                // changes, so that the state file alone (what terraform and other readers see) is
                // complete again.
                if (state.journalSize() > 0) {
                    var compacted = state.compact();
                    planView.diagnostics(compacted.diagnostics(), loaded.sources());
                    if (compacted.hasErrors()) {
                        return 1;
                    }
                }
                if (!machine) {
                    // Terraform still completes the (empty) apply and reports it, outputs included.
                    ApplyResult nothing = new ApplyResult(state.state(), 0, 0, 0, List.of(), List.of(), List.of(),
                            false, dev.strata.hcl.Diagnostics.NONE);
                    try (ApplyView view = new ApplyView(context)) {
                        view.summary(nothing, options.mode() == PlanMode.DESTROY);
                        if (options.mode() != PlanMode.DESTROY) {
                            view.outputs(outputs(nothing));
                        }
                    }
                }
                return 0;
            }
            if (refreshOnly && !Operation.checkStateWritable(state, planView, loaded.sources())) {
                return 1;
            }
            if (!refreshOnly && !args.get(autoApprove)) {
                // A signal at the prompt cancels, as no operation has started: nothing to wait for.
                boolean approved;
                String cancelled = options.mode() == PlanMode.DESTROY ? "Destroy cancelled." : "Apply cancelled.";
                try (var cancel = signals.onStop(() -> {
                    humanPlan.err().println(cancelled);
                    signals.releaseAndExit();
                })) {
                    approved = approve(context, humanPlan, options.mode());
                }
                if (!approved) {
                    return 1;
                }
            }
        }
        Result<ApplyResult> r;
        try (ApplyView view = new ApplyView(context)) {
            if (!machine) {
                view.out().println();
            }
            view.expect((int) plan.changes().stream().filter(c -> c.action() != dev.strata.engine.Action.NO_OP
                    && c.action() != dev.strata.engine.Action.FORGET).count() + plan.deferred().size());
            r = s.engine().apply(plan, state, options, machine ? jsonView : view);
            if (machine) {
                jsonView.diagnostics(r.diagnostics());
            } else {
                view.diagnostics(r.diagnostics().sorted(), loaded.sources());
            }
            if (r.value() == null) {
                return 1;
            }
            if (machine) {
                jsonView.applySummary(r.value(), options.mode() == PlanMode.DESTROY);
            } else {
                view.summary(r.value(), options.mode() == PlanMode.DESTROY);
                if (options.mode() != PlanMode.DESTROY) {
                    view.outputs(outputs(r.value()));
                }
            }
        }
        return r.value().failed().isEmpty() && !r.diagnostics().hasErrors() && !r.value().interrupted() ? 0 : 1;
    }

    private static Map<String, Value> outputs(ApplyResult r) {
        Map<String, Value> out = new TreeMap<>();
        r.state().outputs().forEach((k, o) -> out.put(k, StateOutputs.value(o)));
        return out;
    }

    private boolean approve(CommandContext context, PlanView view, PlanMode mode) {
        String what = mode == PlanMode.DESTROY ? "Do you really want to destroy all resources?"
                : "Do you want to perform these actions?";
        view.out().println();
        view.out().println(view.style(PlanView.Style.BOLD, what));
        view.out().println(mode == PlanMode.DESTROY
                ? "  Strata will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only "
                + "'yes' will be accepted to confirm."
                : "  Strata will perform the actions described above.\n  Only 'yes' will be accepted to approve.");
        view.out().println();
        view.out().print(view.style(PlanView.Style.BOLD, "  Enter a value: "));
        view.out().flush();
        String answer;
        try {
            answer = new BufferedReader(new InputStreamReader(context.stdin(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            answer = null;
        }
        view.out().println();
        if (answer == null || !answer.strip().equals("yes")) {
            view.diagnostics(List.of(CliDiagnostic.error(mode == PlanMode.DESTROY ? "Destroy cancelled"
                    : "Apply cancelled", "Only 'yes' approves the plan" + (answer == null
                    ? "; no answer could be read (use -auto-approve when there is no terminal)." : "."))));
            return false;
        }
        return true;
    }
}
