package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.ShowView;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Schemas;
import dev.strata.hcl.Result;
import java.util.List;
import java.util.Optional;

/** {@code strata show [-json] [PLANFILE]}: the current state, or a saved plan. */
final class ShowCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool(
            "json",
            false,
            "If specified, output the Strata plan or "
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

    /** The arguments: the saved plan to show, or the current state when empty; and the form. */
    record Args(Optional<String> planFile, boolean json) {

        static Parsed<Args> parse(ParsedArgs args) {
            if (args.positionals().size() > 1) {
                return new Parsed<>(
                        new Args(Optional.empty(), args.get(JSON)),
                        List.of(CliDiagnostic.error(
                                "Too many command line arguments",
                                "Expected at most one positional argument, the path of a " + "plan file.")));
            }
            return Parsed.of(new Args(args.positionals().stream().findFirst(), args.get(JSON)));
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = Args.parse(parsed);
        // The form is known even when the arguments are wrong, so that the problem is reported in it.
        ShowView view = ShowView.of(context, args.value().json(), new Schemas(Operation.providers(context)));
        if (args.hasErrors()) {
            view.diagnostics(args.diagnostics());
            return 1;
        }
        Result<ConfigTree> tree = ConfigLoader.loadTree(
                context.workingDir(), ConfigLoader.Options.DEFAULT.withEnvironment(context.env()));
        if (args.value().planFile().isPresent()) {
            Result<PlanFiles.Loaded> pf =
                    PlanFiles.read(context.resolve(args.value().planFile().get()), tree.value(), context.workingDir());
            view.diagnostics(pf.diagnostics(), tree.value().diagnosticSources());
            if (pf.value() == null) {
                return 1;
            }
            view.plan(pf.value().plan(), tree.value(), pf.value().policyResults());
            return 0;
        }
        Parsed<StateCli.Stored> read = StateCli.readUnlocked(context);
        view.diagnostics(read.diagnostics());
        if (read.value() == null) {
            return 1;
        }
        StateCli.Stored stored = read.value();
        view.state(stored.state());
        return 0;
    }
}
