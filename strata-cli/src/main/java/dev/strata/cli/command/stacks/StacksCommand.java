package dev.strata.cli.command.stacks;

import dev.strata.cli.command.Command;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.FlagSet;
import dev.strata.cli.command.ParsedArgs;
import dev.strata.cli.command.SubcommandHelp;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import java.util.List;

/**
 * {@code strata stacks ...}: Terraform Stacks run locally. The Stack in the working directory (its
 * {@code .tfcomponent.hcl} and {@code .tfdeploy.hcl} files) is validated, planned and applied per
 * deployment, each deployment with its own state under {@code .strata/stacks/<deployment>/}.
 */
public final class StacksCommand implements Command {
    private static final FlagSet NO_FLAGS = new FlagSet();

    private final StacksArgs.InitFlags init = new StacksArgs.InitFlags();
    private final StacksArgs.FmtFlags fmt = new StacksArgs.FmtFlags();
    private final StacksArgs.PlainFlags providers = new StacksArgs.PlainFlags("providers", true);
    private final StacksArgs.OperationFlags plan = new StacksArgs.OperationFlags("plan");
    private final StacksArgs.OperationFlags apply = new StacksArgs.OperationFlags("apply");
    private final StacksArgs.OperationFlags destroy = new StacksArgs.OperationFlags("destroy");
    private final StacksArgs.InspectFlags show = new StacksArgs.InspectFlags("show", false);
    private final StacksArgs.InspectFlags output = new StacksArgs.InspectFlags("output", true);
    private final StacksArgs.InspectFlags list = new StacksArgs.InspectFlags("list", false);

    private final List<SubcommandHelp> subcommands = List.of(
            new SubcommandHelp(
                    "init",
                    "[options]",
                    "checks that the Stack's components load and its providers are available; records where states are stored",
                    init.flags),
            new SubcommandHelp(
                    "validate",
                    "[options]",
                    "checks the component and deployment configurations",
                    StacksValidateCommand.FLAGS),
            new SubcommandHelp(
                    "fmt",
                    "[options]",
                    "rewrites .tfcomponent.hcl and .tfdeploy.hcl files in the canonical style",
                    fmt.flags),
            new SubcommandHelp(
                    "providers",
                    "[options]",
                    "lists the providers the Stack and its components require",
                    providers.flags),
            new SubcommandHelp(
                    "plan",
                    "[options]",
                    "plans every selected deployment (concurrently), each component instance a module plan",
                    plan.flags),
            new SubcommandHelp(
                    "apply",
                    "[options] [PLANFILE]",
                    "plans and applies the selected deployments, asking only for those whose auto-approve rules do not approve; or applies a saved plan",
                    apply.flags),
            new SubcommandHelp(
                    "destroy",
                    "[options]",
                    "destroys what the selected deployments have, in reverse dependency order",
                    destroy.flags),
            new SubcommandHelp(
                    "show", "[options]", "shows each deployment's component instances and their resources", show.flags),
            new SubcommandHelp("output", "[options] [NAME]", "shows each deployment's stack outputs", output.flags),
            new SubcommandHelp("list", "[options]", "lists the deployments and whether they have state", list.flags));

    @Override
    public String name() {
        return "stacks";
    }

    @Override
    public String synopsis() {
        return "Plan and apply Terraform Stacks locally";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "<subcommand> [options]";
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder(
                "Runs a Terraform Stack (.tfcomponent.hcl and .tfdeploy.hcl files) in the working directory: every "
                        + "deployment is planned and applied with its own state under .strata/stacks/<deployment>/, "
                        + "every component instance as a module plan on Strata's engine.");
        for (SubcommandHelp s : subcommands) {
            sb.append("\n\n")
                    .append(s.name())
                    .append(s.usage().isEmpty() ? "" : " " + s.usage())
                    .append(": ")
                    .append(s.text());
        }
        return sb.toString();
    }

    @Override
    public FlagSet flags() {
        return NO_FLAGS;
    }

    @Override
    public List<SubcommandHelp> subcommands() {
        return subcommands;
    }

    @Override
    public int run(CommandContext context, ParsedArgs args) {
        List<String> pos = args.positionals();
        View view = new View(context);
        if (pos.isEmpty()) {
            view.diagnostic(
                    CliDiagnostic.error(
                            "Missing subcommand",
                            "Use one of: apply, destroy, fmt, init, list, output, plan, providers, show, validate. Run \"strata stacks -help\" for details."));
            return 1;
        }
        String name = pos.getFirst();
        List<String> rest = pos.subList(1, pos.size());
        StacksOperations ops = new StacksOperations(context);
        return switch (name) {
            case "init" -> parse(view, init.flags, rest, a -> init.parse(a), a -> ops.init(a));
            case "validate" -> StacksValidateCommand.run(context, rest);
            case "fmt" -> parse(view, fmt.flags, rest, a -> fmt.parse(a), a -> ops.fmt(a));
            case "providers" -> parse(view, providers.flags, rest, a -> providers.parse(a), a -> ops.providers(a));
            case "plan" -> parse(view, plan.flags, rest, a -> plan.parse(a), a -> ops.plan(a));
            case "apply" -> parse(view, apply.flags, rest, a -> apply.parse(a), a -> ops.apply(a));
            case "destroy" -> parse(view, destroy.flags, rest, a -> destroy.parse(a), a -> ops.apply(a));
            case "show" -> parse(view, show.flags, rest, a -> show.parse(a), a -> ops.show(a));
            case "output" -> parse(view, output.flags, rest, a -> output.parse(a), a -> ops.output(a));
            case "list" -> parse(view, list.flags, rest, a -> list.parse(a), a -> ops.list(a));
            default -> {
                view.diagnostic(CliDiagnostic.error(
                        "Unknown subcommand \"stacks " + name + "\"",
                        "There is no subcommand \"" + name + "\". Run \"strata stacks -help\" to list them."));
                yield 1;
            }
        };
    }

    private interface Parser<T> {
        StacksArgs.Parsed<T> parse(ParsedArgs a);
    }

    private interface Body<T> {
        int run(T args);
    }

    private static <T> int parse(View view, FlagSet flags, List<String> rest, Parser<T> parser, Body<T> body) {
        return switch (flags.parse(rest)) {
            case FlagSet.Outcome.Invalid invalid -> {
                view.diagnostic(invalid.diagnostic());
                yield 1;
            }
            case FlagSet.Outcome.Parsed p -> {
                StacksArgs.Parsed<T> parsed = parser.parse(p.args());
                if (parsed.problem() != null) {
                    view.diagnostic(parsed.problem());
                    yield 1;
                }
                yield body.run(parsed.value());
            }
        };
    }
}
