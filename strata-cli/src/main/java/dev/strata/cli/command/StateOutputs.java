package dev.strata.cli.command;

import dev.strata.engine.StateValues;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.state.OutputValue;

/** Root output values as recorded in state, with their sensitivity. */
final class StateOutputs {
    private StateOutputs() {}

    static Value value(OutputValue o) {
        Value v = StateValues.outputValue(o);
        return o.sensitive() ? v.mark(Mark.SENSITIVE) : v;
    }
}
