package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.command.CommandContext;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a view prints diagnostics with {@code -compact-warnings}. */
class CompactWarningsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private View view(boolean compact, boolean color) {
        return new View(new CommandContext(
                        Path.of("."),
                        new ByteArrayInputStream(new byte[0]),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        color,
                        80,
                        Map.of(),
                        "r")
                .withCompactWarnings(compact));
    }

    private static final SourceRange LINE_6 =
            new SourceRange("main.tf", new SourcePos(6, 5, 60), new SourcePos(6, 10, 65));

    @Test
    void onlyWarningsAreListedBySummaryAndPlace() {
        view(true, false)
                .diagnostics(
                        Diagnostics.of(
                                Diagnostic.warning("Check block assertion failed", "not y", LINE_6),
                                Diagnostic.warning("Value for undeclared variable", "The root module ...", null)),
                        DiagnosticRenderer.NO_SOURCES);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("""

                        Warnings:

                        - Value for undeclared variable
                        - Check block assertion failed
                          on main.tf line 6

                        To see the full warning notes, run Strata without -compact-warnings.
                        """);
        assertThat(err.size()).isZero();
    }

    @Test
    void theHeadingIsBoldYellowInColour() {
        view(true, true).diagnostics(List.of(CliDiagnostic.warning("Resource targeting is in effect", "detail")));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("\n\u001b[1m\u001b[33mWarnings:\u001b[0m\n\n- Resource targeting is in effect\n");
    }

    @Test
    void aBatchWithAnErrorIsPrintedInFull() {
        view(true, false)
                .diagnostics(
                        Diagnostics.of(
                                Diagnostic.warning("Check block assertion failed", "not y", LINE_6),
                                Diagnostic.error("Broken", "It broke.", null)),
                        DiagnosticRenderer.NO_SOURCES);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("Warning: Check block assertion failed")
                .doesNotContain("Warnings:");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Error: Broken");
    }

    @Test
    void withoutTheFlagWarningsAreFull() {
        view(false, false).diagnostics(List.of(CliDiagnostic.warning("Resource targeting is in effect", "detail")));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("Warning: Resource targeting is in effect")
                .contains("detail")
                .doesNotContain("Warnings:");
    }
}
