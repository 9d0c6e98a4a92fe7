package dev.strata.cli.command.stacks;

import dev.strata.cli.command.Command;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.FlagSet;
import dev.strata.cli.command.ParsedArgs;
import dev.strata.cli.command.SubcommandHelp;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import java.util.List;

/** {@code strata stacks ...}: Terraform Stacks run locally. */
public final class StacksCommand implements Command {
    private static final FlagSet NO_FLAGS = new FlagSet();

    private final List<SubcommandHelp> subcommands = List.of(new SubcommandHelp(
            "validate",
            "[options]",
            "checks the component and deployment configurations",
            StacksValidateCommand.FLAGS));

    @Override
    public String name() {
        return "stacks";
    }

    @Override
    public String synopsis() {
        return "Validate and run Terraform Stacks locally";
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
        return "Works on the Terraform Stack (.tfcomponent.hcl and .tfdeploy.hcl files) in the working directory."
                + "\n\nvalidate [options]: checks the component and deployment configurations";
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
            view.diagnostic(CliDiagnostic.error(
                    "Missing subcommand", "Use one of: validate. Run \"strata stacks -help\" for details."));
            return 1;
        }
        String name = pos.getFirst();
        if (name.equals("validate")) {
            return StacksValidateCommand.run(context, pos.subList(1, pos.size()));
        }
        view.diagnostic(CliDiagnostic.error(
                "Unknown subcommand \"stacks " + name + "\"",
                "There is no subcommand \"" + name + "\". Run \"strata stacks -help\" to list them."));
        return 1;
    }
}
