package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The order of an apply's deletions against its creates and updates, as Terraform's destroy edges give it:
 * an object is deleted before what it depended on is deleted, updated or replaced, and before its own
 * replacement is created; {@code create_before_destroy} reaches every resource its resource depends on.
 */
class DestroyOrderTest {
    @TempDir
    Path dir;

    /**
     * One row: {@code prior} applied, then {@code config}; {@code expected} holds {@code "X < Y"}: operation
     * X (such as {@code "DELETE fake_thing.b"}) completed before Y started.
     */
    static List<EngineHarness.Row> cases() {
        String zoned = """
                resource "fake_thing" "a" { zone = "%s" }
                resource "fake_thing" "b" {
                  zone  = "%s"
                  value = fake_thing.a.id
                }
                """;
        return List.of(
                new EngineHarness.Row(
                        "both replaced: the dependent goes first and comes back last",
                        zoned.formatted("1", "1"),
                        zoned.formatted("2", "2"),
                        List.of(
                                "DELETE fake_thing.b < DELETE fake_thing.a",
                                "DELETE fake_thing.a < CREATE fake_thing.a",
                                "CREATE fake_thing.a < CREATE fake_thing.b")),
                new EngineHarness.Row(
                        "the dependent replaced, what it uses updated: the dependent's deletion comes first",
                        """
                        resource "fake_thing" "a" { value = "x" }
                        resource "fake_thing" "b" {
                          zone  = "1"
                          value = fake_thing.a.id
                        }
                        """,
                        """
                        resource "fake_thing" "a" { value = "y" }
                        resource "fake_thing" "b" {
                          zone  = "2"
                          value = fake_thing.a.id
                        }
                        """,
                        List.of(
                                "DELETE fake_thing.b < UPDATE fake_thing.a",
                                "UPDATE fake_thing.a < CREATE fake_thing.b")),
                new EngineHarness.Row(
                        "a dependent no longer configured goes before what it used is replaced",
                        zoned.formatted("1", "1"),
                        """
                        resource "fake_thing" "a" { zone = "2" }
                        """,
                        List.of(
                                "DELETE fake_thing.b < DELETE fake_thing.a",
                                "DELETE fake_thing.a < CREATE fake_thing.a")),
                new EngineHarness.Row(
                        "create_before_destroy on the dependent reaches what it uses",
                        """
                        resource "fake_thing" "a" { zone = "1" }
                        resource "fake_thing" "b" {
                          value = fake_thing.a.zone
                          lifecycle { create_before_destroy = true }
                        }
                        """,
                        """
                        resource "fake_thing" "a" { zone = "2" }
                        resource "fake_thing" "b" {
                          value = fake_thing.a.zone
                          lifecycle { create_before_destroy = true }
                        }
                        """,
                        List.of(
                                "CREATE fake_thing.a < UPDATE fake_thing.b",
                                "UPDATE fake_thing.b < DELETE fake_thing.a (deposed)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void order(EngineHarness.Row c) {
        EngineHarness h = new EngineHarness(dir);
        h.applied(c.prior());
        List<String> seen = new CopyOnWriteArrayList<>();
        var r = h.planAndApply(h.config(c.config()), h.options(), recorder(seen));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        for (String pair : c.expected()) {
            String[] xy = pair.split(" < ");
            assertThat(seen).as(pair).contains("complete " + xy[0], "start " + xy[1]);
            assertThat(seen.indexOf("complete " + xy[0]))
                    .as(pair + " in " + seen)
                    .isLessThan(seen.indexOf("start " + xy[1]));
        }
    }

    @Test
    void aDeletionThatFailsHoldsBackTheReplacementAndWhatTheObjectUsed() {
        EngineHarness h = new EngineHarness(dir);
        h.applied("""
                resource "fake_thing" "a" { value = "x" }
                resource "fake_thing" "b" {
                  zone  = "1"
                  value = fake_thing.a.id
                }
                resource "fake_thing" "free" { value = "x" }
                """);
        h.fake.deletesFail = true;
        List<String> seen = new CopyOnWriteArrayList<>();
        var r = h.planAndApply(h.config("""
                        resource "fake_thing" "a" { value = "y" }
                        resource "fake_thing" "b" {
                          zone  = "2"
                          value = fake_thing.a.id
                        }
                        resource "fake_thing" "free" { value = "y" }
                        """), h.options(), recorder(seen));
        assertThat(r.diagnostics().hasErrors()).isTrue();
        assertThat(seen)
                .contains("complete UPDATE fake_thing.free")
                .noneMatch(e -> e.endsWith("UPDATE fake_thing.a") || e.endsWith("CREATE fake_thing.b"));
        assertThat(h.stateAddresses()).contains("fake_thing.a", "fake_thing.b", "fake_thing.free");
    }

    @Test
    void theStateRecordsCreateBeforeDestroyWhereADependentHasIt() {
        EngineHarness h = new EngineHarness(dir);
        ApplyResult r = h.applied("""
                resource "fake_thing" "a" { zone = "1" }
                resource "fake_thing" "b" {
                  value = fake_thing.a.zone
                  lifecycle { create_before_destroy = true }
                }
                resource "fake_thing" "c" { zone = "1" }
                """);
        assertThat(r.state().resources())
                .extracting(rs -> rs.addr() + " " + rs.instances().getFirst().createBeforeDestroy())
                .containsExactly("fake_thing.a true", "fake_thing.b true", "fake_thing.c false");
    }

    private static EngineEvents recorder(List<String> seen) {
        return new EngineEvents() {
            @Override
            public void applyStart(AbsResourceInstance addr, Action action, String deposed) {
                seen.add("start " + action + " " + addr + (deposed == null ? "" : " (deposed)"));
            }

            @Override
            public void applyComplete(AbsResourceInstance addr, Action action, String id, Duration elapsed) {
                seen.add("complete " + action + " " + addr);
            }

            @Override
            public void applyErrored(AbsResourceInstance addr, Action action, Duration elapsed, Diagnostics d) {
                seen.add("errored " + action + " " + addr);
            }
        };
    }
}
