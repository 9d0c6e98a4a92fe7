package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-only attributes with the real AWS provider 5.100 on the simulator, Strata against Terraform:
 * {@code aws_ssm_parameter.value_wo} set from an ephemeral variable (and the provider's {@code secret_key}
 * from another) reaches the SSM API, while the plan text shows {@code (write-only attribute)} exactly as
 * Terraform does, on create and on the update that {@code value_wo_version} triggers. The values are
 * unique markers; after plan -out, apply of the saved plan, a second apply, {@code state pull}/{@code push}
 * and {@code show}, all with trace logging to a file, no file under the working directory (state, its
 * backups, the journal, the plan file, the log) holds either marker. Skipped without the AWS provider
 * mirror or {@code terraform}.
 */
class WriteOnlyAwsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VALUE = "wo-marker-83d1c6aa";
    private static final String KEY = "key-marker-0b94e2d7";

    @TempDir
    Path st;

    @TempDir
    Path tf;

    @TempDir
    Path etc;

    private static String config(String url, int version) {
        return """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                variable "value" {
                  type      = string
                  ephemeral = true
                }
                variable "key" {
                  type      = string
                  ephemeral = true
                }
                provider "aws" {
                  access_key                  = "AKIAEXAMPLE"
                  secret_key                  = var.key
                  region                      = "eu-west-1"
                  skip_credentials_validation = true
                  skip_requesting_account_id  = true
                  skip_metadata_api_check     = true
                  endpoints {
                    ssm = "%s"
                  }
                }
                resource "aws_ssm_parameter" "w" {
                  name             = "/wo/w"
                  type             = "SecureString"
                  value_wo         = var.value
                  value_wo_version = %d
                  tags             = { team = "platform" }
                }
                resource "aws_ssm_parameter" "plain" {
                  name  = "/wo/plain"
                  type  = "String"
                  value = "plain"
                  tags  = { team = "platform" }
                }
                """.formatted(url, version);
    }

    @Test
    void writeOnlyValuesReachTheApiButNoFileAndRenderAsTerraform() throws Exception {
        Path cliConfig = AwsOnSimulator.cliConfig(etc.resolve("cli.tfrc"));
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path log = st.resolve("strata-trace.log");
        CliRunner strata = CliRunner.in(st)
                .env("TF_CLI_CONFIG_FILE", cliConfig.toString())
                .env("HOME", etc.toString())
                .env("STRATA_LOG", "trace")
                .env("STRATA_LOG_PATH", log.toString());
        String[] vars = {"-var", "value=" + VALUE, "-var", "key=" + KEY};
        try (CloudSim ours = CloudSim.start(0, null, Knobs.DEFAULT);
                CloudSim theirs = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Files.writeString(st.resolve("main.tf"), config(ours.url(), 1));
            Files.writeString(tf.resolve("main.tf"), config(theirs.url(), 1));
            ok(strata.run("init"));
            tf(terraform, cliConfig, "init", "-input=false");

            // Create, through a saved plan.
            String mine = ok(strata.run(with(vars, "plan", "-no-color", "-out=st.plan")))
                    .stdout();
            String their = tf(terraform, cliConfig, with(vars, "plan", "-no-color", "-input=false", "-out=tf.plan"));
            assertThat(AwsOnSimulator.planBlocks(mine)).isEqualTo(AwsOnSimulator.planBlocks(their));
            assertThat(mine).contains("+ value_wo         = (write-only attribute)");
            assertThat(ok(strata.run("show", "-json", "st.plan")).stdout()).doesNotContain(VALUE);
            ok(strata.run(then(with(vars, "apply", "-no-color"), "st.plan")));
            tf(terraform, cliConfig, then(with(vars, "apply", "-no-color", "-input=false"), "tf.plan"));
            assertThat(AwsOnSimulator.getParameter(ours, "/wo/w").path("Value").asText())
                    .isEqualTo(VALUE);
            assertThat(AwsOnSimulator.getParameter(theirs, "/wo/w")
                            .path("Value")
                            .asText())
                    .isEqualTo(VALUE);

            // A new value_wo_version updates the parameter; the write-only value is again only sent.
            Files.writeString(st.resolve("main.tf"), config(ours.url(), 2));
            Files.writeString(tf.resolve("main.tf"), config(theirs.url(), 2));
            mine = ok(strata.run(with(vars, "plan", "-no-color"))).stdout();
            their = tf(terraform, cliConfig, with(vars, "plan", "-no-color", "-input=false"));
            assertThat(AwsOnSimulator.planBlocks(mine)).isEqualTo(AwsOnSimulator.planBlocks(their));
            ok(strata.run(with(vars, "apply", "-no-color", "-auto-approve")));
            tf(terraform, cliConfig, with(vars, "apply", "-no-color", "-input=false", "-auto-approve"));
            assertThat(ours.ssmParameters()).isEqualTo(theirs.ssmParameters());

            JsonNode state = JSON.readTree(ok(strata.run("state", "pull")).stdout());
            JsonNode w = null;
            for (JsonNode r : state.path("resources")) {
                if (r.path("name").asText().equals("w")) {
                    w = r.at("/instances/0/attributes");
                }
            }
            assertThat(w).isNotNull();
            assertThat(w.has("value_wo")).isTrue();
            assertThat(w.get("value_wo").isNull()).isTrue();
            Files.writeString(st.resolve("pulled.tfstate"), state.toString());
            ok(strata.run("state", "push", "-force", "pulled.tfstate"));
            assertThat(ok(strata.run("show", "-no-color")).stdout())
                    .containsPattern("value_wo +=  ?\\(write-only attribute\\)");
        }
        assertThat(Files.size(log)).isPositive();
        List<Path> holding = new ArrayList<>(EphemeralValuesDifferentialTest.filesContaining(st, VALUE));
        holding.addAll(EphemeralValuesDifferentialTest.filesContaining(st, KEY));
        assertThat(holding).as("files holding a write-only or ephemeral value").isEmpty();
    }

    private static String[] with(String[] vars, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(vars));
        return all.toArray(String[]::new);
    }

    private static String[] then(String[] args, String positional) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add(positional);
        return all.toArray(String[]::new);
    }

    private String tf(Path exe, Path cliConfig, String... args) throws IOException, InterruptedException {
        return Terraform.at(exe, tf)
                .cliConfig(cliConfig)
                .unsetInherited("AWS_")
                .env("HOME", etc.toString())
                .ok(args);
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
