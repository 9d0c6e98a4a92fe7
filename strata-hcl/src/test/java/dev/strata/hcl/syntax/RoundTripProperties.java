package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class RoundTripProperties {

    @Provide
    Arbitrary<SyntaxBody> bodies() {
        return AstGenerators.bodies(2);
    }

    @Provide
    Arbitrary<Expr> exprs() {
        return AstGenerators.exprs(3);
    }

    @Property(tries = 400)
    void printedBodyParsesToTheSameTree(@ForAll("bodies") SyntaxBody body) {
        String src = SourcePrinter.print(body);
        Result<HclFile> r = NativeSyntax.parseConfig(src.getBytes(StandardCharsets.UTF_8), "gen.tf");
        assertThat(r.diagnostics().asList()).as(src).isEmpty();
        assertThat(AstShape.of(r.value().body())).as(src).isEqualTo(AstShape.of(body));
    }

    @Property(tries = 800)
    void printedExpressionParsesToTheSameTree(@ForAll("exprs") Expr e) {
        String src = SourcePrinter.print(e);
        Result<Expr> r = NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "gen.tf", SourcePos.START);
        assertThat(r.diagnostics().asList()).as(src).isEmpty();
        assertThat(AstShape.of(r.value())).as(src).isEqualTo(AstShape.of(e));
    }

    @Property(tries = 3000)
    void anyBytesGiveDiagnosticsNeverExceptions(@ForAll byte[] input) {
        checkNoThrow(input);
    }

    @Property(tries = 3000)
    void anyTextGivesDiagnosticsNeverExceptions(@ForAll("hclish") String input) {
        checkNoThrow(input.getBytes(StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> hclish() {
        return net.jqwik.api.Arbitraries.strings().withChars("{}[]()\"=,\n .*?:$%~!-#/<>&|'`;\\\tabcEOT01é")
                .ofMaxLength(60);
    }

    private static void checkNoThrow(byte[] input) {
        Result<HclFile> file = NativeSyntax.parseConfig(input, "fuzz.tf");
        NativeSyntax.parseExpression(input, "fuzz.tf", SourcePos.START);
        NativeSyntax.parseTemplate(input, "fuzz.tf", SourcePos.START);
        for (Diagnostic d : file.diagnostics()) {
            if (d.subject() != null) {
                assertThat(d.subject().end().byteOffset()).isLessThanOrEqualTo(input.length);
                assertThat(d.subject().start().byteOffset()).isGreaterThanOrEqualTo(0);
            }
        }
    }
}
