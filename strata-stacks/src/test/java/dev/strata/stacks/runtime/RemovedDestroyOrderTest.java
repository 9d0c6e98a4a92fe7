package dev.strata.stacks.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.testing.PostgresServer;
import dev.strata.testing.StackTexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removed components are destroyed in reverse dependency order, from the dependencies saved with
 * their state when they were applied (the configuration no longer has them).
 */
class RemovedDestroyOrderTest {
    @TempDir
    Path dir;

    // Each instance logs its name when destroyed; "b" (which depends on "a") waits a second first, so
    // destroying both at once would log "a" before "b".
    private static final String MODULE = """
            variable "name" {
              type = string
            }
            variable "log" {
              type = string
            }
            variable "delay" {
              type = number
            }
            resource "terraform_data" "this" {
              input = { name = var.name, log = var.log, delay = var.delay }
              provisioner "local-exec" {
                when    = destroy
                command = "sleep ${self.input.delay}; echo ${self.input.name} >> ${self.input.log}"
              }
            }
            output "id" {
              value = terraform_data.this.id
            }
            """;

    private static final String PROVIDER = StackTexts.TERRAFORM_PROVIDER;

    /** The deployment run; its state in local files unless a test keeps it in PostgreSQL. */
    private DeploymentOne one;

    @Test
    void removedComponentsAreDestroyedAfterTheRemovedOnesThatDependedOnThem() throws Exception {
        one = DeploymentOne.local(dir);
        removedComponentsAreDestroyedInReverseOrder();
    }

    @Test
    void theDependenciesAreSavedInPostgresqlToo() throws Exception {
        String url = PostgresServer.trusting().url();
        Result<StackStorage> pg = StackStorage.connect(
                dir,
                new StackStorage.Choice(
                        "pg",
                        new TreeMap<>(Map.of(
                                "conn_str",
                                url,
                                "schema_name",
                                "strata_removed_order_"
                                        + ProcessHandle.current().pid()))),
                Map.of(),
                "1.11.0");
        assertThat(pg.hasErrors()).as(pg.diagnostics().toString()).isFalse();
        one = new DeploymentOne(dir, pg.value(), DeploymentOne.path());
        removedComponentsAreDestroyedInReverseOrder();
    }

    private void removedComponentsAreDestroyedInReverseOrder() throws Exception {
        Path log = dir.resolve("destroyed.log");
        Files.createDirectories(dir.resolve("mod"));
        Files.writeString(dir.resolve("mod/main.tf"), MODULE);
        Files.writeString(dir.resolve("main.tfdeploy.hcl"), StackTexts.ONE_DEPLOYMENT);
        Files.writeString(dir.resolve("main.tfcomponent.hcl"), PROVIDER + """
                component "a" {
                  source    = "./mod"
                  inputs    = { name = "a", log = "%1$s", delay = 0 }
                  providers = { terraform = provider.terraform.main }
                }
                component "b" {
                  source    = "./mod"
                  inputs    = { name = "b-${component.a.id}", log = "%1$s", delay = 1 }
                  providers = { terraform = provider.terraform.main }
                }
                """.formatted(log));
        one.apply();

        // The dependency is saved with b's part of the state.
        try (var s = one.open()) {
            assertThat(RecordedDependencies.of(s.componentState("component.b").value()))
                    .containsExactly("component.a");
            assertThat(RecordedDependencies.of(s.componentState("component.a").value()))
                    .isEmpty();
        }

        Files.writeString(dir.resolve("main.tfcomponent.hcl"), PROVIDER + """
                removed {
                  from      = component.a
                  source    = "./mod"
                  providers = { terraform = provider.terraform.main }
                }
                removed {
                  from      = component.b
                  source    = "./mod"
                  providers = { terraform = provider.terraform.main }
                }
                """);
        one.apply();
        assertBDestroyedBeforeA(log);
    }

    @Test
    void aRemovedEmbeddedStackIsDestroyedInReverseDependencyOrder() throws Exception {
        one = DeploymentOne.local(dir);
        Path log = dir.resolve("destroyed.log");
        Files.createDirectories(dir.resolve("mod"));
        Files.writeString(dir.resolve("mod/main.tf"), MODULE);
        Files.createDirectories(dir.resolve("inner"));
        Files.writeString(dir.resolve("inner/main.tfcomponent.hcl"), PROVIDER + """
                variable "log" {
                  type = string
                }
                component "a" {
                  source    = "../mod"
                  inputs    = { name = "a", log = var.log, delay = 0 }
                  providers = { terraform = provider.terraform.main }
                }
                component "b" {
                  source    = "../mod"
                  inputs    = { name = "b-${component.a.id}", log = var.log, delay = 1 }
                  providers = { terraform = provider.terraform.main }
                }
                """);
        Files.writeString(dir.resolve("main.tfdeploy.hcl"), StackTexts.ONE_DEPLOYMENT);
        Files.writeString(dir.resolve("main.tfcomponent.hcl"), """
                stack "inner" {
                  source = "./inner"
                  inputs = { log = "%s" }
                }
                """.formatted(log));
        one.apply();
        try (var s = one.open()) {
            assertThat(s.componentInstances().value())
                    .containsExactly("stack.inner.component.a", "stack.inner.component.b");
            assertThat(RecordedDependencies.of(
                            s.componentState("stack.inner.component.b").value()))
                    .containsExactly("stack.inner.component.a");
        }

        Files.writeString(dir.resolve("main.tfcomponent.hcl"), """
                removed {
                  from   = stack.inner
                  source = "./inner"
                  inputs = { log = "%s" }
                }
                """.formatted(log));
        one.apply();
        assertBDestroyedBeforeA(log);
    }

    /** The log names "b" (the instance that depended on "a") first, and the deployment has no instances left. */
    private void assertBDestroyedBeforeA(Path log) throws IOException {
        List<String> order = Files.readAllLines(log).stream()
                .map(l -> l.replaceAll("-.*", ""))
                .toList();
        assertThat(order).containsExactly("b", "a");
        assertThat(one.instances()).isEmpty();
    }
}
