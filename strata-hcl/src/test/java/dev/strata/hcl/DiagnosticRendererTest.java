package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.syntax.NativeSyntax;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DiagnosticRendererTest {
    private static final String SRC = "resource \"aws_instance\" \"web\" {\n  ami = \"x\\qy\"\n}\n";

    /** The one file {@code main.tf} of {@code src}, its bytes and its parse, as the renderer reads sources. */
    private record MainTf(byte[] src, Result<HclFile> parsed) implements DiagnosticRenderer.Sources {
        MainTf(String text) {
            this(text.getBytes(StandardCharsets.UTF_8));
        }

        private MainTf(byte[] src) {
            this(src, NativeSyntax.parseConfig(src, "main.tf"));
        }

        @Override
        public byte[] bytes(String filename) {
            return src;
        }

        @Override
        public Body body(String filename) {
            return parsed.value().body();
        }
    }

    private static String render(boolean color) {
        MainTf sources = new MainTf(SRC);
        return new DiagnosticRenderer(sources, color, 60)
                .render(sources.parsed().diagnostics().asList().get(0));
    }

    @Test
    void plainTextLikeTerraformWithNoMarkUnderTheSubject() {
        assertThat(render(false)).isEqualTo("""

                Error: Invalid escape sequence

                  on main.tf line 2, in resource "aws_instance" "web":
                   2:   ami = "x\\qy"

                The symbol "q" is not a valid escape sequence selector.
                """);
    }

    @Test
    void aGeneratedFileWithASourceMapNamesTheProgramLineBehindTheSubject() {
        byte[] json =
                "{\n  \"resource\": {\n    \"terraform_data\": {\n      \"a\": {\n        \"input\": \"${nope}\"\n      }\n    }\n  }\n}\n"
                        .getBytes(StandardCharsets.UTF_8);
        byte[] map =
                ("{\"sites\": [{\"from\": 4, \"to\": 6, \"file\": \"Infra.java\", \"line\": 9, \"method\": \"Infra.build\"},"
                                + " {\"from\": 5, \"to\": 5, \"file\": \"Infra.java\", \"line\": 11, \"method\": \"Infra.build\"}]}")
                        .getBytes(StandardCharsets.UTF_8);
        DiagnosticRenderer.Sources sources =
                f -> f.equals("main.tf.json") ? json : f.equals("main.tf.json.sites") ? map : null;
        SourceRange at = new SourceRange("main.tf.json", new SourcePos(5, 18, 72), new SourcePos(5, 25, 79));
        String out = new DiagnosticRenderer(sources, false, 80).render(Diagnostic.error("Bad", "detail", at));
        assertThat(out).contains("  on main.tf.json line 5:\n  (written by Infra.java:11 (Infra.build))\n");

        SourceRange outer = new SourceRange("main.tf.json", new SourcePos(4, 7, 48), new SourcePos(4, 10, 51));
        assertThat(new DiagnosticRenderer(sources, false, 80).render(Diagnostic.error("Bad", "detail", outer)))
                .contains("(written by Infra.java:9 (Infra.build))");
        assertThat(new DiagnosticRenderer(f -> f.equals("main.tf.json") ? json : null, false, 80)
                        .render(Diagnostic.error("Bad", "detail", at)))
                .doesNotContain("written by");
    }

    /**
     * A provider's finding about an object, without a detail, at the object's body, as Terraform prints it:
     * the object's address, the block as context and an empty line after the snippet all the same.
     */
    @Test
    void anObjectsAddressComesBeforeThePlaceAndASnippetEndsWithAnEmptyLine() {
        MainTf sources = new MainTf(SRC);
        SourceRange brace = new SourceRange("main.tf", new SourcePos(1, 31, 30), new SourcePos(1, 31, 30));
        Diagnostic d = Diagnostic.error("Bad value", "", brace).withAddress("aws_instance.web");
        assertThat(new DiagnosticRenderer(sources, false, 60).render(d)).isEqualTo("""

                Error: Bad value

                  with aws_instance.web,
                  on main.tf line 1, in resource "aws_instance" "web":
                   1: resource "aws_instance" "web" {

                """);
    }

    @Test
    void colourDrawsABoxAndUnderlinesTheSubject() {
        assertThat(render(true))
                .isEqualTo("╷\n"
                        + "│ \u001b[1;31mError: \u001b[0m\u001b[1mInvalid escape sequence\u001b[0m\n"
                        + "│ \n"
                        + "│   on main.tf line 2, in resource \"aws_instance\" \"web\":\n"
                        + "│    2:   ami = \"x\u001b[4m\\q\u001b[0my\"\n"
                        + "│ \n"
                        + "│ The symbol \"q\" is not a valid escape sequence selector.\n"
                        + "╵\n");
    }

    @Test
    void detailIsWrappedAColumnShortOfTheWidth() {
        Diagnostic d = Diagnostic.error("S", "one two three four five six seven eight nine ten eleven twelve", null);
        String out = new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, false, 21).render(d);
        assertThat(out).isEqualTo("\nError: S\n\none two three four\nfive six seven eight\nnine ten eleven\ntwelve\n");
    }

    /** A word of 70 columns and one of {@code tail} columns after it: how long the first line may be. */
    private static String longest(boolean color, int width, String... tails) {
        String a = "a".repeat(70);
        StringBuilder detail = new StringBuilder();
        for (String t : tails) {
            detail.append(a).append(' ').append(t).append(' ');
        }
        Diagnostic d = Diagnostic.error("S", detail.toString().strip(), null);
        return new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, color, width).render(d);
    }

    /**
     * The line lengths terraform 1.11 gives (measured on its output, not a terminal: 78 columns): a plain
     * detail line is at most 77 columns, one in the box's gutter ("│ ") at most 75 of text.
     */
    @Test
    void detailLinesAreAsLongAsTerraformsAtItsDefaultWidth() {
        String a = "a".repeat(70);
        assertThat(longest(false, 78, "bcdef.", "bcdefg.")).contains("\n" + a + " bcdef.\n" + a + "\nbcdefg.\n");
        assertThat(longest(true, 78, "bc.", "bcd.", "bcde."))
                .contains("│ " + a + " bc.\n│ " + a + " bcd.\n│ " + a + "\n│ bcde.\n");
    }

    /** On a terminal of 57 columns terraform 1.11 ends plain detail lines at 56 columns, boxed text at 54. */
    @Test
    void aNarrowTerminalNarrowsTheDetailAsTerraformDoes() {
        String a = "a".repeat(50);
        Diagnostic d = Diagnostic.error("S", a + " bc. " + a + " bcd. " + a + " bcde. " + a + " bcdef. x", null);
        assertThat(new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, false, 57).render(d))
                .contains("\n" + a + " bc.\n" + a + " bcd.\n" + a + " bcde.\n" + a + "\nbcdef. x\n");
        assertThat(new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, true, 57).render(d))
                .contains("│ " + a + " bc.\n│ " + a + "\n│ bcd.\n");
    }

    /**
     * As Terraform: a detail line that begins with a space is preformatted and never wrapped, the spacing
     * between words is kept except at a break, and columns are counted in characters, not bytes.
     */
    @Test
    void preformattedLinesAndSpacingAreKept() {
        String a = "a".repeat(30);
        String e = "é".repeat(30);
        Diagnostic d = Diagnostic.error(
                "S",
                "first\n  " + a + " " + a + " " + a + "\n" + a + " " + a + "   " + a + "  " + a + " x\n  \n" + e + " "
                        + e + " " + e,
                null);
        assertThat(new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, false, 78).render(d))
                .isEqualTo("\nError: S\n\nfirst\n  " + a + " " + a + " " + a + "\n" + a + " " + a + "\n" + a + "  " + a
                        + " x\n  \n" + e + " " + e + "\n" + e + "\n");
    }

    @Test
    void theValuesOfTheReferencesFollowTheSnippet() {
        MainTf sources = new MainTf("variable \"env\" {\n  default = \"qa\"\n}\n");
        SourceRange header = ((dev.strata.hcl.syntax.SyntaxBody)
                        sources.parsed().value().body())
                .blocks()
                .get(0)
                .defRange();
        Diagnostic d = Diagnostic.error("Invalid value for variable", "Env must be dev or prod.", header)
                .withValues(java.util.List.of(new Diagnostic.ExpressionValue("var.env", "is \"qa\"")));
        // The subject is the block's own header: no "in variable ..." context, as Terraform.
        assertThat(new DiagnosticRenderer(sources, false, 80).render(d)).isEqualTo("""

                Error: Invalid value for variable

                  on main.tf line 1:
                   1: variable "env" {
                    ├────────────────
                    │ var.env is "qa"

                Env must be dev or prod.
                """);
    }

    /** As terraform 1.11: the snippet of a range that ends where the next line starts shows that line too. */
    @Test
    void aSubjectEndingAtTheStartOfALineShowsThatLine() {
        MainTf sources = new MainTf("resource \"terraform_data\" \"x\" {\n  input = \n}\n");
        assertThat(new DiagnosticRenderer(sources, false, 78)
                        .render(sources.parsed().diagnostics().asList().get(0)))
                .isEqualTo("""

                        Error: Invalid expression

                          on main.tf line 2, in resource "terraform_data" "x":
                           2:   input = \n\
                           3: }

                        Expected the start of an expression, but found an invalid expression token.
                        """);
    }

    /**
     * Terraform never wraps a summary, at any width, in colour or not (measured at 60 columns on a terminal and
     * at 78 without one); a summary with line breaks of its own keeps them, inside the box's gutter.
     */
    @Test
    void summariesAreNeverWrapped() {
        String summary = "Duplicate resource \"" + "a".repeat(90) + "_x\" configuration";
        Diagnostic d = Diagnostic.error(summary, "d", null);
        assertThat(new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, false, 60).render(d))
                .isEqualTo("\nError: " + summary + "\n\nd\n");
        Diagnostic twoLines = Diagnostic.error("first line\nsecond line", "d", null);
        assertThat(new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, true, 60).render(twoLines))
                .isEqualTo(
                        "╷\n│ \u001b[1;31mError: \u001b[0m\u001b[1mfirst line\n│ second line\u001b[0m\n│ \n│ d\n╵\n");
        assertThat(new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, false, 60).render(twoLines))
                .isEqualTo("\nError: first line\nsecond line\n\nd\n");
    }
}
