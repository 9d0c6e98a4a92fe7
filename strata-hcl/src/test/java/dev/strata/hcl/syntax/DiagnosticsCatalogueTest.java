package dev.strata.hcl.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.HclFile;
import dev.strata.hcl.Result;
import dev.strata.hcl.Severity;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue of syntax errors: each input gives exactly the listed diagnostics, with their exact
 * ranges (file:line,col-col). Summaries and ranges agree with HashiCorp's parser wherever it reports
 * the same problem; where it stops after the first error, we go on and report the independent ones.
 */
class DiagnosticsCatalogueTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "unclosed block",
                        "resource \"a\" \"b\" {\n  x = 1\n",
                        List.of("t.tf:1,18-19: Unclosed configuration block")),
                Arguments.of("missing equals", "a 1\n", List.of("t.tf:1,1-2: Argument or block definition required")),
                Arguments.of("bad escape", "a = \"x\\qy\"\n", List.of("t.tf:1,7-9: Invalid escape sequence")),
                Arguments.of(
                        "short unicode escape", "a = \"\\u12\"\n", List.of("t.tf:1,6-10: Invalid escape sequence")),
                Arguments.of(
                        "unterminated heredoc",
                        "a = <<EOT\nhello\n",
                        List.of("t.tf:1,5-2,1: Unterminated template string")),
                Arguments.of(
                        "heredoc marker at end of file without newline",
                        "a = <<EOT\nx\nEOT",
                        List.of("t.tf:1,5-2,1: Unterminated template string")),
                Arguments.of("blanks after a heredoc marker are fine", "a = <<EOT\nx\nEOT \t\nb = 1\n", List.of()),
                Arguments.of("version-like number", "a = 2.1.0\n", List.of("t.tf:1,5-10: Invalid number literal")),
                Arguments.of(
                        "lone carriage return in a heredoc",
                        "a = <<EOT\nx\ry\nEOT\n",
                        List.of("t.tf:2,2-4,1: Invalid character")),
                Arguments.of(
                        "double colon is not a conditional's colon",
                        "a = true ? 1 ::2\n",
                        List.of("t.tf:1,14-16: Missing false expression in conditional")),
                Arguments.of("namespaced call", "a = provider :: aws :: arn_parse(\"x\")\n", List.of()),
                Arguments.of("stray token", "a = 1 ]\n", List.of("t.tf:1,7-8: Missing newline after argument")),
                Arguments.of("duplicate attribute", "a = 1\na = 2\n", List.of("t.tf:2,1-2: Attribute redefined")),
                Arguments.of(
                        "newline in quoted string",
                        "a = \"abc\ndef\"\n",
                        List.of(
                                "t.tf:1,9-2,1: Invalid multi-line string",
                                "t.tf:1,9-2,1: Unterminated template string")),
                Arguments.of(
                        "missing index bracket",
                        "a = x[1\nb = 2\n",
                        List.of("t.tf:2,1-2: Missing close bracket on index")),
                Arguments.of(
                        "extra chars in interpolation",
                        "a = \"${x y}\"\n",
                        List.of("t.tf:1,10-11: Extra characters after interpolation expression")),
                Arguments.of("bitwise and", "a = x & y\n", List.of("t.tf:1,7-8: Unsupported operator")),
                Arguments.of("semicolon", "a = 1;\n", List.of("t.tf:1,6-7: Invalid character")),
                Arguments.of("single quotes", "a = 'x'\n", List.of("t.tf:1,5-6: Invalid character")),
                Arguments.of(
                        "missing argument comma", "a = f(1 2)\n", List.of("t.tf:1,9-10: Missing argument separator")),
                Arguments.of("missing tuple comma", "a = [1 2]\n", List.of("t.tf:1,8-9: Missing item separator")),
                Arguments.of(
                        "missing object separator",
                        "a = {b = 1 c = 2}\n",
                        List.of("t.tf:1,12-13: Missing attribute separator")),
                Arguments.of(
                        "single-line block not closed",
                        "b { c = 1\n}\n",
                        List.of("t.tf:1,10-2,1: Invalid single-argument block definition")),
                Arguments.of("dot without name", "a = x.\n", List.of("t.tf:1,7-2,1: Invalid attribute name")),
                Arguments.of("dangling operator", "a = 1 +\n", List.of("t.tf:1,8-2,1: Invalid expression")),
                Arguments.of(
                        "if without endif",
                        "a = \"%{ if x }y\"\n",
                        List.of("t.tf:1,16-17: Unexpected end of template")),
                Arguments.of(
                        "endif without if", "a = \"%{ endif }\"\n", List.of("t.tf:1,6-16: Unexpected endif directive")),
                Arguments.of("quoted argument name", "\"a\" = 1\n", List.of("t.tf:1,1-2: Invalid argument name")),
                Arguments.of(
                        "legacy index chained", "a = b.0.1\n", List.of("t.tf:1,7-10: Invalid legacy index syntax")),
                Arguments.of(
                        "independent errors are all reported",
                        "a = 1 # ok\nb = = 2\nc = 3\nd = [\n",
                        List.of("t.tf:2,5-6: Invalid expression", "t.tf:5,1-1: Missing expression")),
                Arguments.of(
                        "stray closing brace",
                        "a = 1\n}\nb = 2\n",
                        List.of("t.tf:2,1-2: Argument or block definition required")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reportsExactly(String name, String src, List<String> expected) {
        Result<HclFile> r = NativeSyntax.parseConfig(src.getBytes(StandardCharsets.UTF_8), "t.tf");
        List<String> actual = r.diagnostics().asList().stream()
                .map(d -> d.subject() + ": " + d.summary())
                .toList();
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    @org.junit.jupiter.api.Test
    void invalidUtf8IsAnError() {
        byte[] src = {
            'a', ' ', '=', ' ', '"', (byte) 0xff, (byte) 0xfe, '"', '\n', 'b', ' ', '=', ' ', (byte) 0xc3, '\n'
        };
        Result<HclFile> r = NativeSyntax.parseConfig(src, "t.tf");
        assertThat(r.diagnostics().asList())
                .extracting(d -> d.subject() + ": " + d.summary())
                .containsExactly("t.tf:1,6-8: Invalid character encoding", "t.tf:2,5-6: Invalid character encoding");
    }

    @org.junit.jupiter.api.Test
    void leadingByteOrderMarkIsAWarningAndAnyOtherIsAnError() {
        byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
        byte[] rest = "a = 1\n".getBytes(StandardCharsets.UTF_8);
        byte[] src = new byte[bom.length + rest.length];
        System.arraycopy(bom, 0, src, 0, 3);
        System.arraycopy(rest, 0, src, 3, rest.length);
        Result<HclFile> r = NativeSyntax.parseConfig(src, "t.tf");
        assertThat(r.hasErrors()).isFalse();
        assertThat(r.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.summary()).isEqualTo("Byte order mark at start of file");
        });
        Result<HclFile> mid = NativeSyntax.parseConfig("a = 1\n\ufeffb = 2\n".getBytes(StandardCharsets.UTF_8), "t.tf");
        assertThat(mid.diagnostics().asList()).extracting(Diagnostic::summary).containsExactly("Invalid character");
        assertThat(mid.diagnostics().asList().get(0).subject().toString()).isEqualTo("t.tf:2,1-2");
    }
}
