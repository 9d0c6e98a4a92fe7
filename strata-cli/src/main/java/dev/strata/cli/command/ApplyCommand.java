package dev.strata.cli.command;

import dev.strata.cli.view.ApplyView;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.OperationView;
import dev.strata.cli.view.View;
import dev.strata.engine.ApplyResult;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Result;
import dev.strata.state.StateManager;
import java.util.List;
import java.util.Optional;

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
    private final Flag<List<String>> policy;
    private final Flag<Boolean> autoApprove =
            flags.bool("auto-approve", false, "Skip interactive approval of plan " + "before applying.");
    private final Flag<Boolean> destroyFlag;
    private final Flag<Boolean> refreshOnlyFlag;
    private final Flag<Boolean> json = flags.bool(
            "json",
            false,
            "Produce output in a machine-readable JSON format "
                    + "(Terraform's UI messages); requires -auto-approve or a saved plan. Always disables color.");

    private ApplyCommand(boolean destroy, boolean refreshOnly) {
        this.destroy = destroy;
        this.refreshOnly = refreshOnly;
        // A refresh-only run changes no infrastructure, so there is nothing for a policy to stop.
        this.policy = refreshOnly ? null : Policies.flag(flags);
        this.destroyFlag = destroy || refreshOnly
                ? null
                : flags.bool(
                        "destroy",
                        false,
                        "Destroy Strata-managed "
                                + "infrastructure. The command \"strata destroy\" is a convenience alias for this option.");
        this.refreshOnlyFlag = destroy || refreshOnly
                ? null
                : flags.bool(
                        "refresh-only",
                        false,
                        "Select the \"refresh only\" planning mode, which checks whether remote objects still match "
                                + "the outcome of the most recent Strata apply but does not propose any actions to undo "
                                + "any changes made outside of Strata; applying it records what changed in the state.");
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
    public boolean streamsJson() {
        return true;
    }

    @Override
    public String name() {
        return destroy ? "destroy" : refreshOnly ? "refresh" : "apply";
    }

    @Override
    public String synopsis() {
        return destroy
                ? "Destroy previously-created infrastructure"
                : refreshOnly ? "Update the state to match remote systems" : "Create or update infrastructure";
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

    /**
     * The arguments: the saved plan to apply (none plans anew), the planning mode, whether to skip the
     * approval prompt, and the output form ({@code -json} always disables colour).
     */
    record Args(Optional<String> planFile, PlanMode mode, boolean autoApprove, boolean json) {

        CommandContext context(CommandContext context) {
            return json ? context.withColorAllowed(false) : context;
        }
    }

    Parsed<Args> parse(ParsedArgs args) {
        boolean machine = args.get(json);
        boolean approved = args.get(autoApprove);
        boolean destroying = destroy || (destroyFlag != null && args.get(destroyFlag));
        boolean refreshing = refreshOnly || (refreshOnlyFlag != null && args.get(refreshOnlyFlag));
        PlanMode mode = destroying ? PlanMode.DESTROY : refreshing ? PlanMode.REFRESH_ONLY : PlanMode.NORMAL;
        Args value = new Args(args.positionals().stream().findFirst(), mode, approved, machine);
        if (destroying && refreshing) {
            return new Parsed<>(
                    value,
                    List.of(CliDiagnostic.error(
                            "Incompatible plan mode options",
                            "The -destroy and -refresh-only options are mutually-exclusive.")));
        }
        if (machine && args.positionals().isEmpty() && !approved && !refreshOnly) {
            return new Parsed<>(value, List.of(OperationView.approvalImpossible()));
        }
        if (args.positionals().size() > (destroy || refreshOnly ? 0 : 1)) {
            return new Parsed<>(
                    value,
                    List.of(CliDiagnostic.error(
                            "Too many command line arguments",
                            "Expected at " + "most one positional argument, the path of a saved plan file.")));
        }
        return Parsed.of(value);
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = parse(parsed);
        // The arguments choose the view, so they come back even when wrong.
        CommandContext ctx = op.presentation(args.value().context(context), parsed);
        OperationView view =
                OperationView.of(ctx, args.value().json(), new dev.strata.engine.Schemas(Operation.providers(ctx)));
        if (args.hasErrors()) {
            view.diagnostics(args.diagnostics());
            return 1;
        }
        boolean fromFile = args.value().planFile().isPresent();
        // As Terraform: "strata refresh" and destroy mode work without configuration; apply does not.
        OperationRunner.Request request = new OperationRunner.Request(
                "OperationTypeApply",
                !fromFile && args.value().mode() == PlanMode.NORMAL ? Operation.Needs.APPLY : null,
                fromFile);
        return OperationRunner.run(ctx, parsed, op, view.view(), request, s -> apply(ctx, s, view, args.value()));
    }

    private int apply(CommandContext context, OperationRunner.Session s, OperationView view, Args args) {
        Operation.Loaded loaded = s.loaded();
        StateManager state = s.state();
        Interrupts signals = s.signals();
        View planView = view.view();
        Plan plan;
        PlanOptions options;
        boolean refreshing = args.mode() == PlanMode.REFRESH_ONLY;
        // As Terraform: the destroy wording is the destroy command's ("apply -destroy" and the apply of a saved
        // destroy plan say "Apply complete!"), and a refresh ends with its outputs alone.
        OperationView.Closing closing = destroy
                ? OperationView.Closing.DESTROY
                : refreshOnly ? OperationView.Closing.REFRESH : OperationView.Closing.APPLY;
        // The warnings of planning in this run, shown with the apply's diagnostics after it, as Terraform does.
        // The warnings of loading the configuration and its variables come first, as Terraform's do.
        dev.strata.hcl.Diagnostics planWarnings = loaded.warnings();
        if (args.planFile().isPresent()) {
            String file = args.planFile().get();
            Result<PlanFiles.Loaded> pf = PlanFiles.read(context.resolve(file), loaded.tree(), context.workingDir());
            view.diagnostics(pf.diagnostics(), loaded.sources());
            if (pf.value() == null) {
                return 1;
            }
            if (!dev.strata.policy.PolicyReport.applyable(pf.value().policyResults())) {
                // plan -out never saves such a plan; a file that says so anyway is not applied.
                view.diagnostics(List.of(CliDiagnostic.error(
                        "Saved plan failed mandatory policies",
                        "The plan " + file + " records a mandatory policy that did not pass, so it cannot be "
                                + "applied. Change the configuration and create a new plan with strata plan -out.")));
                return 1;
            }
            plan = pf.value().plan();
            if (plan.errored()) {
                view.diagnostics(List.of(CliDiagnostic.error(
                        "Cannot apply incomplete plan",
                        "Strata encountered an error when generating this plan, so it cannot be applied.")));
                return 1;
            }
            options = pf.value().options();
            if (!options.workspace().equals(s.workspace())) {
                view.diagnostics(List.of(CliDiagnostic.error(
                        "Saved plan is for a different workspace",
                        "The plan was created in workspace \"" + options.workspace() + "\", but the selected "
                                + "workspace is \"" + s.workspace() + "\".")));
                return 1;
            }
            var conflicts = SavedPlanChecks.check(
                    context, s.args(), op, loaded, file, plan, options, destroyFlag, refreshOnlyFlag);
            // Their snippets may be in .tfvars files, which the configuration's sources do not hold.
            view.diagnostics(conflicts, new dev.strata.cli.view.FileSources(context.workingDir()));
            if (conflicts.hasErrors()) {
                return 1;
            }
            Result<Plan> resupplied = SavedPlanChecks.withEphemeralVariables(context, s.args(), op, loaded, plan);
            view.diagnostics(resupplied.diagnostics(), loaded.sources());
            if (resupplied.value() == null) {
                return 1;
            }
            plan = resupplied.value();
            // The saved plan is checked against the policies as they are now: a policy added or
            // tightened since the plan was made still applies.
            var policies = Policies.check(context, s.args().get(policy), plan, loaded.tree(), loaded.sources(), view);
            if (policies == null || policies.blocksApply()) {
                return 1;
            }
            if (plan.hasChanges() && !Approval.ask(context, plan, loaded.tree(), s.workspace(), view)) {
                return 1;
            }
            // Parallelism is how the apply runs, not what it does: the apply's own flag wins.
            options = new PlanOptions(
                    context.workingDir(),
                    context.startDir(),
                    options.workspace(),
                    options.mode(),
                    options.refresh(),
                    options.targets(),
                    options.excludes(),
                    options.replace(),
                    s.args().isGiven(op.parallelism) ? s.args().get(op.parallelism) : options.parallelism());
            if (!Operation.checkStateWritable(state, planView, loaded.sources())) {
                return 1;
            }
        } else {
            options = s.options(op, args.mode(), planView);
            if (options == null) {
                return 1;
            }
            if (args.mode() != PlanMode.REFRESH_ONLY
                    && !Operation.checkStateWritable(state, planView, loaded.sources())) {
                return 1;
            }
            Result<Plan> planned;
            Optional<Plan> errored;
            try (ApplyView progress = new ApplyView(context);
                    var flushing = signals.beforeNotice(progress::flush)) {
                planned = s.engine().plan(loaded.variables(), state.state(), options, view.events(progress));
                errored = progress.erroredPlan();
            }
            planned = withoutUnknownChecks(planned);
            if (planned.value() == null) {
                view.erroredPlan(errored, false);
                view.diagnostics(
                        planWarnings.with(Operation.narrowed(options)).with(planned.diagnostics()), loaded.sources());
                return 1;
            }
            plan = planned.value();
            view.planToApply(plan, closing);
            planWarnings = planWarnings.with(Operation.narrowed(options)).with(planned.diagnostics());
            if (!refreshing) {
                var policies =
                        Policies.check(context, s.args().get(policy), plan, loaded.tree(), loaded.sources(), view);
                if (policies == null || policies.blocksApply()) {
                    view.diagnostics(planWarnings, loaded.sources());
                    return 1;
                }
                if (plan.hasChanges() && !Approval.ask(context, plan, loaded.tree(), s.workspace(), view)) {
                    view.diagnostics(planWarnings, loaded.sources());
                    return 1;
                }
            }
            if (!plan.hasChanges() && !refreshing) {
                view.diagnostics(planWarnings, loaded.sources());
                view.diagnostics(Operation.appliedIncomplete(options), loaded.sources());
                // As Terraform, an apply that changes nothing still records what refreshing found.
                long serial = state.state().serial();
                var recorded = plan.recordRefreshed(state);
                view.diagnostics(recorded, loaded.sources());
                if (recorded.hasErrors()) {
                    return 1;
                }
                if (state.state().serial() == serial) {
                    // Nothing refreshed to record. A journal left by an interrupted run is still folded into the
                    // snapshot, so that the state file alone (what terraform and other readers see) is complete
                    // again; otherwise nothing is written where the state was read, but with -state-out, as
                    // Terraform, the state is written there all the same.
                    var written = state.journalSize() > 0 ? state.compact() : state.persist(state.state());
                    view.diagnostics(written.diagnostics(), loaded.sources());
                    if (written.hasErrors()) {
                        return 1;
                    }
                }
                view.nothingToApply(
                        new ApplyResult(
                                state.state(),
                                0,
                                0,
                                0,
                                List.of(),
                                List.of(),
                                List.of(),
                                false,
                                dev.strata.hcl.Diagnostics.NONE),
                        closing);
                return 0;
            }
            if (refreshing && !Operation.checkStateWritable(state, planView, loaded.sources())) {
                return 1;
            }
            // As Terraform: a refresh-only plan that found nothing changed outside is applied without asking.
            if (!refreshOnly && !args.autoApprove() && (!refreshing || plan.hasChanges())) {
                // As Terraform: warnings come before the question, so that the answer can consider them.
                view.diagnostics(planWarnings, loaded.sources());
                planWarnings = dev.strata.hcl.Diagnostics.NONE;
                // A signal at the prompt cancels, as no operation has started: nothing to wait for.
                boolean approved;
                PlanMode mode = options.mode();
                try (var cancel = signals.onStop(() -> {
                    view.cancelled(mode);
                    signals.releaseAndExit();
                })) {
                    approved = view.approve(mode);
                }
                if (!approved) {
                    return 1;
                }
            }
        }
        Result<ApplyResult> r;
        try (ApplyView progress = new ApplyView(context);
                var flushing = signals.beforeNotice(progress::flush)) {
            view.applying(
                    progress,
                    (int) plan.changes().stream()
                                    .filter(c -> c.action() != dev.strata.engine.Action.NO_OP
                                            && c.action() != dev.strata.engine.Action.FORGET)
                                    .count()
                            + plan.deferred().size());
            r = s.engine().apply(plan, state, options, view.events(progress));
            // Terraform's closing warning of a narrowed apply follows the others, before the summary.
            var incomplete = Operation.appliedIncomplete(options);
            view.applied(
                    progress,
                    withoutRepeats(planWarnings, r.diagnostics()),
                    incomplete.isEmpty() ? Optional.ofNullable(r.value()) : Optional.empty(),
                    loaded.sources(),
                    closing);
            if (!incomplete.isEmpty()) {
                view.applied(progress, incomplete, Optional.ofNullable(r.value()), loaded.sources(), closing);
            }
        }
        if (r.value() == null) {
            return 1;
        }
        return r.value().failed().isEmpty()
                        && !r.diagnostics().hasErrors()
                        && !r.value().interrupted()
                ? 0
                : 1;
    }

    /**
     * The plan without its warnings for check block assertions known only after the apply: the apply is
     * about to know them, so Terraform does not show those warnings in {@code apply}.
     */
    private static Result<Plan> withoutUnknownChecks(Result<Plan> planned) {
        dev.strata.hcl.Diagnostics.Builder b = dev.strata.hcl.Diagnostics.builder();
        planned.diagnostics().forEach(d -> {
            if (d.isError() || !d.summary().equals("Check block assertion known after apply")) {
                b.add(d);
            }
        });
        return new Result<>(planned.value(), b.build());
    }

    /**
     * The plan's warnings followed by the apply's diagnostics, a plan warning left out where applying
     * raised the same one again (a check that still fails), so that each is shown once.
     */
    static dev.strata.hcl.Diagnostics withoutRepeats(
            dev.strata.hcl.Diagnostics planned, dev.strata.hcl.Diagnostics applied) {
        java.util.Set<dev.strata.hcl.Diagnostic> again = new java.util.HashSet<>(applied.asList());
        dev.strata.hcl.Diagnostics.Builder b = dev.strata.hcl.Diagnostics.builder();
        planned.forEach(d -> {
            if (!again.contains(d)) {
                b.add(d);
            }
        });
        return b.build().with(applied);
    }
}
