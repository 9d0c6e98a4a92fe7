package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A module's {@code provider_meta "aws"} block with the {@code user_agent} argument of the AWS
 * provider 6.x, which 5.100 does not declare, as the corpus modules write it: {@code terraform
 * validate} accepts it (validation does not look at provider_meta), and {@code terraform plan} reports
 * "Unsupported argument" at the argument once for every resource instance and data source of the
 * module that uses the provider, and fails. Strata must do the same (same diagnostics, as a multiset:
 * Terraform's walk reports them in no fixed order; same exit codes). Both plan against a local
 * {@link CloudSim}. Skipped without terraform or the AWS provider mirror.
 */
class ProviderMetaDifferentialIT {
    @AutoClose
    private static CloudSim sim;

    @TempDir
    Path work;

    @BeforeAll
    static void startSimulator() throws IOException {
        sim = CloudSim.start(0, null, Knobs.DEFAULT);
    }

    @Test
    void anArgumentTheProvidersMetaSchemaLacksFailsThePlanForEachInstanceAsInTerraform() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        Path cliConfig = AwsExamples.cliConfig(work);
        String config = """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = ">= 5.0" }
                  }
                  provider_meta "aws" {
                    user_agent = [
                      "github.com/example/terraform-aws-example"
                    ]
                  }
                }
                provider "aws" {
                  region = "eu-west-1"
                }
                resource "aws_vpc" "main" {
                  count      = 2
                  cidr_block = "10.${count.index}.0.0/16"
                }
                data "aws_availability_zones" "all" {}
                module "child" {
                  source = "./child"
                }
                """;
        // The child has no provider_meta block of its own: the root's does not apply to it.
        String child = "resource \"aws_vpc\" \"inner\" {\n  cidr_block = \"10.9.0.0/16\"\n}\n";
        Path tf = Files.createDirectories(work.resolve("tf"));
        Path st = Files.createDirectories(work.resolve("st"));
        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("main.tf"), config);
            Files.createDirectories(d.resolve("child"));
            Files.writeString(d.resolve("child/main.tf"), child);
            AwsExamples.simulatorOverride(d, sim.url());
        }
        assertThat(AwsExamples.terraform(terraform, tf, cliConfig, "init", "-input=false", "-no-color")
                        .ok())
                .isTrue();
        CliRunner strata = CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
        assertThat(strata.run("init", "-input=false").exitCode()).isZero();

        AwsExamples.Run tfValidate = AwsExamples.terraform(terraform, tf, cliConfig, "validate", "-json", "-no-color");
        CliRunner.Result stValidate = strata.run("validate", "-json");
        assertThat(tfValidate.exitCode()).isZero();
        assertThat(stValidate.exitCode()).as(stValidate.stdout()).isZero();
        assertThat(diagnostics(stValidate.stdout()))
                .isEqualTo(diagnostics(tfValidate.stdout()))
                .isEmpty();

        AwsExamples.Run tfPlan = AwsExamples.terraform(terraform, tf, cliConfig, "plan", "-json", "-input=false");
        CliRunner.Result stPlan = strata.run("plan", "-json", "-input=false");
        List<String> theirs = diagnostics(tfPlan.stdout());
        assertThat(theirs)
                .hasSize(3)
                .allMatch(d -> d.startsWith("error: Unsupported argument: An argument named "
                        + "\"user_agent\" is not expected here. @ main.tf:6:5-6:15"));
        assertThat(diagnostics(stPlan.stdout())).as(stPlan.stdout()).containsExactlyInAnyOrderElementsOf(theirs);
        assertThat(tfPlan.exitCode()).isEqualTo(1);
        assertThat(stPlan.exitCode()).isEqualTo(1);
    }

    /**
     * What a provider finds wrong with an object, as Terraform shows it: "with ADDRESS," above the place, the
     * argument the provider names or else the block's body (its context the block), an empty line after the
     * snippet though there is no detail, and "address" in JSON; text and JSON identical to terraform's.
     */
    @Test
    void aProvidersFindingNamesItsObjectAndPlaceAsInTerraform() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        Path cliConfig = AwsExamples.cliConfig(work);
        for (String resource : List.of(
                "resource \"aws_vpc\" \"v\" {\n  cidr_block = \"not-a-cidr\"\n}\n",
                "resource \"aws_security_group\" \"g\" {\n  ingress {\n    from_port   = 0\n    to_port     = 0\n"
                        + "    protocol    = \"-1\"\n    cidr_blocks = [\"bad\"]\n  }\n}\n")) {
            Path dir = Files.createDirectories(work.resolve("r" + resource.hashCode()));
            Path tf = Files.createDirectories(dir.resolve("tf"));
            Path st = Files.createDirectories(dir.resolve("st"));
            for (Path d : List.of(tf, st)) {
                Files.writeString(d.resolve("main.tf"), AwsExamples.OFFLINE_AWS_PROVIDER + resource);
            }
            assertThat(AwsExamples.terraform(terraform, tf, cliConfig, "init", "-input=false", "-no-color")
                            .ok())
                    .isTrue();
            CliRunner strata = CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
            assertThat(strata.run("init", "-input=false").exitCode()).isZero();
            AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "validate", "-no-color");
            CliRunner.Result ours = strata.run("validate", "-no-color");
            assertThat(theirs.stderr()).contains("  with aws_");
            assertThat(ours.exitCode()).isEqualTo(1).isEqualTo(theirs.exitCode());
            assertThat(ours.stderr()).isEqualTo(theirs.stderr());
            AwsExamples.Run theirJson = AwsExamples.terraform(terraform, tf, cliConfig, "validate", "-json");
            assertThat(AwsExamples.JSON.readTree(strata.run("validate", "-json").stdout()))
                    .isEqualTo(AwsExamples.JSON.readTree(theirJson.stdout()));
        }
    }

    /**
     * Each diagnostic as severity, summary, detail and range, from {@code validate -json}'s document or
     * {@code plan -json}'s message lines.
     */
    private static List<String> diagnostics(String json) throws IOException {
        List<JsonNode> found = new ArrayList<>();
        String trimmed = json.strip();
        JsonNode first = AwsExamples.JSON.readTree(trimmed);
        if (first.has("diagnostics")) {
            first.path("diagnostics").forEach(found::add);
        } else {
            for (String line : trimmed.lines().toList()) {
                JsonNode n = AwsExamples.JSON.readTree(line);
                if (n.path("type").asText().equals("diagnostic")) {
                    found.add(n.path("diagnostic"));
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (JsonNode d : found) {
            JsonNode r = d.path("range");
            out.add(d.path("severity").asText() + ": " + d.path("summary").asText() + ": "
                    + d.path("detail").asText()
                    + (r.isMissingNode()
                            ? ""
                            : " @ " + r.path("filename").asText() + ":" + r.at("/start/line") + ":"
                                    + r.at("/start/column") + "-" + r.at("/end/line") + ":" + r.at("/end/column")));
        }
        return out;
    }
}
