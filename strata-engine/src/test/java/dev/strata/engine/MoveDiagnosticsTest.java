package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.engine.EngineHarness.Row;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.state.StateEdits;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where the diagnostics of {@code moved} blocks point, as Terraform 1.11 places them: a statement's
 * own error at its {@code moved} keyword, a cycle and the unresolved-moves warning (which name their
 * statements in the text) nowhere. The texts themselves are in {@link MoveCases}.
 */
class MoveDiagnosticsTest {
    @TempDir
    Path dir;

    static Stream<Row> rows() {
        String ab =
                "resource \"fake_thing\" \"a\" { value = \"x\" }\nresource \"fake_thing\" \"b\" { value = \"x\" }\n";
        String c = "resource \"fake_thing\" \"c\" { value = \"x\" }\n";
        return Stream.of(
                new Row(
                        "a cycle",
                        null,
                        c + Hcl.moved("fake_thing.a", "fake_thing.b") + Hcl.moved("fake_thing.b", "fake_thing.a"),
                        List.of("error - Cyclic dependency in move statements")),
                new Row(
                        "two moves to one address",
                        null,
                        c + Hcl.moved("fake_thing.a", "fake_thing.c") + Hcl.moved("fake_thing.b", "fake_thing.c"),
                        List.of("error main.tf:11,1-6 Ambiguous move statements")),
                new Row(
                        "two moves from one address",
                        null,
                        c + Hcl.moved("fake_thing.c", "fake_thing.a") + Hcl.moved("fake_thing.c", "fake_thing.b"),
                        List.of(
                                "error main.tf:7,1-6 Moved object still exists",
                                "error main.tf:11,1-6 Moved object still exists",
                                "error main.tf:11,1-6 Ambiguous move statements")),
                new Row(
                        "a move onto an object that still exists",
                        ab,
                        "resource \"fake_thing\" \"b\" { value = \"x\" }\n" + Hcl.moved("fake_thing.a", "fake_thing.b"),
                        List.of("warning - Unresolved resource instance address changes")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void placed(Row r) {
        EngineHarness h = new EngineHarness(dir);
        if (r.prior() != null) {
            h.applied(r.prior());
        }
        List<String> got = h.plan(h.config(r.config())).diagnostics().asList().stream()
                .map(d -> (d.isError() ? "error " : "warning ")
                        + (d.subject() == null ? "-" : d.subject().toString()) + " " + d.summary())
                .toList();
        assertThat(got).isEqualTo(r.expected());
    }

    /** Terraform reports an implied move that is blocked too: count added while index zero is in state. */
    @Test
    void blockedImpliedMoveIsReported() {
        EngineHarness h = new EngineHarness(dir);
        h.applied(c("a") + c("b"));
        h.editState(s -> StateEdits.move(
                        s, EngineHarness.instance("fake_thing.b"), EngineHarness.instance("fake_thing.a[0]"))
                .value());
        Result<Plan> p = h.plan(h.config("resource \"fake_thing\" \"a\" {\n  count = 1\n  value = \"x\"\n}\n"));
        assertThat(p.diagnostics().asList())
                .extracting(Diagnostic::detail)
                .singleElement()
                .asString()
                .contains("  - fake_thing.a could not move to fake_thing.a[0]\n");
        assertThat(EngineHarness.actions(p.value()))
                .containsExactly("fake_thing.a delete (delete_because_wrong_repetition)");
    }

    private static String c(String name) {
        return "resource \"fake_thing\" \"" + name + "\" { value = \"x\" }\n";
    }

    /** A resource moves whole or not at all: one of its objects in the way keeps all of them where they are. */
    @Test
    void unresolvedMovesWarningNamesTheStatement() {
        EngineHarness h = new EngineHarness(dir);
        h.applied("""
                resource "fake_thing" "a" {
                  count = 2
                  value = "x"
                }
                resource "fake_thing" "b" {
                  count = 1
                  value = "x"
                }
                """);
        Diagnostic w = h.plan(h.config("""
                resource "fake_thing" "b" {
                  count = 2
                  value = "x"
                }
                """ + Hcl.moved("fake_thing.a", "fake_thing.b")))
                .diagnostics()
                .asList()
                .get(0);
        assertThat(w.detail())
                .isEqualTo(
                        "Strata tried to adjust resource instance addresses in the prior state "
                                + "based on change information recorded in the configuration, but some adjustments did not succeed "
                                + "due to existing objects already at the intended addresses:\n"
                                + "  - fake_thing.a could not move to fake_thing.b\n\n"
                                + "Strata has planned to destroy these objects. If Strata's proposed changes aren't appropriate, you "
                                + "must first resolve the conflicts using the \"strata state\" subcommands and then create a new plan.");
        assertThat(h.planned(h.config("resource \"fake_thing\" \"b\" {\n  count = 2\n  value = \"x\"\n}\n"
                                + Hcl.moved("fake_thing.a", "fake_thing.b")))
                        .changes())
                .extracting(EngineHarness::describe)
                .containsExactly(
                        "fake_thing.a[0] delete (delete_because_no_resource_config)",
                        "fake_thing.a[1] delete (delete_because_no_resource_config)",
                        "fake_thing.b[0] no_op",
                        "fake_thing.b[1] create");
    }
}
