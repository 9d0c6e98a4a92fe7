package dev.strata.cli.command;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.view.CliDiagnostic;
import dev.strata.cli.view.View;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Value;
import dev.strata.state.OutputValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code strata output [-json] [-raw] [NAME]}: root module outputs from the state. */
final class OutputCommand implements Command {
    private static final FlagSet FLAGS = new FlagSet();
    private static final Flag<Boolean> JSON = FLAGS.bool("json", false, "Print the outputs in JSON format. "
            + "A sensitive output's value is printed only when it is asked for by name.");
    private static final Flag<Boolean> RAW = FLAGS.bool("raw", false, "For value types that can be automatically "
            + "converted to a string, print the raw string directly, rather than a human-oriented representation of "
            + "the value.");

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

    @Override
    public int run(CommandContext context, ParsedArgs args) {
        View view = new View(context);
        if (args.positionals().size() > 1) {
            view.diagnostics(List.of(CliDiagnostic.error("Unexpected argument", "The output command expects exactly "
                    + "one argument with the name of an output variable or no arguments to show all outputs.")));
            return 1;
        }
        List<CliDiagnostic> problems = new ArrayList<>();
        StateCli.Stored stored = StateCli.readUnlocked(context, problems);
        view.diagnostics(problems);
        if (stored == null) {
            return 1;
        }
        Map<String, OutputValue> outputs = stored.state().outputs();
        boolean json = args.get(JSON);
        boolean raw = args.get(RAW);
        if (args.positionals().isEmpty()) {
            if (raw) {
                view.diagnostics(List.of(CliDiagnostic.error("Output name required", "The -raw option requires a "
                        + "single output name.")));
                return 1;
            }
            if (json) {
                ObjectNode n = JsonNodeFactory.instance.objectNode();
                outputs.forEach((k, o) -> {
                    ObjectNode x = n.putObject(k);
                    x.put("sensitive", o.sensitive());
                    x.set("type", dev.strata.engine.StateValues.jsonNode(o.type()));
                    // Listing everything never reveals a secret; ask for one output by name to see it.
                    x.set("value", o.sensitive() ? JsonNodeFactory.instance.nullNode()
                            : dev.strata.engine.StateValues.jsonNode(o.value()));
                });
                view.out().println(n.toPrettyString());
                return 0;
            }
            if (outputs.isEmpty()) {
                view.diagnostics(List.of(CliDiagnostic.warning("No outputs found", "The state file either has no "
                        + "outputs defined, or all the defined outputs are empty. Please define an output in your "
                        + "configuration with the `output` keyword and run `strata refresh` for it to become "
                        + "available. If you are using interpolation, please verify the interpolated value is not "
                        + "empty. You can use the `strata console` command to assist.")));
                return 0;
            }
            outputs.forEach((k, o) -> view.out().println(k + " = " + (o.sensitive() ? "<sensitive>"
                    : ConsoleFormat.render(StateOutputs.value(o)))));
            return 0;
        }
        String name = args.positionals().getFirst();
        OutputValue o = outputs.get(name);
        if (o == null) {
            view.diagnostics(List.of(CliDiagnostic.error("Output \"" + name + "\" not found", "The output variable "
                    + "requested could not be found in the state file. If you recently added this to your "
                    + "configuration, be sure to run `strata apply`, since the state won't be updated with new output "
                    + "variables until that command is run.")));
            return 1;
        }
        Value v = dev.strata.engine.StateValues.outputValue(o);
        if (json) {
            view.out().println(dev.strata.engine.StateValues.jsonNode(o.value()).toString());
            return 0;
        }
        if (raw) {
            if (!v.type().isPrimitive() || v.isNull()) {
                view.diagnostics(List.of(CliDiagnostic.error("Unsupported value for raw output", "The -raw option "
                        + "only supports strings, numbers, and boolean values, but output value \"" + name + "\" is "
                        + v.type().friendlyName() + ".\n\nUse the -json option for machine-readable representations "
                        + "of output values that have complex types.")));
                return 1;
            }
            view.out().print(v.type() == dev.strata.lang.types.Type.STRING ? v.asString()
                    : v.type() == dev.strata.lang.types.Type.NUMBER ? v.numberText() : String.valueOf(v.asBool()));
            view.out().flush();
            return 0;
        }
        view.out().println(o.sensitive() ? "<sensitive>" : ConsoleFormat.render(v));
        return 0;
    }
}
