package dev.strata.cli.view;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.engine.StateValues;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConsoleFormat;
import dev.strata.lang.value.Value;
import dev.strata.state.OutputValue;
import java.util.List;
import java.util.Map;

/**
 * Output of {@code strata output}: the root module's outputs as recorded in the state, for a person,
 * as JSON ({@code -json}) or as a bare value ({@code -raw}). A sensitive value is shown only when asked
 * for by name in JSON or raw form.
 */
public sealed interface OutputView {

    /** The form {@code -json} and {@code -raw} ask for. */
    enum Format {
        HUMAN,
        JSON,
        RAW
    }

    static OutputView of(Terminal terminal, Format format) {
        View view = new View(terminal);
        return switch (format) {
            case HUMAN -> new Human(view);
            case JSON -> new Json(view);
            case RAW -> new Raw(view);
        };
    }

    /** The streams, colour and diagnostics rendering this form writes with. */
    View view();

    default void diagnostics(List<CliDiagnostic> diagnostics) {
        view().diagnostics(diagnostics);
    }

    /** Every output; errors (what this form cannot show) come back as diagnostics. */
    List<CliDiagnostic> all(Map<String, OutputValue> outputs);

    /** The output named {@code name}; errors (what this form cannot show) come back as diagnostics. */
    List<CliDiagnostic> one(String name, OutputValue output);

    record Human(View view) implements OutputView {
        @Override
        public List<CliDiagnostic> all(Map<String, OutputValue> outputs) {
            if (outputs.isEmpty()) {
                view.diagnostics(List.of(CliDiagnostic.warning(
                        "No outputs found",
                        "The state file either has no "
                                + "outputs defined, or all the defined outputs are empty. Please define an output in your "
                                + "configuration with the `output` keyword and run `strata refresh` for it to become "
                                + "available. If you are using interpolation, please verify the interpolated value is not "
                                + "empty. You can use the `strata console` command to assist.")));
                return List.of();
            }
            outputs.forEach((k, o) -> view.out()
                    .println(k + " = "
                            + (o.sensitive() ? "<sensitive>" : ConsoleFormat.render(StateValues.outputValue(o)))));
            return List.of();
        }

        @Override
        public List<CliDiagnostic> one(String name, OutputValue output) {
            view.out()
                    .println(
                            output.sensitive() ? "<sensitive>" : ConsoleFormat.render(StateValues.outputValue(output)));
            return List.of();
        }
    }

    record Json(View view) implements OutputView {
        @Override
        public List<CliDiagnostic> all(Map<String, OutputValue> outputs) {
            ObjectNode n = JsonNodeFactory.instance.objectNode();
            outputs.forEach((k, o) -> {
                ObjectNode x = n.putObject(k);
                x.put("sensitive", o.sensitive());
                x.set("type", StateValues.jsonNode(o.type()));
                // Listing everything never reveals a secret; ask for one output by name to see it.
                x.set("value", o.sensitive() ? JsonNodeFactory.instance.nullNode() : StateValues.jsonNode(o.value()));
            });
            view.out().println(GoJson.indented(n));
            return List.of();
        }

        @Override
        public List<CliDiagnostic> one(String name, OutputValue output) {
            view.out().println(GoJson.compact(StateValues.jsonNode(output.value())));
            return List.of();
        }
    }

    /** The bare string of one primitive value, without quotes or a newline, for scripts. */
    record Raw(View view) implements OutputView {
        @Override
        public List<CliDiagnostic> all(Map<String, OutputValue> outputs) {
            return List.of(
                    CliDiagnostic.error("Output name required", "The -raw option requires a single output " + "name."));
        }

        @Override
        public List<CliDiagnostic> one(String name, OutputValue output) {
            Value v = StateValues.outputValue(output);
            if (!v.type().isPrimitive() || v.isNull()) {
                return List.of(CliDiagnostic.error(
                        "Unsupported value for raw output",
                        "The -raw option only "
                                + "supports strings, numbers, and boolean values, but output value \"" + name + "\" is "
                                + v.type().friendlyName()
                                + ".\n\nUse the -json option for machine-readable representations "
                                + "of output values that have complex types."));
            }
            view.out()
                    .print(
                            v.type() == Type.STRING
                                    ? v.asString()
                                    : v.type() == Type.NUMBER ? v.numberText() : String.valueOf(v.asBool()));
            view.out().flush();
            return List.of();
        }
    }
}
