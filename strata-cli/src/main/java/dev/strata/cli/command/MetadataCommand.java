package dev.strata.cli.command;

import dev.strata.cli.view.FunctionSignatures;
import dev.strata.cli.view.MetadataView;
import java.util.List;

/**
 * {@code strata metadata functions -json}: the signatures of the built-in functions, for editors and
 * language servers, in the format of {@code terraform metadata functions -json}.
 */
final class MetadataCommand extends ParentCommand {
    private static final FlagSet FUNCTIONS = new FlagSet();
    private static final Flag<Boolean> FUNCTIONS_JSON =
            FUNCTIONS.bool("json", false, "Print the signatures as JSON (required).");

    MetadataCommand() {
        super(
                "metadata",
                "Metadata related commands",
                "<subcommand> [options]",
                "This command has subcommands for metadata related purposes.",
                "",
                List.of(new SubcommandHelp(
                        "functions",
                        "-json",
                        "show signatures of the available functions, in the JSON format of terraform metadata "
                                + "functions -json (parameters, their types and whether they accept null, the "
                                + "variadic parameter and the result type; no descriptions).",
                        FUNCTIONS)));
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        MetadataView view = new MetadataView(context);
        Parsed<SubcommandHelp.Selected> selected = select(parsed.positionals());
        if (selected.hasErrors()) {
            view.diagnostics(selected.diagnostics());
            return 1;
        }
        ParsedArgs args = selected.value().args();
        if (!args.get(FUNCTIONS_JSON)) {
            view.jsonRequired();
            return 1;
        }
        view.functions(FunctionSignatures.all(context.workingDir()));
        return 0;
    }
}
