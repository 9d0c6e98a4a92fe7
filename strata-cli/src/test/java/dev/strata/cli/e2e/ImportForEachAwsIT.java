package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code import} block with {@code for_each} over two parameters made directly in the cloud
 * simulator, imported by the real AWS provider 5.100 into {@code aws_ssm_parameter.p[each.key]}:
 * Strata and terraform 1.11, each against a simulator of its own, plan the same changes, and after
 * the apply hold the same resources in state ({@code show -json}); the next plan has nothing to do.
 * Skipped without the AWS provider mirror; the terraform half is skipped without terraform.
 */
class ImportForEachAwsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> CREDENTIALS =
            Map.of("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY", "not-a-secret");

    private static final String CONFIG = """
            terraform {
              required_providers {
                aws = { source = "hashicorp/aws", version = "~> 5.0" }
              }
            }
            provider "aws" {
              region                      = "eu-west-1"
              skip_credentials_validation = true
              skip_requesting_account_id  = true
              skip_metadata_api_check     = true
              endpoints {
                ssm = "%s"
              }
            }
            locals {
              params = { blue = "/imp/blue", green = "/imp/green" }
            }
            import {
              for_each = local.params
              to       = aws_ssm_parameter.p[each.key]
              id       = each.value
            }
            resource "aws_ssm_parameter" "p" {
              for_each = local.params
              name     = each.value
              type     = "String"
              value    = "made elsewhere"
            }
            """;

    @TempDir
    Path st;

    @TempDir
    Path tf;

    @TempDir
    Path etc;

    @Test
    void forEachImportMatchesTerraform() throws Exception {
        Path cliConfig = AwsOnSimulator.cliConfig(etc.resolve("cli.tfrc"));
        Path terraform = Terraform.find().orElse(null);
        CliRunner strata =
                CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString()).env("HOME", etc.toString());
        CREDENTIALS.forEach(strata::env);
        try (CloudSim ours = CloudSim.start(0, null, Knobs.DEFAULT);
                CloudSim theirs = CloudSim.start(0, null, Knobs.DEFAULT)) {
            for (CloudSim sim : List.of(ours, theirs)) {
                AwsOnSimulator.putParameter(sim, AwsOnSimulator.parameter("/imp/blue", "made elsewhere", "String"));
                AwsOnSimulator.putParameter(sim, AwsOnSimulator.parameter("/imp/green", "made elsewhere", "String"));
            }
            Files.writeString(st.resolve("main.tf"), CONFIG.formatted(ours.url()));
            ok(strata.run("init"));
            String plan = ok(strata.run("apply", "-auto-approve", "-no-color")).stdout();
            assertThat(plan)
                    .contains("# aws_ssm_parameter.p[\"blue\"] will be imported")
                    .contains("# aws_ssm_parameter.p[\"green\"] will be imported")
                    .contains("Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.");
            Map<String, String> mine = resources(ok(strata.run("show", "-json")).stdout());
            assertThat(mine).containsOnlyKeys("aws_ssm_parameter.p[\"blue\"]", "aws_ssm_parameter.p[\"green\"]");
            assertThat(mine.get("aws_ssm_parameter.p[\"blue\"]")).contains("\"name\" : \"/imp/blue\"");
            CliRunner.Result again = strata.run("plan", "-no-color", "-detailed-exitcode");
            assertThat(again.exitCode()).as(again.toString()).isZero();
            assertThat(ours.ssmParameters()).containsOnlyKeys("/imp/blue", "/imp/green");

            if (terraform == null) {
                return;
            }
            Files.writeString(tf.resolve("main.tf"), CONFIG.formatted(theirs.url()));
            tf(terraform, cliConfig, "init", "-input=false");
            String theirPlan = tf(terraform, cliConfig, "apply", "-auto-approve", "-no-color", "-input=false");
            assertThat(comparable(plan)).isEqualTo(comparable(theirPlan));
            assertThat(mine).isEqualTo(resources(tf(terraform, cliConfig, "show", "-json")));
            assertThat(ours.ssmParameters()).isEqualTo(theirs.ssmParameters());
        }
    }

    /**
     * What the plans say will happen: the change headers and the summary. (The attributes of a no-op
     * import are elided by Strata where Terraform lists them all, see docs/cli.md.)
     */
    private static List<String> comparable(String plan) {
        return plan.lines()
                .filter(l -> l.startsWith("  # ") || l.startsWith("Plan: "))
                .toList();
    }

    /** The state's resources by address, sensitive values nulled (Strata's JSON never shows them). */
    private static Map<String, String> resources(String showJson) throws IOException {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode r : JSON.readTree(showJson).at("/values/root_module/resources")) {
            ObjectNode n = r.deepCopy();
            n.set("values", PlanJsonDifferentialTest.redact(r.path("values"), r.path("sensitive_values")));
            out.put(r.path("address").asText(), n.toPrettyString());
        }
        return out;
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private String tf(Path exe, Path cliConfig, String... args) throws IOException, InterruptedException {
        ProcessResult r = Terraform.at(exe, tf)
                .cliConfig(cliConfig)
                .unsetInherited("AWS_")
                .env("HOME", etc.toString())
                .env(CREDENTIALS)
                .timeout(Duration.ofMinutes(5))
                .run(args);
        assertThat(r.exitCode())
                .as(String.join(" ", args) + "\n" + r.stdout() + r.stderr())
                .isZero();
        return r.stdout();
    }
}
