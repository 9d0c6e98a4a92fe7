package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shape Terraform 0.14 took 70 s to validate: one module with 60 variables called with for_each
 * over 500 keys. Static validation works per configuration object, not per instance, so its cost does
 * not grow with the number of instances. This test checks that the shape validates cleanly; its
 * time is measured by strata-bench's ValidateBenchmark (docs/benchmarks.md), never asserted here.
 */
class ScaleTest {
    @TempDir
    Path dir;

    @Test
    void fiveHundredInstancesOfSixtyVariablesValidateCleanly() {
        StringBuilder child = new StringBuilder();
        StringBuilder inputs = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            child.append("variable \"v").append(i).append("\" { type = string }\n");
            child.append("output \"o")
                    .append(i)
                    .append("\" { value = \"${var.v")
                    .append(i)
                    .append("}-x\" }\n");
            inputs.append("  v").append(i).append(" = \"${each.key}-").append(i).append("\"\n");
        }
        StringBuilder keys = new StringBuilder();
        for (int k = 0; k < 500; k++) {
            keys.append(k == 0 ? "" : ", ").append("\"k").append(k).append('"');
        }
        Fixtures.write(
                dir,
                "main.tf",
                "module \"m\" {\n  source = \"./m\"\n  for_each = toset([" + keys + "])\n" + inputs
                        + "}\noutput \"all\" { value = { for k, m in module.m : k => m.o59 } }\n",
                "m/main.tf",
                child.toString());
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        Diagnostics d = t.diagnostics().with(Validator.validate(t.value()));
        assertThat(d.isEmpty()).as(d.toString()).isTrue();
        assertThat(t.value().nodes()).hasSize(2);
    }
}
