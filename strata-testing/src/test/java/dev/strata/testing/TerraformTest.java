package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs only where terraform is on the PATH (skipped elsewhere, as the tests that use it). */
class TerraformTest {
    @TempDir
    Path dir;

    @Test
    void runsOfflineWithTheTestsVariablesOnly() throws Exception {
        Files.writeString(dir.resolve("main.tf"), "variable \"a\" {\n  default = \"unset\"\n}\n");
        String out = Terraform.in(dir).env("TF_VAR_a", "given").stdin("var.a\n").ok("console", "-no-color");
        assertThat(out.strip()).isEqualTo("\"given\"");
        assertThat(Terraform.in(dir).stdin("var.a\n").ok("console", "-no-color").strip())
                .isEqualTo("\"unset\"");
    }

    @Test
    void aFailureKeepsItsExitCodeAndStderr() throws Exception {
        Files.writeString(dir.resolve("main.tf"), "resource {\n");
        ProcessResult r = Terraform.in(dir).run("validate", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: ");
        ProcessResult merged = Terraform.in(dir).mergeStderr().run("validate", "-no-color");
        assertThat(merged.stdout()).contains("Error: ");
        assertThat(merged.stderr()).isEmpty();
    }
}
