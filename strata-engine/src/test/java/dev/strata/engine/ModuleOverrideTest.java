package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.ModuleInstance;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A module instance whose outputs the application gives ({@code override_module} of {@code strata test})
 * does not run: nothing inside it, nested modules included, is planned or applied, and the calls'
 * outputs are the given ones.
 */
class ModuleOverrideTest {
    @TempDir
    Path dir;

    private EngineHarness h;

    /** Two instances of {@code ./p}, each calling {@code ./m} (one {@code fake_thing.x}). */
    private static final String ROOT = """
            module "p" {
              source = "./p"
              count  = 2
            }
            output "ids" { value = module.p[*].id }
            output "values" { value = module.p[*].value }
            """;

    private static final String PARENT = EngineHarness.REQUIRED_PROVIDERS + """
            module "inner" {
              source = "../m"
              in     = "inner"
            }
            output "id" { value = module.inner.id }
            output "value" { value = module.inner.value }
            """;

    /** Overrides {@code module.p[1]} with {@code id = "given"} only. */
    private static final Overrides SECOND = new Overrides() {
        @Override
        public Optional<Map<String, Value>> moduleOutputs(ModuleInstance instance) {
            return instance.toString().equals("module.p[1]")
                    ? Optional.of(Map.of("id", Value.string("given")))
                    : Optional.empty();
        }
    };

    @BeforeEach
    void modules() {
        h = new EngineHarness(dir);
        h.files(Map.of("m/main.tf", EngineHarness.CHILD_MODULE, "p/main.tf", PARENT));
    }

    @Test
    void anOverriddenInstanceIsNeitherPlannedNorApplied() {
        ConfigTree tree = h.interceptor(SECOND).config(ROOT);
        Plan plan = h.planned(tree);
        assertThat(EngineHarness.changes(plan)).containsExactly("module.p[0].module.inner.fake_thing.x create");

        Result<ApplyResult> r = h.apply(tree, plan);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(h.fake.applyLog).hasSize(1);
        assertThat(r.value().added()).isEqualTo(1);
        assertThat(r.value().state().resources())
                .extracting(rs -> rs.addr().toString())
                .containsExactly("module.p[0].module.inner.fake_thing.x");
        // The given output, and null for the output the override does not name.
        assertThat(r.value().state().outputs().get("ids").value().toCompactJson())
                .isEqualTo("[\"thing-1\",\"given\"]");
        assertThat(r.value().state().outputs().get("values").value().toCompactJson())
                .isEqualTo("[\"inner\",null]");
    }

    @Test
    void withoutTheOverrideTheModuleRuns() {
        ConfigTree tree = h.config(ROOT);
        assertThat(EngineHarness.changes(h.planned(tree)))
                .containsExactly(
                        "module.p[0].module.inner.fake_thing.x create", "module.p[1].module.inner.fake_thing.x create");
    }

    @Test
    void objectsAnOverriddenInstanceHasInStateAreLeftAlone() {
        ConfigTree tree = h.config(ROOT);
        Result<ApplyResult> first = h.planAndApply(tree);
        assertThat(first.diagnostics().hasErrors())
                .as(first.diagnostics().toString())
                .isFalse();

        Plan plan = h.interceptor(SECOND).planned(tree);
        assertThat(EngineHarness.actions(plan)).isEmpty();
        assertThat(EngineHarness.changes(plan)).containsExactly("module.p[0].module.inner.fake_thing.x no_op");
    }
}
