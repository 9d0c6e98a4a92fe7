package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata validate} end to end on configurations in a temporary directory. */
class ValidateCommandTest {
    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        TestFiles.write(dir, name, text);
    }

    @Test
    void validConfigurationSaysSuccess() throws IOException {
        write("main.tf", """
                module "net" {
                  source = "./modules/net"
                  cidr   = "10.0.0.0/16"
                }
                output "id" { value = module.net.id }
                """);
        write("modules/net/main.tf", """
                variable "cidr" { type = string }
                resource "terraform_data" "n" { input = var.cidr }
                output "id" { value = terraform_data.n.id }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("validate");
        assertThat(r.stderr()).isEmpty();
        assertThat(r.stdout()).isEqualTo("Success! The configuration is valid.\n\n");
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void anUnreadableLockFileFailsEvenWithoutProviders() throws IOException {
        // As terraform validate: the lock file is read whatever the configuration requires.
        write("main.tf", "output \"a\" {\n  value = 1\n}\n");
        write(".terraform.lock.hcl", "provider \"x\" {\n  version = \n");
        CliRunner.Result r = CliRunner.in(dir).run("validate", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).doesNotContain("Success!");
        assertThat(r.stderr()).contains(".terraform.lock.hcl");
    }

    /** As terraform 1.11 prints it, the detail wrapped at 77 columns. */
    @Test
    void errorsAreRenderedWithSnippetsOnStderr() throws IOException {
        write("main.tf", """
                resource "terraform_data" "counted" {
                  count = 2
                }
                output "x" {
                  value = terraform_data.counted.id
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("validate");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("""

                Error: Missing resource instance key

                  on main.tf line 5, in output "x":
                   5:   value = terraform_data.counted.id

                Because terraform_data.counted has "count" set, its attributes must be
                accessed on specific instances.

                For example, to correlate with indices of a referring resource, use:
                    terraform_data.counted[count.index]
                """);
    }

    /** The expected document is what terraform 1.11.4 prints for the same files. */
    @Test
    void jsonMatchesTerraformByteForByte() throws IOException {
        write("main.tf", """
                resource "terraform_data" "counted" {
                  count = 2
                }
                output "x" {
                  value = terraform_data.counted.id
                }
                output "y" {
                  value = var.nope
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("validate", "-json");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEqualTo("""
                {
                  "format_version": "1.0",
                  "valid": false,
                  "error_count": 2,
                  "warning_count": 0,
                  "diagnostics": [
                    {
                      "severity": "error",
                      "summary": "Missing resource instance key",
                      "detail": "Because terraform_data.counted has \\"count\\" set, its attributes must be accessed on specific instances.\\n\\nFor example, to correlate with indices of a referring resource, use:\\n    terraform_data.counted[count.index]",
                      "range": {
                        "filename": "main.tf",
                        "start": {
                          "line": 5,
                          "column": 11,
                          "byte": 75
                        },
                        "end": {
                          "line": 5,
                          "column": 33,
                          "byte": 97
                        }
                      },
                      "snippet": {
                        "context": "output \\"x\\"",
                        "code": "  value = terraform_data.counted.id",
                        "start_line": 5,
                        "highlight_start_offset": 10,
                        "highlight_end_offset": 32,
                        "values": []
                      }
                    },
                    {
                      "severity": "error",
                      "summary": "Reference to undeclared input variable",
                      "detail": "An input variable with the name \\"nope\\" has not been declared. This variable can be declared with a variable \\"nope\\" {} block.",
                      "range": {
                        "filename": "main.tf",
                        "start": {
                          "line": 8,
                          "column": 11,
                          "byte": 126
                        },
                        "end": {
                          "line": 8,
                          "column": 19,
                          "byte": 134
                        }
                      },
                      "snippet": {
                        "context": "output \\"y\\"",
                        "code": "  value = var.nope",
                        "start_line": 8,
                        "highlight_start_offset": 10,
                        "highlight_end_offset": 18,
                        "values": []
                      }
                    }
                  ]
                }
                """);
    }

    @Test
    void emptyDirectoryIsValidAsInTerraform() {
        CliRunner.Result r = CliRunner.in(dir).run("validate", "-json");
        assertThat(r.stdout()).isEqualTo("""
                {
                  "format_version": "1.0",
                  "valid": true,
                  "error_count": 0,
                  "warning_count": 0,
                  "diagnostics": []
                }
                """);
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void warningsStillSucceed() throws IOException {
        write("main.tf", "provider \"random\" { version = \"1.0\" }\n");
        CliRunner.Result r = CliRunner.in(dir).run("validate");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout())
                .contains("Warning: Version constraints inside provider configuration blocks are " + "deprecated")
                .endsWith("Success! The configuration is valid, but there were some validation "
                        + "warnings\nas shown above.\n\n");
    }

    @Test
    void remoteModulesAreNotInstalled() throws IOException {
        write("main.tf", "module \"vpc\" { source = \"terraform-aws-modules/vpc/aws\" }\n");
        CliRunner.Result r = CliRunner.in(dir).run("validate");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Module not installed").contains("Run \"strata init\"");
    }

    @Test
    void providersThatAreNotInstalledAreErrorsAsInTerraform() throws IOException {
        write("main.tf", """
                resource "aws_instance" "web" {}
                data "google_project" "p" {}
                resource "terraform_data" "x" { nope = 1 }
                """);
        CliRunner.Result r = CliRunner.in(dir).width(200).run("validate", "-json");
        assertThat(r.exitCode()).isEqualTo(1);
        // Without every provider Terraform does not walk the configuration, so nothing else is reported.
        assertThat(r.stdout())
                .contains("\"error_count\": 2")
                .contains("requires provider registry.terraform.io/hashicorp/aws, but that provider isn't available")
                .contains("requires provider registry.terraform.io/hashicorp/google, but that provider isn't")
                .doesNotContain("nope");
    }

    @Test
    void resourcesAreCheckedAgainstTheirProvidersSchema() throws IOException {
        write("main.tf", """
                resource "terraform_data" "ok" {
                  input = "x"
                }
                resource "terraform_data" "bad" {
                  inptu = "x"
                }
                resource "terraform_data" "typed" {
                  triggers_replace = "fine, any type"
                }
                resource "terraform_data" "needs_bad" {
                  input = terraform_data.bad.output
                  also_bad = 1
                }
                resource "random_nope" "r" {}
                resource "random_integer" "missing" {
                  min = 1
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).width(200).run("validate");
        assertThat(r.exitCode()).isEqualTo(1);
        // needs_bad depends on a failed resource, so it is skipped, as Terraform's walk does.
        assertThat(r.stderr().split("Error: ", -1)).hasSize(4);
        assertThat(r.stderr())
                .contains("An argument named \"inptu\" is not expected here. Did you mean \"input\"?")
                .doesNotContain("also_bad")
                .contains("The provider hashicorp/random does not support resource type \"random_nope\".")
                .contains("The argument \"max\" is required, but no definition was found.");
    }

    @Test
    void eachModuleIsCheckedOncePerCallAndOnlyFailedInputsSkipTheirUsers() throws IOException {
        write("m/main.tf", """
                variable "x" { default = null }
                resource "terraform_data" "a" {
                  bogus = 1
                }
                resource "terraform_data" "b" {
                  input = var.x
                  bogus2 = 2
                }
                """);
        write("main.tf", """
                resource "terraform_data" "r" {
                  nope = 1
                }
                module "one" {
                  source = "./m"
                  x = terraform_data.r.id
                }
                module "two" {
                  source = "./m"
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).width(200).run("validate");
        assertThat(r.exitCode()).isEqualTo(1);
        // As terraform 1.11: a twice (once per call), b only under module.two (module.one's x failed), r.
        assertThat(r.stderr().split("Error: Unsupported argument", -1)).hasSize(5);
        assertThat(r.stderr().split("bogus = 1", -1)).hasSize(3);
        assertThat(r.stderr().split("bogus2 = 2", -1)).hasSize(2);
    }
}
