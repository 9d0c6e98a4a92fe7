package dev.strata.hcl.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.syntax.Expr;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JsonExpressionTest {
    /** The value of property "v" in {@code json}, as an attribute expression. */
    static JsonExpression attr(String json) {
        var r = JsonSyntax.parse(json.getBytes(StandardCharsets.UTF_8), "t.tf.json");
        assertThat(r.diagnostics().isEmpty()).as("%s", r.diagnostics()).isTrue();
        return (JsonExpression)
                r.value().body().justAttributes().value().get("v").expr();
    }

    static String slice(String json, SourceRange r) {
        return r.sliceOf(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void plainStringLowersToATemplateCoveringTheString() {
        String json = "{\"v\": \"hello\"}";
        Expr e = attr(json).syntax().value();
        assertThat(e).isInstanceOf(Expr.Template.class);
        Expr.Template t = (Expr.Template) e;
        assertThat(t.isStringLiteral()).isTrue();
        assertThat(slice(json, t.range())).isEqualTo("\"hello\"");
        assertThat(slice(json, t.parts().get(0).range())).isEqualTo("hello");
    }

    @Test
    void interpolationRangesPointIntoTheFile() {
        String json = "{\n  \"v\": \"id-${aws_instance.web.id}-${var.x}\"\n}";
        JsonExpression x = attr(json);
        List<Traversal> vars = x.variables();
        assertThat(vars).extracting(Traversal::toString).containsExactly("aws_instance.web.id", "var.x");
        SourceRange r = vars.get(0).range();
        assertThat(slice(json, r)).isEqualTo("aws_instance.web.id");
        assertThat(r.start().line()).isEqualTo(2);
        assertThat(r.start().column()).isEqualTo(14);
        assertThat(slice(json, vars.get(1).range())).isEqualTo("var.x");
    }

    @Test
    void escapesDoNotShiftRanges() {
        String json = "{\"v\": \"a\\\"\\u00e9\\n${var.name}\"}";
        JsonExpression x = attr(json);
        Traversal t = x.variables().get(0);
        assertThat(slice(json, t.range())).isEqualTo("var.name");
        assertThat(slice(json, t.steps().get(1).range())).isEqualTo(".name");
        Expr.Template tmpl = (Expr.Template) x.syntax().value();
        Expr.LiteralValue lit = (Expr.LiteralValue) tmpl.parts().get(0);
        assertThat(lit.value()).isEqualTo(new Literal.StringLit("a\"é\n"));
        assertThat(slice(json, lit.range())).isEqualTo("a\\\"\\u00e9\\n");
    }

    @Test
    void soleInterpolationKeepsItsType() {
        String json = "{\"v\": \"${count.index}\"}";
        Expr e = attr(json).syntax().value();
        assertThat(e).isInstanceOf(Expr.TemplateWrap.class);
        assertThat(((Expr.TemplateWrap) e).wrapped()).isInstanceOf(Expr.ScopeTraversal.class);
    }

    @Test
    void templateErrorsArePositionedInTheFile() {
        String json = "{\"v\": \"x\\t${var.}\"}";
        Result<Expr> r = attr(json).syntax();
        assertThat(r.hasErrors()).isTrue();
        Diagnostic d = r.diagnostics().asList().get(0);
        // After the escape "\t" (2 source bytes, 1 decoded), the error is still inside the ${...}.
        assertThat(d.subject().start().byteOffset()).isBetween(json.indexOf("var."), json.indexOf("}\""));
        assertThat(d.subject().filename()).isEqualTo("t.tf.json");
    }

    @Test
    void scalarsLowerToLiterals() {
        String json = "{\"v\": [12.50, true, null, 1e2]}";
        Expr.TupleCons t = (Expr.TupleCons) attr(json).syntax().value();
        assertThat(t.elements())
                .extracting(e -> ((Expr.LiteralValue) e).value())
                .containsExactly(
                        new Literal.NumberLit(new BigDecimal("12.50")),
                        Literal.TRUE,
                        Literal.NULL,
                        new Literal.NumberLit(new BigDecimal("1e2")));
        assertThat(slice(json, t.range())).isEqualTo("[12.50, true, null, 1e2]");
        assertThat(slice(json, t.elements().get(0).range())).isEqualTo("12.50");
    }

    @Test
    void objectsLowerWithTemplateKeys() {
        String json = "{\"v\": {\"name\": \"a\", \"${var.k}\": \"b\"}}";
        JsonExpression x = attr(json);
        Expr.ObjectCons o = (Expr.ObjectCons) x.syntax().value();
        assertThat(o.items()).hasSize(2);
        Expr.ObjectKey k0 = o.items().get(0).key();
        assertThat(k0.literalName()).isEmpty();
        assertThat(slice(json, k0.range())).isEqualTo("\"name\"");
        assertThat(x.variables()).extracting(Traversal::toString).containsExactly("var.k");
    }

    @Test
    void duplicateConstantKeysAreAnError() {
        Result<Expr> r = attr("{\"v\": {\"a\": 1, \"a\": 2}}").syntax();
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Duplicate object attribute");
        assertThat(r.diagnostics().asList().get(0).subject().start().byteOffset())
                .isEqualTo(15);
    }

    @Test
    void traversalFromString() {
        String json = "{\"v\": \"aws_instance.web[0].id\"}";
        Result<Optional<Traversal>> r = attr(json).asTraversal();
        assertThat(r.diagnostics().isEmpty()).isTrue();
        Traversal t = r.value().orElseThrow();
        assertThat(t.toString()).isEqualTo("aws_instance.web[0].id");
        assertThat(slice(json, t.range())).isEqualTo("aws_instance.web[0].id");
        assertThat(t.steps().get(2)).isInstanceOf(Traverser.Index.class);
    }

    @Test
    void traversalRejectsNonReferences() {
        Result<Optional<Traversal>> notString = attr("{\"v\": 1}").asTraversal();
        assertThat(notString.value()).isEmpty();
        assertThat(notString.hasErrors()).isTrue();
        Result<Optional<Traversal>> call = attr("{\"v\": \"f(x)\"}").asTraversal();
        assertThat(call.value()).isEmpty();
        assertThat(call.hasErrors()).isTrue();
        assertThat(call.diagnostics().asList().get(0).subject().filename()).isEqualTo("t.tf.json");
    }

    @Test
    void listsMapsAndKeywords() {
        String json = "{\"v\": [\"aws_vpc.a\", \"aws_vpc.b\"]}";
        List<Expression> l = attr(json).asList().orElseThrow();
        assertThat(l).hasSize(2);
        assertThat(l.get(1).asTraversal().value().orElseThrow().toString()).isEqualTo("aws_vpc.b");
        assertThat(attr("{\"v\": {\"k\": 1}}").asMap().orElseThrow())
                .singleElement()
                .satisfies(kv -> assertThat(kv.key().asKeyword()).contains("k"));
        assertThat(attr("{\"v\": \"string\"}").asKeyword()).contains("string");
        assertThat(attr("{\"v\": \" string\"}").asKeyword()).isEmpty();
        assertThat(attr("{\"v\": \"a.b\"}").asKeyword()).isEmpty();
        assertThat(attr("{\"v\": true}").asKeyword()).isEmpty();
        assertThat(attr("{\"v\": 1}").asList()).isEmpty();
    }

    @Test
    void stringAsNativeExpression() {
        String json = "{\"v\": \"map(object({a = string}))\"}";
        Result<Expr> r = attr(json).asNativeExpression();
        assertThat(r.diagnostics().isEmpty()).isTrue();
        Expr.FunctionCall call = (Expr.FunctionCall) r.value();
        assertThat(call.name()).isEqualTo("map");
        assertThat(slice(json, call.range())).isEqualTo("map(object({a = string}))");
        assertThat(slice(json, call.args().get(0).range())).isEqualTo("object({a = string})");
        assertThat(attr("{\"v\": 1}").asNativeExpression().hasErrors()).isTrue();
        assertThat(attr("{\"v\": \"list(\"}").asNativeExpression().hasErrors()).isTrue();
    }

    @Test
    void literalModeTakesStringsAsTheyAre() {
        Expr e = attr("{\"v\": {\"${k}\": \"${x}\"}}").literalSyntax().value();
        Expr.ObjectCons o = (Expr.ObjectCons) e;
        assertThat(((Expr.LiteralValue) o.items().get(0).value()).value()).isEqualTo(new Literal.StringLit("${x}"));
        assertThat(e.variables()).isEmpty();
    }

    @Test
    void standaloneExpressionAtAStartPosition() {
        Result<JsonExpression> r = JsonSyntax.parseExpression("\"${var.a}\"".getBytes(), "cli", new SourcePos(1, 5, 4));
        assertThat(r.diagnostics().isEmpty()).isTrue();
        Traversal t = r.value().variables().get(0);
        assertThat(t.range().start().byteOffset()).isEqualTo(7);
        assertThat(t.range().start().column()).isEqualTo(8);
    }
}
