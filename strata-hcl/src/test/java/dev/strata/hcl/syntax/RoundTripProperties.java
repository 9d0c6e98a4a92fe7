package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
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

    /** The property: generated tree, printed, formatted canonically, parsed again: the same tree. */
    @Property(tries = 400)
    void formattedBodyParsesToTheSameTree(@ForAll("bodies") SyntaxBody body) {
        String src = SourcePrinter.print(body);
        Result<byte[]> formatted =
                dev.strata.hcl.format.Formatter.format(src.getBytes(StandardCharsets.UTF_8), "gen.tf");
        assertThat(formatted.diagnostics().asList()).as(src).isEmpty();
        String text = new String(formatted.value(), StandardCharsets.UTF_8);
        Result<HclFile> r = NativeSyntax.parseConfig(formatted.value(), "gen.tf");
        assertThat(r.diagnostics().asList()).as(text).isEmpty();
        assertThat(AstShape.of(r.value().body())).as(text).isEqualTo(AstShape.of(afterTerraformRewrites(body)));
    }

    /**
     * terraform fmt's one rewrite that changes the tree (to an equivalent one): an attribute whose
     * whole value is "${expr}" becomes expr. The generator makes no variable blocks, so the type
     * rewrite does not apply.
     */
    private static SyntaxBody afterTerraformRewrites(SyntaxBody body) {
        List<Attribute> attrs = body.attributes().stream()
                .map(a -> a.expr() instanceof Expr.TemplateWrap w
                        ? new Attribute(a.name(), w.wrapped(), a.range(), a.nameRange())
                        : a)
                .toList();
        List<Block> blocks = body.blocks().stream()
                .map(b -> new Block(
                        b.type(),
                        b.labels(),
                        afterTerraformRewrites((SyntaxBody) b.body()),
                        b.typeRange(),
                        b.labelRanges(),
                        b.defRange(),
                        b.range()))
                .toList();
        return new SyntaxBody(attrs, blocks, body.range(), body.endRange());
    }

    @Property(tries = 800)
    void printedExpressionParsesToTheSameTree(@ForAll("exprs") Expr e) {
        String src = SourcePrinter.print(e);
        Result<Expr> r = NativeSyntax.parseExpression(src.getBytes(StandardCharsets.UTF_8), "gen.tf", SourcePos.START);
        assertThat(r.diagnostics().asList()).as(src).isEmpty();
        assertThat(AstShape.of(r.value())).as(src).isEqualTo(AstShape.of(e));
    }

    /** Found by the property above: "%" before "%{endif}" would read as an escape, so the printer uses ${c ? ...}. */
    @Example
    void aConditionalWhoseBranchEndsInPercentRoundTrips() {
        Expr zero = new Expr.LiteralValue(new Literal.NumberLit(java.math.BigDecimal.ZERO), AstGenerators.R);
        Expr e = new Expr.Template(
                List.of(
                        lit("a%"),
                        new Expr.Conditional(
                                zero,
                                new Expr.Template(List.of(lit("a"), zero, lit("a")), AstGenerators.R),
                                new Expr.Template(List.of(lit("a"), zero, lit("%")), AstGenerators.R),
                                AstGenerators.R),
                        lit("a%")),
                AstGenerators.R);
        printedExpressionParsesToTheSameTree(e);
    }

    private static Expr lit(String s) {
        return new Expr.LiteralValue(new Literal.StringLit(s), AstGenerators.R);
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
        return net.jqwik.api.Arbitraries.strings()
                .withChars("{}[]()\"=,\n .*?:$%~!-#/<>&|'`;\\\tabcEOT01é")
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
