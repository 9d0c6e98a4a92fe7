package dev.strata.cli.command;

import dev.strata.cli.version.Version;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.PlanView;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.cli.view.PlanJson;
import dev.strata.hcl.Result;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;

/** {@code strata show [-json] [PLANFILE]}: the current state, or a saved plan. */
final class ShowCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool("json", false, "If specified, output the Strata plan or "
            + "state in a machine-readable form (Terraform's JSON formats; sensitive values are null).");

    @Override
    public String name() {
        return "show";
    }

    @Override
    public String synopsis() {
        return "Show the current state or a saved plan";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "[options] [path]";
    }

    @Override
    public String description() {
        return "Reads and outputs a Strata state or plan file in a human-readable form. If no path is specified, "
                + "the current state will be shown.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    @Override
    public int run(CommandContext context, ParsedArgs args) {
        boolean json = args.get(JSON);
        PlanView view = new PlanView(json ? context.withColorAllowed(false) : context)
                .withSchemas(new dev.strata.engine.Schemas(Operation.providers(context)));
        if (args.positionals().size() > 1) {
            view.diagnostics(List.of(CliDiagnostic.error("Too many command line arguments", "Expected at most one "
                    + "positional argument, the path of a plan file.")));
            return 1;
        }
        Result<ConfigTree> tree = ConfigLoader.loadTree(context.workingDir(), ConfigLoader.Options.DEFAULT);
        if (!args.positionals().isEmpty()) {
            Result<PlanFiles.Loaded> pf = PlanFiles.read(context.resolve(args.positionals().getFirst()), tree.value(),
                    context.workingDir());
            view.diagnostics(pf.diagnostics(), tree.value().diagnosticSources());
            if (pf.value() == null) {
                return 1;
            }
            if (json) {
                view.out().println(PlanJson.of(pf.value().plan(), tree.value(), Version.current()).toString());
            } else {
                view.plan(pf.value().plan());
            }
            return 0;
        }
        List<CliDiagnostic> problems = new ArrayList<>();
        StateCli.Stored stored = StateCli.readUnlocked(context, problems);
        view.diagnostics(problems);
        if (stored == null) {
            return 1;
        }
        StateSnapshot s = stored.state();
        if (json) {
            view.out().println(PlanJson.stateJson(s, Version.current(),
                    new dev.strata.engine.Schemas(Operation.providers(context))).toString());
            return 0;
        }
        if (s.isEmpty() && s.outputs().isEmpty()) {
            view.out().println("No state.");
            return 0;
        }
        view.out().print(StateText.render(s, view, new dev.strata.engine.Schemas(Operation.providers(context))));
        return 0;
    }
}
