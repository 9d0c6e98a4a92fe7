package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.StackTexts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A component with nothing to change still records what refreshing found, as an apply of a configuration does:
 * an instance its count dropped that was deleted outside (what a run killed between the delete and its record
 * leaves) is forgotten, not kept in state for ever.
 */
class RefreshedStateTest {
    @TempDir
    Path dir;

    private static final String MODULE = """
            variable "files" {
              type = number
            }
            resource "local_file" "f" {
              count    = var.files
              filename = "%s/out-${count.index}.txt"
              content  = "strata"
            }
            """;

    private static final String PROVIDER = """
            required_providers {
              local = {
                source = "hashicorp/local"
              }
            }
            provider "local" "main" {}
            """;

    private void files(int count) throws Exception {
        Files.writeString(dir.resolve("main.tfcomponent.hcl"), PROVIDER + """
                component "a" {
                  source    = "./mod"
                  inputs    = { files = %d }
                  providers = { local = provider.local.main }
                }
                """.formatted(count));
    }

    @Test
    void anInstanceDeletedOutsideAndNoLongerDeclaredIsForgottenByAnApplyWithNothingToChange() throws Exception {
        DeploymentOne one = DeploymentOne.local(dir);
        Files.createDirectories(dir.resolve("mod"));
        Files.writeString(dir.resolve("mod/main.tf"), MODULE.formatted(dir));
        Files.writeString(dir.resolve("main.tfdeploy.hcl"), StackTexts.ONE_DEPLOYMENT);
        files(2);
        one.apply();
        try (var s = one.open()) {
            assertThat(s.componentState("component.a").value().instanceAddresses())
                    .hasSize(2);
        }

        Files.delete(dir.resolve("out-1.txt"));
        files(1);
        DeploymentPlan plan = one.apply();
        assertThat(plan.hasChanges()).isFalse();
        try (var s = one.open()) {
            assertThat(s.componentState("component.a").value().instanceAddresses().stream()
                            .map(Object::toString)
                            .toList())
                    .containsExactly("local_file.f[0]");
        }
    }
}
