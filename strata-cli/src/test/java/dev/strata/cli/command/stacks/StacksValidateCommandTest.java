package dev.strata.cli.command.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata stacks validate} end to end, through the CLI's dispatch, on files in a temporary directory. */
class StacksValidateCommandTest {
    @TempDir
    Path dir;

    private void stack(String components, String deployments) throws IOException {
        TestFiles.write(dir, "modules/app/main.tf", """
                variable "name" {
                  type = string
                }
                resource "terraform_data" "x" {
                  input = var.name
                }
                output "id" {
                  value = terraform_data.x.id
                }
                """);
        TestFiles.write(dir, "main.tfcomponent.hcl", components);
        TestFiles.write(dir, "deployments.tfdeploy.hcl", deployments);
    }

    private static final String VALID = """
            variable "name" {
              type = string
            }

            component "app" {
              source = "./modules/app"
              inputs = {
                name = var.name
              }
            }

            output "id" {
              type  = string
              value = component.app.id
            }
            """;

    @Test
    void aValidStackSucceeds() throws IOException {
        stack(VALID, "deployment \"dev\" {\n  inputs = { name = \"dev\" }\n}\n");
        CliRunner.Result r = CliRunner.in(dir).run("stacks", "validate");
        assertThat(r.stderr()).isEmpty();
        assertThat(r.stdout()).isEqualTo("Success! The configuration is valid.\n\n");
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void problemsAreDiagnosticsWithTheSourceAndExitOne() throws IOException {
        stack(
                VALID.replace("name = var.name", "name = var.nmae"),
                "deployment \"dev\" {\n  inputs = { name = \"dev\", zone = 1 }\n}\n");
        CliRunner.Result r = CliRunner.in(dir).run("stacks", "validate");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).doesNotContain("Success!");
        assertThat(r.stderr())
                .contains("Error: Reference to undeclared input variable")
                .contains("on main.tfcomponent.hcl line 8, in component \"app\":")
                .contains("name = var.nmae")
                .contains("There is no variable \"nmae\" block declared in this stack.")
                .contains("Error: Unsupported input variable")
                .contains("on deployments.tfdeploy.hcl line 2, in deployment \"dev\":");
    }

    @Test
    void componentResourcesAreCheckedAgainstTheProviderSchema() throws IOException {
        stack(VALID, "deployment \"dev\" {\n  inputs = { name = \"dev\" }\n}\n");
        TestFiles.write(dir, "modules/app/main.tf", """
                variable "name" {
                  type = string
                }
                resource "terraform_data" "x" {
                  inptu = var.name
                }
                output "id" {
                  value = terraform_data.x.id
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("stacks", "validate");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Unsupported argument")
                .contains("on modules/app/main.tf line 5, in resource \"terraform_data\" \"x\":")
                .contains("An argument named \"inptu\" is not expected here.");
    }

    @Test
    void jsonIsTheValidateDocument() throws IOException {
        stack(
                VALID.replace("value = component.app.id", "value = component.web.id"),
                "deployment \"dev\" {\n  inputs = { name = \"dev\" }\n}\n");
        CliRunner.Result r = CliRunner.in(dir).run("stacks", "validate", "-json");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout())
                .startsWith(
                        "{\n  \"format_version\": \"1.0\",\n  \"valid\": false,\n  \"error_count\": 1,\n  \"warning_count\": 0,")
                .contains("\"summary\": \"Reference to undeclared component\"")
                .contains("\"filename\": \"main.tfcomponent.hcl\"");
    }

    @Test
    void unknownSubcommandsAndArgumentsAreErrors() throws IOException {
        stack(VALID, "deployment \"dev\" {\n  inputs = { name = \"dev\" }\n}\n");
        assertThat(CliRunner.in(dir).run("stacks", "validate", "extra").exitCode())
                .isEqualTo(1);
        CliRunner.Result r = CliRunner.in(dir).run("stacks", "frobnicate");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Unknown subcommand \"stacks frobnicate\"");
    }
}
