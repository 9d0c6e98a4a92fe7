package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.command.CommandContext;
import dev.strata.hcl.TextWrap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ViewTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private View view(boolean color, int width) {
        return new View(new CommandContext(
                Path.of("."),
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                color,
                width,
                Map.of(),
                "r"));
    }

    private View answering(String stdin) {
        return new View(new CommandContext(
                Path.of("."),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false,
                80,
                Map.of(),
                "r"));
    }

    @Test
    void confirmTakesOnlyYesAndEndsThePromptLine() {
        assertThat(answering("  yes \n").confirm("Sure? ")).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("Sure? \n");
        assertThat(answering("y\n").confirm("Sure? ")).isFalse();
        assertThat(answering("").confirm("Sure? ")).isFalse();
        assertThat(answering("").ask("Name? ")).isEmpty();
        assertThat(answering("no\n").ask("Name? ")).contains("no");
    }

    @Test
    void errorsGoToStderrWarningsToStdout() {
        View v = view(false, 80);
        v.diagnostic(CliDiagnostic.error("Broken thing", "Fix it."));
        v.diagnostic(CliDiagnostic.warning("Odd thing", ""));
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("\nError: Broken thing\n\nFix it.\n");
        // As Terraform: a summary alone is followed by two empty lines.
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("\nWarning: Odd thing\n\n\n");
    }

    @Test
    void warningsAboutTheEnvironmentCanBeKeptOffStdout() {
        view(false, 80).diagnosticOnStderr(CliDiagnostic.warning("W", "d"));
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Warning: W");
    }

    @Test
    void colourOnlyWhenAllowed() {
        View plain = view(false, 80);
        assertThat(plain.style(View.Style.RED, "x")).isEqualTo("x");
        View colored = view(true, 80);
        assertThat(colored.style(View.Style.RED, "x")).isEqualTo("\u001b[31mx\u001b[0m");
        colored.diagnostic(CliDiagnostic.error("S", ""));
        // With colour, a diagnostic is drawn in a box, as Terraform does on a terminal.
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("╷\n│ \u001b[1;31mError: \u001b[0m\u001b[1mS\u001b[0m\n│ \n│ \n╵\n");
    }

    @Test
    void detailIsWrappedToTheTerminalWidth() {
        view(false, 30)
                .diagnostic(CliDiagnostic.error("S", "one two three four five six seven eight nine ten eleven twelve"));
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text.lines()).allMatch(l -> l.length() <= 30);
        assertThat(text.replaceAll("\\s+", " "))
                .contains("one two three four five six seven eight nine ten eleven twelve");
    }

    @Test
    void wrapKeepsParagraphsAndIndent() {
        assertThat(TextWrap.wrap("aaa bbb ccc\n\nddd", 28, "  ")).isEqualTo("  aaa bbb ccc\n\n  ddd");
        assertThat(TextWrap.wrap("aaaaa bbbbb ccccc ddddd", 20, "")).isEqualTo("aaaaa bbbbb ccccc\nddddd");
    }

    @Test
    void jsonQuoting() {
        assertThat(Json.quote("a\"b\\c\n\u0001<")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001\\u003c\"");
    }
}
