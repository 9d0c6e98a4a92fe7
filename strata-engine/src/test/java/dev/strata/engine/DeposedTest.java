package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code create_before_destroy} replacement whose old object cannot be deleted: the new object
 * takes the address, the old one stays in state as deposed, and later plans delete it.
 */
class DeposedTest {
    @TempDir
    Path dir;

    private EngineHarness h;

    private static String config(String zone) {
        return """
                resource "fake_thing" "a" {
                  value = "v"
                  zone  = "%s"
                  lifecycle {
                    create_before_destroy = true
                  }
                }
                resource "fake_thing" "user" { value = fake_thing.a.id }
                """.formatted(zone);
    }

    @BeforeEach
    void replacedButNotDeleted() {
        h = new EngineHarness(dir);
        h.applied(config("1"));
        h.fake.deletesFail = true;
        var r = h.planAndApply(h.config(config("2")));
        assertThat(EngineHarness.errors(r.diagnostics()))
                .extracting(Diagnostic::summary)
                .containsExactly("Cannot delete");
        assertThat(r.value().added()).isEqualTo(1);
        // As Terraform: the old object is deleted only after its dependents moved to the new one, so the
        // failed delete fails that object alone and the dependent is updated.
        assertThat(r.value().changed()).isEqualTo(1);
        assertThat(EngineHarness.sorted(r.value().failed())).containsExactly("fake_thing.a");
        assertThat(r.value().skipped()).isEmpty();
    }

    @Test
    void theDependentsFollowTheNewObjectBeforeTheOldOneIsDeleted() {
        EngineHarness fresh = new EngineHarness(dir.resolve("fresh"));
        fresh.applied(config("1"));
        fresh.fake.applyLog.clear();
        fresh.applied(config("2"));
        assertThat(fresh.fake.applyLog).containsExactly("- -> v", "thing-1 -> thing-3", "v -> -");
    }

    @Test
    void theOldObjectStaysInStateAsDeposedBesideTheNewOne() {
        assertThat(h.stateAddresses()).containsExactly("fake_thing.a", "fake_thing.a (deposed)", "fake_thing.user");
    }

    @Test
    void theNextPlanOnlyDeletesTheDeposedObject() {
        Plan p = h.planned(h.config(config("2")));
        assertThat(EngineHarness.actions(p)).containsExactly("fake_thing.a deposed delete");
        assertThat(p.summary()).isEqualTo(new Plan.Summary(0, 0, 1, 0, 0));
    }

    @Test
    void onceTheApiAllowsItTheDeposedObjectIsDeleted() {
        h.fake.deletesFail = false;
        ApplyResult r = h.applied(config("2"));
        assertThat(r.destroyed()).isEqualTo(1);
        assertThat(r.changed()).isZero();
        assertThat(h.stateAddresses()).containsExactly("fake_thing.a", "fake_thing.user");
    }

    @Test
    void theDestroyModeDeletesTheCurrentAndTheDeposedObject() {
        h.fake.deletesFail = false;
        Plan p =
                h.planned(h.config(config("2")), h.options(PlanMode.DESTROY, java.util.List.of(), java.util.List.of()));
        assertThat(EngineHarness.actions(p))
                .containsExactlyInAnyOrder(
                        "fake_thing.a delete", "fake_thing.a deposed delete", "fake_thing.user delete");
    }
}
