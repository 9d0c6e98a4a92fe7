package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.OutputView;
import dev.strata.cli.view.View;
import dev.strata.state.OutputValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code strata output [-json] [-raw] [NAME]}: root module outputs from the state. */
final class OutputCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool(
            "json",
            false,
            "Print the outputs in JSON format. "
                    + "A sensitive output's value is printed only when it is asked for by name.");
    private static final Flag<Boolean> RAW = FLAGS.bool(
            "raw",
            false,
            "For value types that can be automatically "
                    + "converted to a string, print the raw string directly, rather than a human-oriented representation of "
                    + "the value.");
    private static final Flag<String> STATE = FLAGS.string(
            "state", "", "PATH", "Legacy option for the local backend only: the state file to read the outputs from.");

    @Override
    public String name() {
        return "output";
    }

    @Override
    public String synopsis() {
        return "Show output values from your root module";
    }

    @Override
    public Section section() {
        return Section.OTHER;
    }

    @Override
    public String usage() {
        return "[options] [NAME]";
    }

    @Override
    public String description() {
        return "Reads an output variable from the state file and prints the value. With no additional arguments, "
                + "output will display all the outputs for the root module. Sensitive outputs are shown as "
                + "<sensitive> unless one is asked for by name with -raw or -json.";
    }

    @Override
    public FlagSet flags() {
        return FLAGS;
    }

    /**
     * The arguments: the output asked for (all when empty) and the form. {@code -json} wins over
     * {@code -raw} for a named output; without a name, {@code -raw} is refused whether or not {@code -json}
     * is given.
     */
    record Args(Optional<String> name, OutputView.Format format, String statePath) {

        static Parsed<Args> parse(ParsedArgs args) {
            if (args.positionals().size() > 1) {
                return Parsed.failed(
                        CliDiagnostic.error(
                                "Unexpected argument",
                                "The output command expects exactly "
                                        + "one argument with the name of an output variable or no arguments to show all outputs."));
            }
            Optional<String> name = args.positionals().stream().findFirst();
            boolean json = args.get(JSON);
            boolean raw = args.get(RAW);
            OutputView.Format format = raw && (!json || name.isEmpty())
                    ? OutputView.Format.RAW
                    : json ? OutputView.Format.JSON : OutputView.Format.HUMAN;
            return Parsed.of(new Args(name, format, args.get(STATE)));
        }
    }

    @Override
    public int run(CommandContext context, ParsedArgs parsed) {
        Parsed<Args> args = Args.parse(parsed);
        if (args.hasErrors()) {
            new View(context).diagnostics(args.diagnostics());
            return 1;
        }
        OutputView view = OutputView.of(context, args.value().format());
        Parsed<StateCli.Stored> read = StateCli.readUnlocked(
                context, new LegacyStatePaths.Paths(args.value().statePath(), "", ""));
        view.diagnostics(read.diagnostics());
        if (read.value() == null) {
            return 1;
        }
        StateCli.Stored stored = read.value();
        Map<String, OutputValue> outputs = stored.state().outputs();
        if (args.value().name().isEmpty()) {
            List<CliDiagnostic> shown = view.all(outputs);
            view.diagnostics(shown);
            return shown.isEmpty() ? 0 : 1;
        }
        String name = args.value().name().get();
        OutputValue o = outputs.get(name);
        if (o == null) {
            view.diagnostics(List.of(CliDiagnostic.error(
                    "Output \"" + name + "\" not found",
                    "The output variable "
                            + "requested could not be found in the state file. If you recently added this to your "
                            + "configuration, be sure to run `strata apply`, since the state won't be updated with new output "
                            + "variables until that command is run.")));
            return 1;
        }
        List<CliDiagnostic> shown = view.one(name, o);
        view.diagnostics(shown);
        return shown.isEmpty() ? 0 : 1;
    }
}
