package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.SourcePos;
import dev.strata.hcl.Traversal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code Expression.variables()}: the references an expression makes, without evaluating it. */
class VariablesTest {
    private static List<String> vars(String src) {
        Expr e = NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "v.tf", SourcePos.START)
                .value();
        return e.variables().stream().map(Traversal::toString).toList();
    }

    @Test
    void referencesInSourceOrderWithTheirSteps() {
        assertThat(vars("aws_instance.web[0].id == var.names[\"a\"] ? local.x : module.m.out"))
                .containsExactly("aws_instance.web[0].id", "var.names[\"a\"]", "local.x", "module.m.out");
    }

    @Test
    void namesBoundByForExpressionsAreNotReferences() {
        assertThat(vars("{ for k, v in var.map : k => v.id if v.enabled && local.on }"))
                .containsExactly("var.map", "local.on");
        assertThat(vars("[for x in var.xs : [for y in x.children : y + var.offset]]"))
                .containsExactly("var.xs", "var.offset");
    }

    @Test
    void splatsTemplatesCallsAndIndexes() {
        assertThat(vars("\"${var.a}-%{ for s in var.list }${s}%{ endfor }\"")).containsExactly("var.a", "var.list");
        assertThat(vars("join(\",\", aws_subnet.private[*].id)")).containsExactly("aws_subnet.private");
        assertThat(vars("local.m[var.key].name")).containsExactly("local.m", "var.key");
        assertThat(vars("{ (var.k) = 1, plain = each.value }")).containsExactly("var.k", "each.value");
    }

    @Test
    void literalsHaveNone() {
        assertThat(vars("[1, \"two\", true, null, { a = 2 }]")).isEmpty();
    }
}
