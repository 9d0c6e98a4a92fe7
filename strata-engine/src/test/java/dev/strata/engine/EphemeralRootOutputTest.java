package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.ConfigTree;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code ephemeral} root output: refused in a plan or apply, as Terraform refuses it; allowed
 * where the application says the root outputs are read in memory ({@code strata test}), and then
 * never written to the plan or the state.
 */
class EphemeralRootOutputTest {
    @TempDir
    Path dir;

    private static final String ROOT = """
            variable "secret" {
              type      = string
              ephemeral = true
              default   = "s3cret"
            }
            output "value" {
              value     = var.secret
              ephemeral = true
            }
            """;

    private static final Overrides IN_MEMORY = new Overrides() {
        @Override
        public boolean ephemeralRootOutputs() {
            return true;
        }
    };

    @Test
    void isRefusedInAPlanAndAValidate() {
        EngineHarness h = new EngineHarness(dir);
        ConfigTree tree = h.config(ROOT);
        assertThat(h.validate(tree).toString()).contains("Ephemeral output not allowed");
        assertThat(h.plan(tree).diagnostics().toString()).contains("Ephemeral output not allowed");
    }

    @Test
    void isAllowedInMemoryAndNeverPersisted() {
        EngineHarness h = new EngineHarness(dir).interceptor(IN_MEMORY);
        ConfigTree tree = h.config(ROOT);
        assertThat(h.validate(tree).hasErrors()).isFalse();
        Result<Plan> plan = h.plan(tree);
        assertThat(plan.diagnostics().hasErrors())
                .as(plan.diagnostics().toString())
                .isFalse();
        Result<ApplyResult> r = h.apply(tree, plan.value());
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().state().outputs()).doesNotContainKey("value");
        assertThat(r.value().state().toString()).doesNotContain("s3cret");
    }
}
