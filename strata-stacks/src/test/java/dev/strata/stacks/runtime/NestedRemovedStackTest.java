package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.StackTexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removed embedded stacks are walked all the way down: the stacks a removed stack embeds are destroyed
 * with it, and a removed block may name a stack inside a still declared one ({@code stack.a.stack.b}).
 */
class NestedRemovedStackTest {
    @TempDir
    Path dir;

    private DeploymentOne one;

    @BeforeEach
    void deployment() {
        one = DeploymentOne.local(dir);
    }

    private static final String MODULE = """
            variable "name" {
              type = string
            }
            resource "terraform_data" "this" {
              input = var.name
            }
            output "id" {
              value = terraform_data.this.id
            }
            """;

    private static final String PROVIDER = StackTexts.TERRAFORM_PROVIDER;

    private static final String INNER = PROVIDER + """
            variable "name" {
              type = string
            }
            component "c" {
              source    = "../mod"
              inputs    = { name = var.name }
              providers = { terraform = provider.terraform.main }
            }
            """;

    private static final String OUTER_HEAD = PROVIDER + """
            component "a" {
              source    = "../mod"
              inputs    = { name = "a" }
              providers = { terraform = provider.terraform.main }
            }
            """;

    private static final String OUTER_INNER = """
            stack "inner" {
              for_each = toset(["x", "y"])
              source   = "../inner"
              inputs   = { name = "${each.key}-${component.a.id}" }
            }
            """;

    private void write(String rel, String text) throws IOException {
        Files.createDirectories(dir.resolve(rel).getParent());
        Files.writeString(dir.resolve(rel), text);
    }

    private void applyNested() throws IOException {
        write("mod/main.tf", MODULE);
        write("inner/main.tfcomponent.hcl", INNER);
        write("outer/main.tfcomponent.hcl", OUTER_HEAD + OUTER_INNER);
        write("main.tfdeploy.hcl", StackTexts.ONE_DEPLOYMENT);
        write("main.tfcomponent.hcl", "stack \"outer\" {\n  source = \"./outer\"\n}\n");
        one.apply();
        assertThat(one.instances())
                .containsExactly(
                        "stack.outer.component.a",
                        "stack.outer.stack.inner[\"x\"].component.c",
                        "stack.outer.stack.inner[\"y\"].component.c");
    }

    @Test
    void theStacksARemovedStackEmbedsAreDestroyedWithIt() throws Exception {
        applyNested();
        write("main.tfcomponent.hcl", """
                removed {
                  from   = stack.outer
                  source = "./outer"
                }
                """);
        DeploymentPlan plan = one.apply();
        assertThat(plan.components().stream().map(ComponentPlan::address))
                .containsExactlyInAnyOrder(
                        "stack.outer.component.a",
                        "stack.outer.stack.inner[\"x\"].component.c",
                        "stack.outer.stack.inner[\"y\"].component.c");
        assertThat(plan.components()).allMatch(ComponentPlan::removed);
        assertThat(one.instances()).isEmpty();
    }

    @Test
    void aRemovedBlockNamesAStackInsideAStillDeclaredOne() throws Exception {
        applyNested();
        write("outer/main.tfcomponent.hcl", OUTER_HEAD);
        write("main.tfcomponent.hcl", """
                stack "outer" {
                  source = "./outer"
                }
                removed {
                  for_each = toset(["x", "y"])
                  from     = stack.outer.stack.inner[each.key]
                  source   = "./inner"
                  inputs   = { name = "gone" }
                }
                """);
        DeploymentPlan plan = one.apply();
        assertThat(plan.components().stream().filter(ComponentPlan::removed).map(ComponentPlan::address))
                .containsExactlyInAnyOrder(
                        "stack.outer.stack.inner[\"x\"].component.c", "stack.outer.stack.inner[\"y\"].component.c");
        assertThat(one.instances()).containsExactly("stack.outer.component.a");
    }

    @Test
    void anEmbeddedStacksOwnRemovedBlockActsInItsInstances() throws Exception {
        applyNested();
        write("outer/main.tfcomponent.hcl", PROVIDER + """
                removed {
                  from      = component.a
                  source    = "../mod"
                  providers = { terraform = provider.terraform.main }
                }
                stack "inner" {
                  for_each = toset(["x", "y"])
                  source   = "../inner"
                  inputs   = { name = each.key }
                }
                """);
        DeploymentPlan plan = one.apply();
        assertThat(plan.components().stream().filter(ComponentPlan::removed).map(ComponentPlan::address))
                .containsExactly("stack.outer.component.a");
        assertThat(one.instances())
                .containsExactly(
                        "stack.outer.stack.inner[\"x\"].component.c", "stack.outer.stack.inner[\"y\"].component.c");
    }
}
