package dev.strata.cli.command;

import dev.strata.cli.view.ApplyView;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.OperationView;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Result;
import java.util.List;
import java.util.Optional;

/**
 * {@code strata plan}: refreshes, evaluates and shows what an apply would do, without changing
 * anything. {@code -out} saves the plan for {@code strata apply PLANFILE}.
 */
final class PlanCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Operation OP = new Operation(FLAGS);
    private static final Flag<Boolean> DESTROY = FLAGS.bool(
            "destroy",
            false,
            "Select the \"destroy\" planning mode, "
                    + "which creates a plan to destroy all objects currently managed by this Strata configuration instead of "
                    + "the usual behavior.");
    private static final Flag<Boolean> REFRESH_ONLY = FLAGS.bool(
            "refresh-only",
            false,
            "Select the \"refresh only\" "
                    + "planning mode, which checks whether remote objects still match the outcome of the most recent Strata "
                    + "apply but does not propose any actions to undo any changes made outside of Strata.");
    private static final Flag<List<String>> POLICY = Policies.flag(FLAGS);
    private static final Flag<String> OUT = FLAGS.string(
            "out",
            "",
            "FILE",
            "Write a plan file to the given path. " + "This can be used as input to the \"apply\" command.");
    private static final Flag<String> GENERATE = FLAGS.string(
            "generate-config-out",
            "",
            "PATH",
            "(Experimental) Write a resource block for every import block whose target has no "
                    + "configuration to PATH, a new file in the configuration directory, and plan the imports with "
                    + "it.");
    private static final Flag<Boolean> DETAILED = FLAGS.bool(
            "detailed-exitcode",
            false,
            "Return detailed exit codes "
                    + "when the command exits: 0 - Succeeded, diff is empty (no changes); 1 - Errored; 2 - Succeeded, there "
                    + "is a diff.");
    private static final Flag<Boolean> JSON = FLAGS.bool(
            "json",
            false,
            "Produce output in a machine-readable JSON "
                    + "format, suitable for use in text editor integrations and other automated systems. Always disables "
                    + "color.");

    @Override
    public boolean streamsJson() {
        return true;
    }

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

    /**
     * The arguments: the planning mode, where to save the plan, whether changes exit with 2, and the
     * output form ({@code -json} always disables colour).
     */
    record Args(PlanMode mode, Optional<String> out, boolean detailedExitCode, boolean json) {

        static Parsed<Args> parse(ParsedArgs args) {
            boolean json = args.get(JSON);
            if (!args.positionals().isEmpty()) {
                return new Parsed<>(
                        new Args(PlanMode.NORMAL, Optional.empty(), false, json),
                        List.of(CliDiagnostic.error(
                                "Too many command line arguments",
                                "The plan command takes no positional "
                                        + "arguments; to plan another directory, use the global -chdir option.")));
            }
            if (args.get(DESTROY) && args.get(REFRESH_ONLY)) {
                return new Parsed<>(
                        new Args(PlanMode.NORMAL, Optional.empty(), false, json),
                        List.of(CliDiagnostic.error(
                                "Incompatible plan mode options",
                                "The -destroy and -refresh-only options " + "are mutually-exclusive.")));
            }
            PlanMode mode = args.get(DESTROY)
                    ? PlanMode.DESTROY
                    : args.get(REFRESH_ONLY) ? PlanMode.REFRESH_ONLY : PlanMode.NORMAL;
            String out = args.get(OUT);
            return Parsed.of(
                    new Args(mode, out.isEmpty() ? Optional.empty() : Optional.of(out), args.get(DETAILED), json));
        }

        CommandContext context(CommandContext context) {
            return json ? context.withColorAllowed(false) : context;
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = Args.parse(parsed);
        // The arguments choose the view, so they come back even when wrong.
        CommandContext ctx = OP.presentation(args.value().context(context), parsed);
        OperationView view =
                OperationView.of(ctx, args.value().json(), new dev.strata.engine.Schemas(Operation.providers(ctx)));
        if (args.hasErrors()) {
            view.diagnostics(args.diagnostics());
            return 1;
        }
        PlanMode mode = args.value().mode();
        OperationRunner.Request request = new OperationRunner.Request(
                "OperationTypePlan", mode == PlanMode.DESTROY ? null : Operation.Needs.PLAN, false);
        return OperationRunner.run(ctx, parsed, OP, view.view(), request, s -> {
            PlanOptions options = s.options(OP, mode, view.view());
            if (options == null) {
                return 1;
            }
            dev.strata.engine.Engine engine = s.engine();
            var sources = s.loaded().sources();
            var tree = s.loaded().tree();
            Optional<String> generatedTo = Optional.empty();
            String generate = s.args().get(GENERATE);
            if (!generate.isEmpty() && mode == PlanMode.NORMAL) {
                var usable = GeneratedConfigFile.check(ctx, generate);
                if (usable.hasErrors()) {
                    view.diagnostics(usable, sources);
                    return 1;
                }
                GeneratedConfigFile.Outcome g = GeneratedConfigFile.generate(ctx, s, options, generate);
                if (g.diagnostics().hasErrors()) {
                    view.planFailed();
                    view.diagnostics(g.diagnostics(), g.sources() == null ? sources : g.sources());
                    return 1;
                }
                if (g.engine() != null) {
                    engine = g.engine();
                    sources = g.sources();
                    tree = g.tree();
                    generatedTo = Optional.of(generate);
                    view.generatedConfig(GeneratedConfigFile.generatedResources(tree, ctx, generate));
                }
            }
            Result<Plan> plan;
            Optional<Plan> errored;
            try (var progress = new ApplyView(ctx);
                    var flushing = s.signals().beforeNotice(progress::flush)) {
                plan = engine.plan(s.loaded().variables(), s.state().state(), options, view.events(progress));
                errored = progress.erroredPlan();
            }
            // As Terraform: the warnings of loading the configuration and the variables, and the one about
            // -target, are among the plan's diagnostics, shown after the plan.
            plan = Result.of(
                    plan.value(),
                    s.loaded().warnings().with(Operation.narrowed(options)).with(plan.diagnostics()));
            if (generatedTo.isPresent()) {
                plan = Result.of(plan.value(), plan.diagnostics().with(GeneratedConfigFile.experimental()));
            }
            if (plan.diagnostics().hasErrors()) {
                view.erroredPlan(errored, true);
            }
            if (plan.value() == null) {
                Optional<String> out = args.value().out();
                if (out.isPresent() && errored.isPresent()) {
                    // As Terraform: what a failed plan planned is saved for show to read; apply refuses it.
                    var saved = PlanFiles.write(ctx.resolve(out.get()), errored.get(), tree, options);
                    view.diagnostics(saved.diagnostics(), sources);
                }
                view.diagnostics(plan.diagnostics(), sources);
                return 1;
            }
            view.plan(plan.value());
            // As Terraform: the plan's warnings follow the plan, before the suggested next step.
            view.diagnostics(plan.diagnostics(), sources);
            var policies = Policies.check(ctx, s.args().get(POLICY), plan.value(), tree, sources, view);
            if (policies == null || policies.blocksApply()) {
                // A plan that a mandatory policy stops is not saved: there is nothing to apply.
                return 1;
            }
            Optional<String> out = args.value().out();
            if (out.isPresent()) {
                Result<Void> saved = PlanFiles.write(ctx.resolve(out.get()), plan.value(), tree, options, policies);
                view.diagnostics(saved.diagnostics(), sources);
                if (saved.hasErrors()) {
                    return 1;
                }
            }
            view.nextStep(plan.value(), out, generatedTo);
            return args.value().detailedExitCode() && plan.value().hasChanges() ? 2 : 0;
        });
    }
}
