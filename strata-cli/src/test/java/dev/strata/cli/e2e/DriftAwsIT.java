package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata drift} with the real AWS provider 5.100 on the simulator: an SSM parameter changed
 * through the simulator's API (not through Strata) is reported per attribute, {@code -ignore} leaves
 * one attribute out, no lock is taken and the state is unchanged byte for byte; the {@code tags = {}}
 * the provider reads back for an untagged parameter is not reported. Skipped without the AWS provider
 * mirror.
 */
class DriftAwsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path st;

    @TempDir
    Path etc;

    @Test
    void attributesChangedThroughTheApiAreReportedAndIgnoredOnesLeftOut() throws Exception {
        Path cliConfig = AwsOnSimulator.cliConfig(etc.resolve("cli.tfrc"));
        CliRunner strata = CliRunner.in(st)
                .width(200)
                .env("TF_CLI_CONFIG_FILE", cliConfig.toString())
                .env("HOME", etc.toString());
        try (CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Files.writeString(st.resolve("main.tf"), """
                    provider "aws" {
                      access_key                  = "AKIAEXAMPLE"
                      secret_key                  = "secret"
                      region                      = "eu-west-1"
                      skip_credentials_validation = true
                      skip_requesting_account_id  = true
                      skip_metadata_api_check     = true
                      endpoints {
                        ssm = "%s"
                      }
                    }
                    resource "aws_ssm_parameter" "p" {
                      name           = "/drift/p"
                      type           = "String"
                      insecure_value = "original"
                      description    = "as configured"
                      # No tags: the provider reads back tags = {} for the stored null, which is no drift.
                    }
                    """.formatted(sim.url()));
            ok(strata.run("init"));
            ok(strata.run("apply", "-auto-approve", "-no-color"));
            CliRunner.Result clean = strata.run("drift", "-no-color");
            assertThat(clean.exitCode()).as(clean.toString()).isZero();

            AwsOnSimulator.putParameter(
                    sim,
                    AwsOnSimulator.parameter("/drift/p", "changed outside", "String")
                            .put("Description", "edited in the console")
                            .put("Overwrite", true));
            byte[] state = Files.readAllBytes(st.resolve("terraform.tfstate"));

            CliRunner.Result all = strata.run("drift", "-json");
            assertThat(all.exitCode()).as(all.toString()).isEqualTo(2);
            JsonNode report = JSON.readTree(all.stdout());
            assertThat(report.get("drifted").asBoolean()).isTrue();
            JsonNode object = report.get("objects").get(0);
            assertThat(object.get("address").asText()).isEqualTo("aws_ssm_parameter.p");
            assertThat(object.get("action").asText()).isEqualTo("update");
            List<String> paths = new ArrayList<>();
            for (JsonNode a : object.get("attributes")) {
                paths.add(a.get("path").asText());
                if (a.get("path").asText().equals("description")) {
                    assertThat(a.get("before").asText()).isEqualTo("as configured");
                    assertThat(a.get("after").asText()).isEqualTo("edited in the console");
                }
                if (a.get("path").asText().equals("insecure_value")) {
                    assertThat(a.get("after").asText()).isEqualTo("changed outside");
                }
            }
            assertThat(paths).contains("description", "insecure_value", "version");

            CliRunner.Result ignoring = strata.run("drift", "-no-color", "-ignore=aws_ssm_parameter.version");
            assertThat(ignoring.exitCode()).as(ignoring.toString()).isEqualTo(2);
            assertThat(ignoring.stdout())
                    .contains("# aws_ssm_parameter.p has changed")
                    .contains("~ description: \"as configured\" -> \"edited in the console\"")
                    .doesNotContain("~ version:");
            assertThat(st.resolve(".terraform.tfstate.lock.info")).doesNotExist();
            assertThat(Files.readAllBytes(st.resolve("terraform.tfstate")))
                    .as("state unchanged byte for byte")
                    .isEqualTo(state);
            assertThat(st.resolve("terraform.tfstate.backup")).doesNotExist();
        }
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
