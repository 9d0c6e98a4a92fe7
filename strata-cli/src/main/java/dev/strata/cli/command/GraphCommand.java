package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Result;

/** {@code strata graph}: the dependency graph of the configuration in DOT, for Graphviz. */
final class GraphCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<String> TYPE = FLAGS.string(
            "type",
            "",
            "plan|apply",
            "Type of operation graph to output: every object of the configuration (variables, locals, outputs, "
                    + "module calls, resources, providers) and the dependencies between them. The types differ only in "
                    + "name, as Strata plans and applies along the same graph. Without it the graph summarises the "
                    + "relationships between the resources only.");
    private static final Flag<Boolean> DRAW_CYCLES = FLAGS.bool(
            "draw-cycles",
            false,
            "Draw the operation graph (as -type=plan) even when it has cycles, with their edges in red, to help "
                    + "break them (without it a cycle is an error).");

    @Override
    public String name() {
        return "graph";
    }

    @Override
    public String synopsis() {
        return "Generate a Graphviz graph of the steps in an operation";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String description() {
        return "Produces a representation of the dependency graph between different objects in the current "
                + "configuration, in the DOT language. The typical program that can read this format is GraphViz: "
                + "strata graph | dot -Tsvg > graph.svg";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /** The arguments: the operation whose graph is drawn, and whether a graph with cycles is drawn anyway. */
    record Args(String type, boolean drawCycles) {

        static Parsed<Args> parse(ParsedArgs args) {
            String type = args.get(TYPE);
            if (!java.util.Set.of("", "plan", "plan-refresh-only", "plan-destroy", "apply")
                    .contains(type)) {
                return Parsed.failed(CliDiagnostic.error(
                        "Invalid graph type",
                        "The -type value \"" + type + "\" is not supported; use plan, plan-refresh-only, "
                                + "plan-destroy or apply, or leave it out for the resources only."));
            }
            return Parsed.of(new Args(type, args.get(DRAW_CYCLES)));
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        View view = new View(context);
        Parsed<Args> args = Args.parse(parsed);
        if (args.hasErrors()) {
            view.diagnostics(args.diagnostics());
            return 1;
        }
        Result<ConfigTree> tree = OperationRunner.loadTree(context);
        view.diagnostics(tree.diagnostics(), tree.value().diagnosticSources());
        if (tree.hasErrors()) {
            return 1;
        }
        var engine = OperationRunner.engine(context, tree.value());
        // As Terraform: without -type, only the resources and how they depend on each other.
        Result<String> dot = args.value().type().isEmpty() && !args.value().drawCycles()
                ? engine.resourceGraph("strata")
                : engine.graph(args.value().drawCycles());
        view.diagnostics(dot.diagnostics(), tree.value().diagnosticSources());
        if (dot.value() == null) {
            return 1;
        }
        view.out().print(dot.value());
        return dot.diagnostics().hasErrors() ? 1 : 0;
    }
}
