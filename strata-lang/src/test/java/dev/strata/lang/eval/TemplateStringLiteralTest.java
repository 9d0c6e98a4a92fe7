package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code templatestring} rejects a literal template when the call runs, as Terraform 1.11 does
 * (texts from {@code terraform console}): unknown vars make the call's result unknown before that
 * check, null vars fail on the parameter instead, known vars get the literal-template error.
 */
class TemplateStringLiteralTest {
    private static final Map<String, Value> NAMES = Map.of(
            "d", Value.DYNAMIC_UNKNOWN,
            "m", Value.unknown(Type.map(Type.STRING)),
            "escaped", Value.string("${x}"),
            "list", Value.string("${[1]}"));
    private static final FunctionTable FUNCTIONS = TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));
    private static final Scope SCOPE = new Scope() {
        @Override
        public Result<Resolved> resolve(Traversal traversal) {
            return Result.of(new Resolved(NAMES.get(traversal.rootName()), 1), Diagnostics.NONE);
        }

        @Override
        public FunctionTable functions() {
            return FUNCTIONS;
        }
    };

    @Test
    void unknownVarsGiveAnUnknown() {
        assertThat(eval("templatestring(\"hello\", d)").value()).isEqualTo(Value.DYNAMIC_UNKNOWN);
        Result<Value> typed = eval("templatestring(\"hello\", m)");
        assertThat(typed.diagnostics().hasErrors()).isFalse();
        assertThat(typed.value().isKnown()).isFalse();
    }

    @Test
    void knownVarsRejectTheLiteralTemplate() {
        Diagnostic d = onlyError(eval("templatestring(\"hello\", {a = d})"));
        assertThat(d.summary()).isEqualTo("Invalid function argument");
        assertThat(d.detail())
                .isEqualTo(
                        "Invalid value for \"template\" parameter: invalid template expression: "
                                + "templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does "
                                + "not support providing a literal template; consider using a template string expression instead.");
    }

    @Test
    void onlyADirectReferenceIsATemplate() {
        Diagnostic d = onlyError(eval("templatestring(trimspace(escaped), {x = 1})"));
        assertThat(d.detail())
                .isEqualTo("Invalid value for \"template\" parameter: invalid template expression: must be a direct "
                        + "reference to a single string from elsewhere, containing valid Terraform template syntax.");
        assertThat(onlyError(eval("templatestring((escaped), {x = 1})")).summary())
                .isEqualTo("Invalid function argument");
    }

    @Test
    void theResultIsAlwaysAString() {
        Result<Value> r = eval("templatestring(escaped, {x = 1})");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value()).isEqualTo(Value.string("1"));
        assertThat(onlyError(eval("templatestring(list, {})")).detail())
                .isEqualTo("Call to function \"templatestring\" failed: invalid template result: string required.");
    }

    @Test
    void nullVarsFailOnTheVarsParameter() {
        Diagnostic d = onlyError(eval("templatestring(\"hello\", null)"));
        assertThat(d.summary()).isEqualTo("Invalid function argument");
        assertThat(d.detail()).isEqualTo("Invalid value for \"vars\" parameter: argument must not be null.");
    }

    private static Diagnostic onlyError(Result<Value> r) {
        assertThat(r.diagnostics().size()).as(r.diagnostics().toString()).isEqualTo(1);
        assertThat(r.diagnostics().hasErrors()).isTrue();
        return r.diagnostics().asList().get(0);
    }

    private static Result<Value> eval(String src) {
        return new Evaluator(SCOPE)
                .evaluate(NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
    }
}
