package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code local-exec} provisioners on {@code terraform_data} against terraform 1.11, through the CLI: the
 * lines they print (prefix, "Executing:", quiet, sensitive suppression, output of both streams), the
 * error a failing one gives, the exit code, the tainted object and the next plan's replacement, and
 * destroy-time provisioners. Skipped without {@code terraform}.
 */
class ProvisionerDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tf;

    @TempDir
    Path st;

    private static final String CONFIG = """
            variable "secret" {
              default   = "s3cr3t"
              sensitive = true
            }
            resource "terraform_data" "x" {
              input = "a"
              provisioner "local-exec" {
                command     = "echo hello $FOO; echo to-stderr >&2; printf 'tab\\there \\"q\\"'"
                environment = { FOO = "bar" }
              }
              provisioner "local-exec" {
                command     = "pwd | sed 's|.*/||'; echo ${self.input}"
                interpreter = ["/bin/sh", "-c"]
                working_dir = "sub"
              }
              provisioner "local-exec" {
                command = "echo one; echo ${var.secret}"
              }
              provisioner "local-exec" {
                command = "echo quiet"
                quiet   = true
              }
              provisioner "local-exec" {
                command    = "echo failing; exit 2"
                on_failure = continue
              }
              provisioner "local-exec" {
                when    = destroy
                command = "echo bye ${self.input}"
              }
            }
            """;

    private static final String FAILING = """
            resource "terraform_data" "y" {
              input = "b"
              provisioner "local-exec" {
                command = "echo partial; exit 3"
              }
            }
            """;

    /** The lines provisioners print, in order. */
    private static List<String> provisionerLines(String out) {
        return out.lines()
                .filter(l -> l.contains("Provisioning with") || l.contains(" (local-exec): "))
                .toList();
    }

    private static void write(Path dir, String main) throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("main.tf"), main);
    }

    @Test
    void localExecPrintsWhatTerraformPrints() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Map<String, String> env = Map.of("TF_IN_AUTOMATION", "1");
        write(tf, CONFIG);
        write(st, CONFIG);
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        String theirs = Terraform.at(terraform, tf).env(env).ok("apply", "-auto-approve", "-input=false", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("apply", "-auto-approve", "-no-color");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(provisionerLines(ours.stdout())).isNotEmpty().isEqualTo(provisionerLines(theirs));
        assertThat(ours.stdout() + ours.stderr()).doesNotContain("s3cr3t");
        String theirDestroy =
                Terraform.at(terraform, tf).env(env).ok("destroy", "-auto-approve", "-input=false", "-no-color");
        CliRunner.Result ourDestroy = CliRunner.in(st).run("destroy", "-auto-approve", "-no-color");
        assertThat(ourDestroy.exitCode()).as(ourDestroy.toString()).isZero();
        assertThat(provisionerLines(ourDestroy.stdout()))
                .containsExactly(
                        "terraform_data.x: Provisioning with 'local-exec'...",
                        "terraform_data.x (local-exec): Executing: [\"/bin/sh\" \"-c\" \"echo bye a\"]",
                        "terraform_data.x (local-exec): bye a")
                .isEqualTo(provisionerLines(theirDestroy));
    }

    /** The provision_* messages of a {@code -json} stream, without what differs by run or tool. */
    private static List<JsonNode> provisionMessages(String stream) throws Exception {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (String line : stream.lines().toList()) {
            if (!line.startsWith("{")) {
                continue;
            }
            JsonNode m = JSON.readTree(line);
            if (m.path("type").asText().startsWith("provision_")) {
                com.fasterxml.jackson.databind.node.ObjectNode o = (com.fasterxml.jackson.databind.node.ObjectNode) m;
                o.remove("@timestamp");
                o.remove("@module");
                out.add(o);
            }
        }
        return out;
    }

    @Test
    void jsonProvisionMessagesMatchTerraform() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        String config = """
                resource "terraform_data" "x" {
                  provisioner "local-exec" {
                    command = "echo hi"
                  }
                  provisioner "local-exec" {
                    command    = "echo no; exit 1"
                    on_failure = continue
                  }
                }
                """;
        write(tf, config);
        write(st, config);
        Map<String, String> env = Map.of("TF_IN_AUTOMATION", "1");
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        String theirs = Terraform.at(terraform, tf).env(env).ok("apply", "-auto-approve", "-input=false", "-json");
        CliRunner.Result ours = CliRunner.in(st).run("apply", "-auto-approve", "-json");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(provisionMessages(ours.stdout())).hasSize(8).isEqualTo(provisionMessages(theirs));
    }

    @Test
    void aFailingProvisionerFailsTheApplyAndTaintsAsInTerraform() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Map<String, String> env = Map.of("TF_IN_AUTOMATION", "1");
        write(tf, FAILING);
        write(st, FAILING);
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        ProcessResult theirs =
                Terraform.at(terraform, tf).env(env).run("apply", "-auto-approve", "-input=false", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("apply", "-auto-approve", "-no-color");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(provisionerLines(ours.stdout())).isEqualTo(provisionerLines(theirs.stdout()));
        // The same error, at the same block, with the same detail.
        for (String line : List.of(
                "Error: local-exec provisioner error",
                "on main.tf line 3, in resource \"terraform_data\" \"y\":",
                "Error running command 'echo partial; exit 3': exit status 3. Output: partial")) {
            assertThat(theirs.stderr()).contains(line);
            assertThat(ours.stderr()).contains(line);
        }
        JsonNode theirState = JSON.readTree(tf.resolve("terraform.tfstate").toFile());
        JsonNode ourState = JSON.readTree(st.resolve("terraform.tfstate").toFile());
        assertThat(ourState.at("/resources/0/instances/0/status").asText())
                .isEqualTo(theirState.at("/resources/0/instances/0/status").asText())
                .isEqualTo("tainted");
        String theirPlan = Terraform.at(terraform, tf).env(env).ok("plan", "-input=false", "-no-color");
        CliRunner.Result ourPlan = CliRunner.in(st).run("plan", "-no-color");
        String replaced = "# terraform_data.y is tainted, so must be replaced";
        assertThat(theirPlan).contains(replaced);
        assertThat(ourPlan.stdout()).contains(replaced);
    }
}
