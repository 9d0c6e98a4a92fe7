package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Names bound over a scope (a dynamic block's iterator) shadow it; everything else falls through. */
class ScopeBindingTest {
    private static final Scope OUTER = Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of("."))));

    private static Result<Value> eval(Scope scope, String src) {
        return new Evaluator(scope)
                .evaluate(NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
    }

    @Test
    void aBoundNameResolvesToItsValueAndTheEvaluatorAppliesTheRest() {
        Scope scope =
                Scope.binding(OUTER, Map.of("it", Value.objectOf("key", Value.string("k"), "value", Value.number(2))));
        Result<Value> r = eval(scope, "\"${it.key}=${it.value * 2}\"");
        assertThat(r.diagnostics()).isEqualTo(Diagnostics.NONE);
        assertThat(r.value()).isEqualTo(Value.string("k=4"));
    }

    @Test
    void otherNamesAndFunctionsAreTheOuterScopes() {
        Scope scope = Scope.binding(OUTER, Map.of("it", Value.TRUE));
        Result<Value> r = eval(scope, "upper(other)");
        assertThat(r.diagnostics().asList())
                .extracting(d -> d.summary())
                .containsExactly("Reference to undeclared name");
        assertThat(Scope.binding(OUTER, Map.of())).isSameAs(OUTER);
    }
}
