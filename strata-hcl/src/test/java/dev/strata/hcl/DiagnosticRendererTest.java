package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.syntax.NativeSyntax;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DiagnosticRendererTest {
    private static final String SRC = "resource \"aws_instance\" \"web\" {\n  ami = \"x\\qy\"\n}\n";

    private static String render(boolean color) {
        byte[] src = SRC.getBytes(StandardCharsets.UTF_8);
        Result<HclFile> r = NativeSyntax.parseConfig(src, "main.tf");
        DiagnosticRenderer.Sources sources = new DiagnosticRenderer.Sources() {
            @Override
            public byte[] bytes(String filename) {
                return src;
            }

            @Override
            public Body body(String filename) {
                return r.value().body();
            }
        };
        return new DiagnosticRenderer(sources, color, 60)
                .render(r.diagnostics().asList().get(0));
    }

    @Test
    void plainTextLikeTerraformWithACaretUnderTheSubject() {
        assertThat(render(false)).isEqualTo("""

                Error: Invalid escape sequence

                  on main.tf line 2, in resource "aws_instance" "web":
                   2:   ami = "x\\qy"
                                ^~

                The symbol "q" is not a valid escape sequence selector.
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
    void detailIsWrappedToTheWidth() {
        Diagnostic d = Diagnostic.error("S", "one two three four five six seven eight nine ten eleven twelve", null);
        String out = new DiagnosticRenderer(DiagnosticRenderer.NO_SOURCES, false, 20).render(d);
        assertThat(out).isEqualTo("\nError: S\n\none two three four\nfive six seven eight\nnine ten eleven\ntwelve\n");
    }
}
