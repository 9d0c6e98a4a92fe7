package dev.strata.cli.command;

import dev.strata.cli.version.Version;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.PlanView;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Result;
import java.util.List;

/**
 * {@code strata plan}: refreshes, evaluates and shows what an apply would do, without changing
 * anything. {@code -out} saves the plan for {@code strata apply PLANFILE}.
 */
final class PlanCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Operation OP = new Operation(FLAGS);
    private static final Flag<Boolean> DESTROY = FLAGS.bool("destroy", false, "Select the \"destroy\" planning mode, "
            + "which creates a plan to destroy all objects currently managed by this Strata configuration instead of "
            + "the usual behavior.");
    private static final Flag<Boolean> REFRESH_ONLY = FLAGS.bool("refresh-only", false, "Select the \"refresh only\" "
            + "planning mode, which checks whether remote objects still match the outcome of the most recent Strata "
            + "apply but does not propose any actions to undo any changes made outside of Strata.");
    private static final Flag<String> OUT = FLAGS.string("out", "", "FILE", "Write a plan file to the given path. "
            + "This can be used as input to the \"apply\" command.");
    private static final Flag<Boolean> DETAILED = FLAGS.bool("detailed-exitcode", false, "Return detailed exit codes "
            + "when the command exits: 0 - Succeeded, diff is empty (no changes); 1 - Errored; 2 - Succeeded, there "
            + "is a diff.");
    private static final Flag<Boolean> JSON = FLAGS.bool("json", false, "Produce output in a machine-readable JSON "
            + "format, suitable for use in text editor integrations and other automated systems. Always disables "
            + "color.");

    @Override
    public String name() {
        return "plan";
    }

    @Override
    public String synopsis() {
        return "Show changes required by the current configuration";
    }

    @Override
    public Section section() {
        return Section.MAIN;
    }

    @Override
    public String description() {
        return "Generates a speculative execution plan, showing what actions Strata would take to apply the current "
                + "configuration. This command will not actually perform the planned actions.\n\n"
                + "Where a count or for_each value depends on values known only after apply, the object is planned "
                + "as deferred: the plan shows it once, and the apply creates its instances in the same run.\n\n"
                + "You can optionally save the plan to a file, which you can then pass to the \"apply\" command to "
                + "perform exactly the actions described in the plan.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    @Override
    public int run(CommandContext context, ParsedArgs args) {
        boolean json = args.get(JSON);
        CommandContext ctx = json ? context.withColorAllowed(false) : context;
        PlanView human = new PlanView(ctx).withSchemas(new dev.strata.engine.Schemas(Operation.providers(ctx)));
        dev.strata.cli.view.PlanJsonView machine = json ? new dev.strata.cli.view.PlanJsonView(ctx) : null;
        if (machine != null) {
            machine.version();
        }
        dev.strata.cli.view.View view = json ? machine : human;
        if (!args.positionals().isEmpty()) {
            view.diagnostics(List.of(CliDiagnostic.error("Too many command line arguments", "The plan command takes "
                    + "no positional arguments; to plan another directory, use the global -chdir option.")));
            return 1;
        }
        if (args.get(DESTROY) && args.get(REFRESH_ONLY)) {
            view.diagnostics(List.of(CliDiagnostic.error("Incompatible plan mode options", "The -destroy and "
                    + "-refresh-only options are mutually-exclusive.")));
            return 1;
        }
        PlanMode mode = args.get(DESTROY) ? PlanMode.DESTROY : args.get(REFRESH_ONLY) ? PlanMode.REFRESH_ONLY
                : PlanMode.NORMAL;
        OperationRunner.Request request = new OperationRunner.Request("OperationTypePlan",
                mode == PlanMode.DESTROY ? null : Operation.Needs.PLAN, false);
        return OperationRunner.run(ctx, args, OP, view, request, s -> {
            PlanOptions options = s.options(OP, mode, view);
            if (options == null) {
                return 1;
            }
            Result<Plan> plan;
            try (var progress = new dev.strata.cli.view.ApplyView(ctx)) {
                plan = s.engine().plan(s.loaded().variables(), s.state().state(), options, json ? machine : progress);
            }
            view.diagnostics(plan.diagnostics(), s.loaded().sources());
            if (plan.value() == null) {
                return 1;
            }
            if (json) {
                machine.changes(plan.value());
            } else {
                human.plan(plan.value());
            }
            String out = args.get(OUT);
            if (!out.isEmpty()) {
                Result<Void> saved = PlanFiles.write(ctx.resolve(out), plan.value(), s.loaded().tree(), options);
                view.diagnostics(saved.diagnostics(), s.loaded().sources());
                if (saved.hasErrors()) {
                    return 1;
                }
            }
            // The next step is a hint for a person at a terminal: left out for an empty plan and, as in
            // Terraform, when TF_IN_AUTOMATION says a wrapper drives the commands.
            if (!json && plan.value().hasChanges() && !ctx.inAutomation()) {
                view.out().println();
                view.out().println("─".repeat(Math.min(77, view.width() - 1)));
                view.out().println();
                if (!out.isEmpty()) {
                    view.out().println("Saved the plan to: " + out);
                    view.out().println();
                    view.out().println("To perform exactly these actions, run the following command to apply:");
                    view.out().println("    strata apply \"" + out + "\"");
                } else {
                    view.out().println("Note: You didn't use the -out option to save this plan, so Strata can't");
                    view.out().println("guarantee to take exactly these actions if you run \"strata apply\" now.");
                }
            }
            return args.get(DETAILED) && plan.value().hasChanges() ? 2 : 0;
        });
    }
}
