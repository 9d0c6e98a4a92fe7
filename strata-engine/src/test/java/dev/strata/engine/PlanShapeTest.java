package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a plan says about itself: the summary line's counts, whether it changes anything, the JSON
 * action lists of each action, the order of its changes, and {@code strata graph}'s output.
 */
class PlanShapeTest {
    private final EngineHarness h;

    PlanShapeTest(@TempDir Path dir) {
        h = new EngineHarness(dir);
    }

    private static final String CYCLE = """
            resource "fake_thing" "a" { value = fake_thing.b.id }
            resource "fake_thing" "b" { value = fake_thing.a.id }
            """;

    @ParameterizedTest
    @EnumSource(Action.class)
    void eachActionNamesItsJsonActionsAndWhatItCreatesAndDeletes(Action a) {
        String expected = switch (a) {
            case NO_OP -> "[no-op] replace=false creates=false deletes=false";
            case CREATE -> "[create] replace=false creates=true deletes=false";
            case READ -> "[read] replace=false creates=false deletes=false";
            case UPDATE -> "[update] replace=false creates=false deletes=false";
            case DELETE_THEN_CREATE -> "[delete, create] replace=true creates=true deletes=true";
            case CREATE_THEN_DELETE -> "[create, delete] replace=true creates=true deletes=true";
            case DELETE -> "[delete] replace=false creates=false deletes=true";
            case FORGET -> "[forget] replace=false creates=false deletes=false";
        };
        assertThat(a.jsonActions() + " replace=" + a.isReplace() + " creates=" + a.creates() + " deletes="
                        + a.deletes())
                .isEqualTo(expected);
    }

    @Test
    void theSummaryCountsEachHalfOfAReplacementAndTheDeferredExpansions() {
        h.applied("""
                resource "fake_thing" "same" { value = "s" }
                resource "fake_thing" "update" { value = "u1" }
                resource "fake_thing" "replace" { zone = "1" }
                resource "fake_thing" "gone" {}
                """);
        h.fake.importable = true;
        Plan p = h.planned(h.config("""
                resource "fake_thing" "same" { value = "s" }
                resource "fake_thing" "update" { value = "u2" }
                resource "fake_thing" "replace" { zone = "2" }
                resource "fake_thing" "new" {}
                resource "fake_thing" "later" { count = fake_thing.new.serial }
                resource "fake_thing" "adopted" { value = "imported" }
                import {
                  to = fake_thing.adopted
                  id = "i-1"
                }
                """));
        assertThat(p.summary()).isEqualTo(new Plan.Summary(2, 1, 2, 1, 1));
        assertThat(p.hasChanges()).isTrue();
    }

    @Test
    void changesAreInTerraformsOrderShallowModulesFirstDataBeforeManaged() {
        h.files(java.util.Map.of("m/main.tf", EngineHarness.CHILD_MODULE));
        Plan p = h.planned(h.config("""
                module "m" { source = "./m" }
                resource "fake_thing" "b" { count = 2 }
                resource "fake_thing" "a" {}
                resource "fake_thing" "c" { value = fake_thing.a.id }
                data "fake_info" "z" { value = fake_thing.a.id }
                """));
        assertThat(EngineHarness.changes(p))
                .containsExactly(
                        "data.fake_info.z read (read_because_config_unknown)",
                        "fake_thing.a create",
                        "fake_thing.b[0] create",
                        "fake_thing.b[1] create",
                        "fake_thing.c create",
                        "module.m.fake_thing.x create");
    }

    @Test
    void theGraphIsDrawnReducedAndACycleIsRefusedUnlessAskedFor() {
        var tree = h.config("""
                resource "fake_thing" "a" { value = "a" }
                resource "fake_thing" "b" { value = fake_thing.a.id }
                resource "fake_thing" "c" { value = "${fake_thing.a.id}${fake_thing.b.id}" }
                """);
        String dot = EngineHarness.graph(tree, false).value();
        assertThat(dot)
                .startsWith("digraph {\n")
                .contains("\"fake_thing.c\" -> \"fake_thing.b\"\n")
                .contains("\"fake_thing.b\" -> \"fake_thing.a\"\n")
                .doesNotContain("\"fake_thing.c\" -> \"fake_thing.a\"");
        var cyclic = h.config(CYCLE);
        var refused = EngineHarness.graph(cyclic, false);
        assertThat(refused.value()).isNull();
        assertThat(refused.diagnostics().asList())
                .extracting(d -> d.summary())
                .containsExactly("Cycle: fake_thing.a, fake_thing.b");
    }

    @Test
    void aCycleIsDrawnWhenAskedForWithItsEdgesInRedAndUnreduced() {
        var cyclic = h.config(CYCLE + """
                resource "fake_thing" "c" { value = fake_thing.a.id }
                """);
        var drawn = EngineHarness.graph(cyclic, true);
        assertThat(drawn.diagnostics().asList()).isEmpty();
        // As terraform graph -draw-cycles: every edge (also the ones to the provider that a reduction
        // would drop), the cycle's in red.
        assertThat(drawn.value())
                .contains("\"fake_thing.a\" -> \"fake_thing.b\" [color = \"red\", penwidth = \"2.0\"]\n")
                .contains("\"fake_thing.b\" -> \"fake_thing.a\" [color = \"red\", penwidth = \"2.0\"]\n")
                .contains("\"fake_thing.c\" -> \"fake_thing.a\"\n")
                .contains("\"fake_thing.a\" -> \"provider[\\\"example.com/test/fake\\\"]\"\n")
                .contains("\"fake_thing.c\" -> \"provider[\\\"example.com/test/fake\\\"]\"\n");
    }

    @Test
    void aTargetedApplyChangesOnlyTheTargetsAndWhatTheyNeed() {
        var tree = h.config("""
                resource "fake_thing" "a" { value = "a" }
                resource "fake_thing" "b" { value = fake_thing.a.id }
                resource "fake_thing" "other" { value = "o" }
                """);
        PlanOptions targeted = h.options(PlanMode.NORMAL, List.of("fake_thing.b"), List.of());
        var r = h.planAndApply(tree, targeted, EngineEvents.NONE);
        assertThat(EngineHarness.errors(r.diagnostics())).isEmpty();
        assertThat(r.value().added()).isEqualTo(2);
        assertThat(h.stateAddresses()).containsExactly("fake_thing.a", "fake_thing.b");
        // The next untargeted plan has only what the targeted one left out.
        assertThat(EngineHarness.actions(h.planned(tree))).containsExactly("fake_thing.other create");
    }

    @Test
    void aTargetedDestroyDeletesTheTargetAfterWhatDependsOnItAndLeavesTheRest() {
        String config = """
                resource "fake_thing" "a" { value = "a" }
                resource "fake_thing" "b" { value = "${fake_thing.a.value}-b" }
                resource "fake_thing" "other" { value = "o" }
                """;
        h.applied(config);
        h.fake.applyLog.clear();
        PlanOptions targeted = h.options(PlanMode.DESTROY, List.of("fake_thing.a"), List.of());
        var r = h.planAndApply(h.config(config), targeted, EngineEvents.NONE);
        assertThat(EngineHarness.errors(r.diagnostics())).isEmpty();
        assertThat(r.value().destroyed()).isEqualTo(2);
        assertThat(h.fake.applyLog).containsExactly("a-b -> -", "a -> -");
        assertThat(h.stateAddresses()).containsExactly("fake_thing.other");
    }
}
