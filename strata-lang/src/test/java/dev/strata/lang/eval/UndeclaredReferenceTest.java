package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Terraform checks references before evaluating, so a reference to something undeclared is an error
 * even inside {@code try}, {@code can} or a conditional branch that is not taken; an error while
 * evaluating a declared reference is still caught.
 */
class UndeclaredReferenceTest {
    private static final Scope SCOPE = Scope.binding(
            Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of(".")))),
            Map.of("declared", Value.objectOf("a", Value.number(1))));

    private static Result<Value> eval(String src) {
        return new Evaluator(SCOPE)
                .evaluate(NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"can(nope)", "try(nope, 1)", "try(declared.b, nope)", "true ? 1 : nope.x"})
    void undeclaredReferencesAreNotHidden(String src) {
        assertThat(eval(src).diagnostics().asList())
                .filteredOn(Diagnostic::isError)
                .extracting(Diagnostic::summary)
                .containsExactly("Reference to undeclared name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"can(declared.b) ? 0 : 1", "try(declared.b, 1)"})
    void evaluationErrorsAreStillCaught(String src) {
        Result<Value> r = eval(src);
        assertThat(r.hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value()).isEqualTo(Value.number(1));
    }
}
