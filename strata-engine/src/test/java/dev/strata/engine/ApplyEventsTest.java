package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The progress events an apply reports for each kind of change, which the CLI's views print: a
 * start and a completion (or an error) per operation, with the operation's action, and the object's
 * id once there is one.
 */
class ApplyEventsTest {
    @TempDir
    Path dir;

    /** Expected: what the apply reported, sorted: {@code "<event> <address> <action>[ <id>]"}. */
    static List<EngineHarness.Row> cases() {
        return List.of(
                new EngineHarness.Row(
                        "a create",
                        null,
                        """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                        List.of("complete fake_thing.a CREATE thing-1", "start fake_thing.a CREATE")),
                new EngineHarness.Row(
                        "an update",
                        """
                        resource "fake_thing" "a" { value = "x" }
                        """,
                        """
                        resource "fake_thing" "a" { value = "y" }
                        """,
                        List.of("complete fake_thing.a UPDATE thing-1", "start fake_thing.a UPDATE")),
                new EngineHarness.Row(
                        "a delete", """
                        resource "fake_thing" "a" { value = "x" }
                        """, "", List.of("complete fake_thing.a DELETE", "start fake_thing.a DELETE")),
                new EngineHarness.Row(
                        "a replacement is a delete and a create",
                        """
                        resource "fake_thing" "a" { zone = "1" }
                        """,
                        """
                        resource "fake_thing" "a" { zone = "2" }
                        """,
                        List.of(
                                "complete fake_thing.a CREATE thing-3",
                                "complete fake_thing.a DELETE",
                                "start fake_thing.a CREATE",
                                "start fake_thing.a DELETE")),
                new EngineHarness.Row(
                        "a failure",
                        null,
                        """
                        resource "fake_thing" "a" { value = "fail" }
                        """,
                        List.of("errored fake_thing.a CREATE Invalid thing", "start fake_thing.a CREATE")),
                new EngineHarness.Row("a no-op reports nothing", """
                        resource "fake_thing" "a" { value = "x" }
                        """, """
                        resource "fake_thing" "a" { value = "x" }
                        """, List.of()),
                new EngineHarness.Row(
                        "a deferred expansion reports each instance it adds",
                        null,
                        """
                        resource "fake_thing" "src" {}
                        resource "fake_thing" "a" {
                          count = fake_thing.src.serial - 6
                        }
                        """,
                        List.of(
                                "added fake_thing.a[0] CREATE",
                                "complete fake_thing.a[0] CREATE thing-2",
                                "complete fake_thing.src CREATE thing-1",
                                "start fake_thing.a[0] CREATE",
                                "start fake_thing.src CREATE")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void events(EngineHarness.Row c) {
        EngineHarness h = new EngineHarness(dir);
        if (c.prior() != null) {
            h.applied(c.prior());
        }
        List<String> seen = new CopyOnWriteArrayList<>();
        h.planAndApply(h.config(c.config()), h.options(), new EngineEvents() {
            @Override
            public void applyStart(AbsResourceInstance addr, Action action, String deposed) {
                seen.add("start " + addr + " " + action);
            }

            @Override
            public void instanceAdded(AbsResourceInstance addr, Action action) {
                seen.add("added " + addr + " " + action);
            }

            @Override
            public void applyComplete(AbsResourceInstance addr, Action action, String id, Duration elapsed) {
                seen.add("complete " + addr + " " + action + (id == null ? "" : " " + id));
            }

            @Override
            public void applyErrored(AbsResourceInstance addr, Action action, Duration elapsed, Diagnostics d) {
                seen.add("errored " + addr + " " + action + " "
                        + d.asList().getFirst().summary());
            }
        });
        assertThat(EngineHarness.sorted(seen)).isEqualTo(c.expected());
    }
}
