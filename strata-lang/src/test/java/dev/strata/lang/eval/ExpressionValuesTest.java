package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic.ExpressionValue;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lines under a failed condition, in Terraform 1.11's words (checked with the terraform binary). */
class ExpressionValuesTest {
    private static final Scope OUTER = Scope.empty(TemplateFunctions.builtins(FunctionContext.system(Path.of("."))));

    private static final Scope SCOPE = Scope.binding(
            OUTER,
            Map.of(
                    "var",
                    Value.objectOf(
                            "env", Value.string("qa"),
                            "n", Value.number(3).mark(Mark.SENSITIVE),
                            "l", Value.listOf(List.of(Value.string("a"))),
                            "o", Value.objectOf("a", Value.number(1), "b", Value.string("x")),
                            "e", Value.list(Type.STRING, List.of()),
                            "z", Value.nullValue(Type.STRING),
                            "eph", Value.string("token").mark(Mark.EPHEMERAL)),
                    "later",
                    Value.unknown(Type.STRING)));

    private static List<ExpressionValue> of(String src) {
        return ExpressionValues.of(
                NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value(),
                SCOPE);
    }

    @Test
    void everyReferenceOnceSortedWithCollectionsByTypeAndSize() {
        assertThat(of("length(var.l) > 3 && var.o.a > 4 && var.l[0] == \"b\" && var.o != {} && var.env == var.env"))
                .containsExactly(
                        new ExpressionValue("var.env", "is \"qa\""),
                        new ExpressionValue("var.l", "is list of string with 1 element"),
                        new ExpressionValue("var.l[0]", "is \"a\""),
                        new ExpressionValue("var.o", "is object with 2 attributes"),
                        new ExpressionValue("var.o.a", "is 1"));
    }

    @Test
    void emptyAndNullValuesAreNamedSo() {
        assertThat(of("var.e == [] && var.z == null"))
                .containsExactly(
                        new ExpressionValue("var.e", "is empty list of string"),
                        new ExpressionValue("var.z", "is null"));
    }

    @Test
    void sensitiveUnknownAndUnresolvableReferencesAreLeftOut() {
        assertThat(of("var.n > 5 && later != \"\" && var.missing == 1 && nothing.here"))
                .isEmpty();
    }

    /** terraform 1.11 shows no line for an ephemeral variable under a failed precondition. */
    @Test
    void ephemeralValuesAreLeftOut() {
        assertThat(of("var.eph == \"other\"")).isEmpty();
    }
}
