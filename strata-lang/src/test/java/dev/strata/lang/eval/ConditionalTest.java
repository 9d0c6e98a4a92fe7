package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Conditionals report only the chosen result's errors, as HCL does: both results are evaluated
 * (their types decide the result type), and with an unknown condition neither result's errors are
 * reported yet. {@code u} is an unknown bool here; the known cases are also in {@code eval-cases.txt}.
 */
class ConditionalTest {
    private static final Scope SCOPE = new Scope() {
        @Override
        public Result<Resolved> resolve(Traversal traversal) {
            return Result.of(new Resolved(Value.unknown(Type.BOOL), 1), Diagnostics.NONE);
        }

        @Override
        public dev.strata.lang.funcs.FunctionTable functions() {
            return TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));
        }
    };

    private static Result<Value> eval(String src) {
        return new Evaluator(SCOPE)
                .evaluate(NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
    }

    @Test
    void unchosenResultMayFail() {
        Result<Value> r = eval("false ? tolist([])[0] : \"ok\"");
        assertThat(r.diagnostics().hasErrors()).isFalse();
        assertThat(r.value()).isEqualTo(Value.string("ok"));
    }

    @Test
    void unknownConditionDefersBothResultsErrors() {
        Result<Value> r = eval("u ? tolist([])[0] : tolist([])[1]");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().isKnown()).isFalse();
    }

    @Test
    void unknownConditionBetweenNullsIsNull() {
        Result<Value> r = eval("u ? null : null");
        assertThat(r.value().isKnown()).isTrue();
        assertThat(r.value().isNull()).isTrue();
    }

    @Test
    void chosenResultErrorIsReported() {
        Result<Value> r = eval("true ? tolist([])[0] : \"x\"");
        assertThat(r.diagnostics().hasErrors()).isTrue();
    }
}
