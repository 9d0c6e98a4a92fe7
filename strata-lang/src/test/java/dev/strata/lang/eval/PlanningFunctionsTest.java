package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * While planning, Terraform leaves {@code timestamp()}, {@code uuid()} and {@code bcrypt()}
 * unknown (they are called at apply time), also inside templates and through other functions;
 * elsewhere (apply, the console) they have values.
 */
class PlanningFunctionsTest {
    private static final FunctionContext CTX = FunctionContext.system(Path.of("."));

    @ParameterizedTest
    @ValueSource(
            strings = {
                "timestamp()",
                "uuid()",
                "bcrypt(\"x\")",
                "timeadd(timestamp(), \"24h\")",
                // templatestring takes only a reference to a template from elsewhere: tpl is bound below.
                "templatestring(tpl, {})",
                "upper(uuid())",
                "bcrypt(\"x\", 4)"
            })
    void unknownWhilePlanning(String expr) {
        Result<Value> planned = eval(expr, TemplateFunctions.planning(CTX));
        assertThat(planned.diagnostics().hasErrors())
                .as(planned.diagnostics().toString())
                .isFalse();
        assertThat(planned.value()).isEqualTo(Value.unknown(Type.STRING));

        Result<Value> applied = eval(expr, TemplateFunctions.builtins(CTX));
        assertThat(applied.diagnostics().hasErrors())
                .as(applied.diagnostics().toString())
                .isFalse();
        assertThat(applied.value().isWhollyKnown()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"timestamp(1)", "bcrypt()", "uuid(\"x\")", "bcrypt([])"})
    void argumentsStillChecked(String expr) {
        assertThat(eval(expr, TemplateFunctions.planning(CTX)).diagnostics().hasErrors())
                .isTrue();
    }

    private static Result<Value> eval(String src, FunctionTable functions) {
        Scope scope = Scope.binding(Scope.empty(functions), Map.of("tpl", Value.string("at ${timestamp()}")));
        return new Evaluator(scope)
                .evaluate(NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
    }
}
