package dev.strata.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The order diagnostics are shown in: warnings first, as Terraform sorts them; then placeless, then by place. */
class DiagnosticsOrderTest {
    private static SourceRange at(String file, int line) {
        return new SourceRange(file, new SourcePos(line, 1, line * 10), new SourcePos(line, 5, line * 10 + 4));
    }

    @Test
    void warningsComeFirstThenPlacelessThenByPlace() {
        Diagnostics ds = Diagnostics.of(
                Diagnostic.error("late error", "", at("main.tf", 30)),
                Diagnostic.warning("late warning", "", at("main.tf", 40)),
                Diagnostic.error("early error", "", at("main.tf", 3)),
                Diagnostic.error("placeless error", "", null),
                Diagnostic.warning("early warning", "", at("a.tf", 50)));
        assertThat(ds.sorted().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("early warning", "late warning", "placeless error", "early error", "late error");
        // JSON keeps the place order Terraform's (unsorted) machine-readable output comes close to.
        assertThat(ds.inPlaceOrder().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("placeless error", "early warning", "early error", "late error", "late warning");
    }
}
