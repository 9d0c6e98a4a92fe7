package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Calls that make Terraform's own implementation panic (it prints a Go stack trace) are ordinary
 * call errors here, with a detail that says what is wrong.
 */
class TerraformPanicsTest {
    private static final FunctionTable T = ConsoleCasesTest.table();

    private static CallResult call(String name, Value... args) {
        return T.lookup(name).orElseThrow().call(args);
    }

    @Test
    void indentWithANegativeCount() {
        CallResult.Failure f = (CallResult.Failure) call("indent", Value.number(-1), Value.string("a\nb"));
        assertThat(f.message()).isEqualTo("the number of spaces must not be negative");
        assertThat(call("indent", Value.number(0), Value.string("a\nb")).value())
                .isEqualTo(Value.string("a\nb"));
    }

    @Test
    void elementOfATupleWithANegativeIndex() {
        Value tuple = Value.tuple(List.of(Value.number(1), Value.number(2), Value.number(3)));
        CallResult.Failure f = (CallResult.Failure) call("element", tuple, Value.number(-1));
        assertThat(f.message()).isEqualTo("cannot use element function with a negative index");
        Value list = Value.list(dev.strata.lang.types.Type.NUMBER, List.of(Value.number(1), Value.number(2)));
        assertThat(call("element", list, Value.number(-1)).value()).isEqualTo(Value.number(2));
    }
}
