package dev.strata.lang.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.json.JsonSyntax;
import dev.strata.hcl.syntax.NativeSyntax;
import dev.strata.lang.value.Value;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Constant values ({@code .tfvars} files, variable defaults, {@code decode_tfvars}), evaluated as HCL
 * evaluates without a context: each reference evaluated is an error at its root name, each function
 * call an error at the whole call whose arguments are not evaluated, and JSON strings are literal.
 */
class ConstantEvaluationTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("[1, \"a\", { b = true }]", List.of(), "[1, \"a\", { b = true }]"),
                Arguments.of("\"${1 + 1}\"", List.of(), "2"),
                Arguments.of("\"n${1 + 1}\"", List.of(), "\"n2\""),
                Arguments.of("[for x in [1, 2] : x * 2]", List.of(), "[2, 4]"),
                Arguments.of("true ? 1 : var.x", List.of(), "1"),
                // Inside a for expression, as in HCL, a name it does not bind is unknown rather than forbidden.
                Arguments.of("[for x in [1] : y]", List.of("Unknown variable@t:1,17-18"), null),
                Arguments.of("[for k, v in {} : k]", List.of(), "[]"),
                Arguments.of("var.x", List.of("Variables not allowed@t:1,1-4"), null),
                Arguments.of(
                        "var.x + local.y.z",
                        List.of("Variables not allowed@t:1,1-4", "Variables not allowed@t:1,9-14"),
                        null),
                Arguments.of("upper(var.x)", List.of("Function calls not allowed@t:1,1-13"), null),
                Arguments.of("try(1, 2)", List.of("Function calls not allowed@t:1,1-10"), null),
                Arguments.of(
                        "[var.a, max(1)]",
                        List.of("Variables not allowed@t:1,2-5", "Function calls not allowed@t:1,9-15"),
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void nativeSyntax(String src, List<String> problems, String expected) {
        Result<Value> r = Evaluator.constant(
                NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
        assertThat(r.diagnostics().asList())
                .extracting(ConstantEvaluationTest::problem)
                .containsExactlyElementsOf(problems);
        if (expected != null) {
            Value want = Evaluator.constant(NativeSyntax.parseExpression(
                                    expected.getBytes(StandardCharsets.UTF_8), "e", SourcePos.START)
                            .value())
                    .value();
            assertThat(r.value()).isEqualTo(want);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jsonCases")
    void jsonStringsAreLiteral(String json, Value expected) {
        var file = JsonSyntax.parse(("{\"a\": " + json + "}").getBytes(StandardCharsets.UTF_8), "t.json");
        var attr = file.value().body().justAttributes().value().get("a");
        Result<Value> r = Evaluator.constant(attr.expr());
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value()).isEqualTo(expected);
    }

    static Stream<Arguments> jsonCases() {
        return Stream.of(
                Arguments.of("\"${var.x}\"", Value.string("${var.x}")),
                Arguments.of(
                        "{\"k\": \"%{if true}x%{endif}\"}", Value.objectOf("k", Value.string("%{if true}x%{endif}"))),
                Arguments.of(
                        "[\"${upper(1)}\", 2]", Value.tuple(List.of(Value.string("${upper(1)}"), Value.number(2)))));
    }

    /** Names bound over a constant scope (an iterator) are values; functions stay forbidden there. */
    @org.junit.jupiter.api.Test
    void aBindingOverTheConstantScopeKeepsFunctionsOut() {
        Scope bound = Scope.binding(Scope.constant(), java.util.Map.of("it", Value.number(1)));
        Result<Value> r = new Evaluator(bound)
                .evaluate(NativeSyntax.parseExpression(
                                "[it, max(1)]".getBytes(StandardCharsets.UTF_8), "t", SourcePos.START)
                        .value());
        assertThat(r.diagnostics().asList())
                .extracting(ConstantEvaluationTest::problem)
                .containsExactly("Function calls not allowed@t:1,6-12");
    }

    private static String problem(Diagnostic d) {
        return d.summary() + "@" + d.subject();
    }
}
