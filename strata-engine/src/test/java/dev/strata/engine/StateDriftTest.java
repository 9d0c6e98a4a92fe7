package dev.strata.engine;

import static dev.strata.engine.EngineHarness.actions;
import static dev.strata.engine.EngineHarness.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.state.ObjectStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Plans against a state that is not what the last apply left: objects deleted outside Strata (found
 * by the refresh, or not without one) and tainted objects, in each planning mode.
 */
class StateDriftTest {
    private final EngineHarness h;

    StateDriftTest(@TempDir Path dir) {
        h = new EngineHarness(dir);
    }

    private static final String CONFIG = """
            resource "fake_thing" "a" { value = "a" }
            resource "fake_thing" "b" {
              value = "b"
              lifecycle {
                create_before_destroy = true
              }
            }
            """;

    /**
     * @param vanished the objects deleted outside Strata, by their ids ({@code thing-1} is the first made)
     * @param tainted  the objects marked tainted in state
     * @param refresh  whether the plan refreshes
     * @param changes  the plan's changes other than no-ops
     * @param drift    the drift the refresh found, as changes
     */
    record Case(
            String name,
            List<String> vanished,
            List<String> tainted,
            PlanMode mode,
            boolean refresh,
            List<String> changes,
            List<String> drift,
            boolean hasChanges) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("nothing changed", List.of(), List.of(), PlanMode.NORMAL, true, List.of(), List.of(), false),
                new Case(
                        "an object deleted outside is created again",
                        List.of("thing-1", "thing-2"),
                        List.of(),
                        PlanMode.NORMAL,
                        true,
                        List.of("fake_thing.a create", "fake_thing.b create"),
                        List.of("fake_thing.a delete", "fake_thing.b delete"),
                        true),
                new Case(
                        "without a refresh the deletion goes unseen",
                        List.of("thing-1", "thing-2"),
                        List.of(),
                        PlanMode.NORMAL,
                        false,
                        List.of(),
                        List.of(),
                        false),
                new Case(
                        "a refresh-only plan reports the deletion and changes nothing else",
                        List.of("thing-1", "thing-2"),
                        List.of(),
                        PlanMode.REFRESH_ONLY,
                        true,
                        List.of(),
                        List.of("fake_thing.a delete", "fake_thing.b delete"),
                        true),
                new Case(
                        "a tainted object is replaced",
                        List.of(),
                        List.of("fake_thing.a"),
                        PlanMode.NORMAL,
                        true,
                        List.of("fake_thing.a delete_then_create (replace_because_tainted)"),
                        List.of(),
                        true),
                new Case(
                        "a tainted object with create_before_destroy is replaced new-first",
                        List.of(),
                        List.of("fake_thing.b"),
                        PlanMode.NORMAL,
                        true,
                        List.of("fake_thing.b create_then_delete (replace_because_tainted)"),
                        List.of(),
                        true),
                new Case(
                        "a tainted object is only deleted by the destroy mode",
                        List.of(),
                        List.of("fake_thing.a"),
                        PlanMode.DESTROY,
                        true,
                        List.of("fake_thing.a delete", "fake_thing.b delete"),
                        List.of(),
                        true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plan(Case c) {
        h.applied(CONFIG);
        h.fake.vanished.addAll(c.vanished());
        h.editState(s -> s.withResources(s.resources().stream()
                .map(rs -> c.tainted().contains(rs.addr().toString())
                        ? rs.withInstances(rs.instances().stream()
                                .map(o -> o.withStatus(ObjectStatus.TAINTED))
                                .toList())
                        : rs)
                .toList()));
        PlanOptions o = h.options(c.mode(), List.of(), List.of());
        PlanOptions opts = new PlanOptions(h.dir, "default", c.mode(), c.refresh(), o.targets(), o.replace(), 10);
        Plan p = h.planned(h.config(CONFIG), opts);
        assertThat(actions(p)).isEqualTo(c.changes());
        assertThat(p.drift().stream()
                        .map(d -> d.addr() + " " + d.action().name().toLowerCase(java.util.Locale.ROOT))
                        .toList())
                .isEqualTo(c.drift());
        assertThat(p.hasChanges()).isEqualTo(c.hasChanges());
    }

    /**
     * An instance the expansion dropped is refreshed like the others (as Terraform): deleted outside, it is
     * drift and leaves the state, not destroyed again; still there, it is destroyed. Without a refresh its
     * deletion goes unseen. A destroy plan gives such a delete no reason.
     */
    @org.junit.jupiter.api.Test
    void anInstanceTheCountDroppedIsRefreshedBeforeItIsDestroyed() {
        h.applied("""
                resource "fake_thing" "a" {
                  count = 3
                  value = "a"
                }
                """);
        // Ids follow the order of the concurrent creates: a[1]'s is looked up.
        var a1 = h.state().resources().getFirst().instances().stream()
                .filter(o -> o.key().equals(dev.strata.addr.InstanceKey.of(1)))
                .findFirst()
                .orElseThrow();
        h.fake.vanished.add(((dev.strata.state.JsonValue.StringValue)
                        ((dev.strata.state.JsonValue.ObjectValue) a1.attributes()).get("id"))
                .value());
        String shrunk = """
                resource "fake_thing" "a" {
                  count = 1
                  value = "a"
                }
                """;
        Plan p = h.planned(h.config(shrunk), h.options(PlanMode.NORMAL, List.of(), List.of()));
        assertThat(p.changes().stream()
                        .filter(c -> c.action() != Action.NO_OP)
                        .map(EngineHarness::describe)
                        .toList())
                .containsExactly("fake_thing.a[2] delete (delete_because_count_index)");
        assertThat(p.drift().stream().map(d -> d.addr() + " " + d.action()).toList())
                .containsExactly("fake_thing.a[1] DELETE");

        PlanOptions o = h.options(PlanMode.NORMAL, List.of(), List.of());
        Plan unrefreshed = h.planned(
                h.config(shrunk),
                new PlanOptions(h.dir, "default", PlanMode.NORMAL, false, o.targets(), o.replace(), 10));
        assertThat(actions(unrefreshed))
                .containsExactly(
                        "fake_thing.a[1] delete (delete_because_count_index)",
                        "fake_thing.a[2] delete (delete_because_count_index)");

        Plan destroy = h.planned(h.config(shrunk), h.options(PlanMode.DESTROY, List.of(), List.of()));
        assertThat(actions(destroy)).containsExactly("fake_thing.a[0] delete", "fake_thing.a[2] delete");
    }

    @org.junit.jupiter.api.Test
    void applyingAfterAnOutsideDeletionMakesTheObjectAgainAndKeepsItsDependentsWired() {
        h.applied("""
                resource "fake_thing" "a" { value = "a" }
                resource "fake_thing" "b" { value = "b-${fake_thing.a.id}" }
                """);
        h.fake.vanished.add("thing-1");
        ApplyResult r = h.applied("""
                resource "fake_thing" "a" { value = "a" }
                resource "fake_thing" "b" { value = "b-${fake_thing.a.id}" }
                """);
        assertThat(r.added()).isEqualTo(1);
        assertThat(r.changed()).isEqualTo(1);
        assertThat(h.fake.applyLog).containsSubsequence("- -> a", "b-thing-1 -> b-thing-3");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.a", "fake_thing.b");
    }

    @org.junit.jupiter.api.Test
    void aTaintedObjectIsReplacedByTheNextApply() {
        h.applied(CONFIG);
        h.editState(s -> s.withResources(s.resources().stream()
                .map(rs -> rs.addr().toString().equals("fake_thing.a")
                        ? rs.withInstances(rs.instances().stream()
                                .map(o -> o.withStatus(ObjectStatus.TAINTED))
                                .toList())
                        : rs)
                .toList()));
        Plan p = h.planned(h.config(CONFIG));
        assertThat(p.changes())
                .filteredOn(c -> c.action() != Action.NO_OP)
                .extracting(EngineHarness::describe)
                .containsExactly("fake_thing.a delete_then_create (replace_because_tainted)");
        assertThat(describe(p.changes().getFirst())).startsWith("fake_thing.a");
        ApplyResult r = h.apply(h.config(CONFIG), p).value();
        assertThat(r.added()).isEqualTo(1);
        assertThat(r.destroyed()).isEqualTo(1);
        assertThat(h.state().resources())
                .allSatisfy(rs -> assertThat(rs.instances())
                        .allSatisfy(o -> assertThat(o.status()).isEqualTo(ObjectStatus.READY)));
    }
}
