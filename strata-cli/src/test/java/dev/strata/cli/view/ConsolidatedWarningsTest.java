package dev.strata.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Terraform's consolidation of repeated warnings in the human views. */
class ConsolidatedWarningsTest {
    private static SourceRange at(int line) {
        return new SourceRange("main.tf", new SourcePos(line, 1, 0), new SourcePos(line, 5, 4));
    }

    @Test
    void warningsWithTheSameSummaryAndAPlaceAreShownOnce() {
        List<Diagnostic> out = View.consolidated(List.of(
                Diagnostic.warning("Deprecated", "first", at(1)),
                Diagnostic.warning("Other", "o", at(2)),
                Diagnostic.warning("Deprecated", "second", at(3)),
                Diagnostic.warning("Deprecated", "third", at(4)),
                Diagnostic.warning("Placeless", "p", null),
                Diagnostic.warning("Placeless", "p", null),
                Diagnostic.warning("Other", "o2", at(5))));
        assertThat(out)
                .extracting(Diagnostic::detail)
                .containsExactly(
                        "first\n\n(and 2 more similar warnings elsewhere)",
                        "o\n\n(and one more similar warning elsewhere)",
                        "p",
                        "p");
    }

    @Test
    void errorsAndCheckBlockWarningsStandAlone() {
        List<Diagnostic> in = List.of(
                Diagnostic.error("Bad", "a", at(1)),
                Diagnostic.error("Bad", "b", at(2)),
                Diagnostic.warning("Check block assertion failed", "x", at(3)),
                Diagnostic.warning("Check block assertion failed", "y", at(4)));
        assertThat(View.consolidated(in)).isEqualTo(in);
    }
}
