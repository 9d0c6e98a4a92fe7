package dev.strata.stacks.runtime;

import dev.strata.engine.StateValues;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.ValueJson;
import dev.strata.state.JsonValue;
import dev.strata.state.OutputValue;

/** A stack output as the deployment's own state records it, in the v4 state's output format. */
final class OutputValues {
    private OutputValues() {}

    static OutputValue of(Value v) {
        Value plain = v.unmarkDeep();
        JsonValue type = JsonValue.parse(ValueJson.typeNode(plain.type()).toString(), "type")
                .value();
        return new OutputValue(StateValues.toJson(plain, plain.type()), type, v.hasMarkDeep(Mark.SENSITIVE));
    }
}
