package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A piece of a larger file parses from its first byte and reports positions in that file. */
class EmbeddedPositionTest {
    @Test
    void expressionStartsAtFirstByteAndReportsFilePositions() {
        Result<Expr> r = NativeSyntax.parseExpression(
                "var.name".getBytes(StandardCharsets.UTF_8), "f.tf", new SourcePos(2, 5, 10));
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value().range().toString()).isEqualTo("f.tf:2,5-13");
        assertThat(r.value().range().start().byteOffset()).isEqualTo(10);
        assertThat(r.value().range().end().byteOffset()).isEqualTo(18);
    }

    @Test
    void templateKeepsItsLeadingText() {
        Result<Expr> r = NativeSyntax.parseTemplate(
                "x ${var.a}".getBytes(StandardCharsets.UTF_8), "f.tf", new SourcePos(1, 3, 2));
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(AstShape.of(r.value())).isEqualTo("(tmpl s:x  (trav var.a))");
        assertThat(((Expr.Template) r.value()).parts().get(1).range().toString())
                .isEqualTo("f.tf:1,7-12");
    }

    @Test
    void errorsInAPieceReportFilePositions() {
        Result<Expr> r =
                NativeSyntax.parseExpression("1 +".getBytes(StandardCharsets.UTF_8), "f.tf", new SourcePos(3, 7, 40));
        assertThat(r.diagnostics().asList())
                .singleElement()
                .satisfies(d -> assertThat(d.subject().toString()).isEqualTo("f.tf:3,10-10"));
    }
}
