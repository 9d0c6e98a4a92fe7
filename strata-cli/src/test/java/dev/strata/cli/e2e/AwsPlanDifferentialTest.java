package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real AWS provider (5.100.0, from the filesystem mirror) through Strata's init, plan and show
 * -json, against the same configuration under the real terraform: same resource changes (actions,
 * after, after_unknown) and output values. Works offline (skip_* settings, dummy keys, data sources
 * that need no API). Skipped when the provider or terraform is absent.
 */
class AwsPlanDifferentialTest {
    private static final ObjectMapper JSON = AwsExamples.JSON;

    @TempDir
    Path tf;

    @TempDir
    Path st;

    private static final String CONFIG = AwsExamples.OFFLINE_AWS_PROVIDER + """
            data "aws_partition" "current" {}
            data "aws_region" "current" {}
            data "aws_iam_policy_document" "read" {
              statement {
                effect    = "Allow"
                actions   = ["ssm:GetParameter"]
                resources = ["arn:${data.aws_partition.current.partition}:ssm:${data.aws_region.current.name}:123456789012:parameter/app/*"]
              }
            }
            resource "aws_ssm_parameter" "setting" {
              count = 2
              name  = "/app/setting-${count.index}"
              type  = "String"
              value = "v${count.index}"
              tags  = { Team = "platform" }
            }
            output "policy" { value = data.aws_iam_policy_document.read.json }
            output "region" { value = data.aws_region.current.name }
            """;

    @Test
    void planOfAwsResourcesAndDataSourcesMatchesTerraform() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        Path cliConfig = AwsExamples.cliConfig(st);
        Files.writeString(tf.resolve("main.tf"), CONFIG);
        Files.writeString(st.resolve("main.tf"), CONFIG);

        JsonNode[] plans = plans(terraform, cliConfig);
        JsonNode theirs = plans[0];
        JsonNode ours = plans[1];

        assertThat(changes(ours)).isEqualTo(changes(theirs));
        assertThat(ours.at("/planned_values/outputs/policy/value"))
                .isEqualTo(theirs.at("/planned_values/outputs/policy/value"));
        assertThat(ours.at("/planned_values/outputs/region/value").asText()).isEqualTo("eu-west-1");
    }

    /**
     * The configuration section with a real provider's schemas: nested blocks (single as an object, lists as
     * arrays, {@code dynamic} left out), a list of objects written as blocks (a constant of the attribute's type,
     * or its references), schema versions, provider configurations with their arguments and normalized version
     * constraints, and the keys module resources use (inherited, passed under another name, a legacy module's
     * own block, configuration aliases).
     */
    @Test
    void configurationMatchesTerraform() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        Path cliConfig = AwsExamples.cliConfig(st);
        Map<String, String> files = Map.of(
                "main.tf",
                MODULES_CONFIG,
                "child/main.tf",
                """
                        terraform {
                          required_providers {
                            aws = { source = "hashicorp/aws" }
                          }
                        }
                        resource "aws_s3_bucket" "c" { bucket = "c" }
                        """,
                "own/main.tf",
                AwsExamples.OFFLINE_AWS_PROVIDER_BLOCK + """
                        resource "aws_s3_bucket" "o" { bucket = "o" }
                        module "deep" { source = "../child" }
                        """,
                "aliases/main.tf",
                """
                        terraform {
                          required_providers {
                            aws = {
                              source                = "hashicorp/aws"
                              version               = ">= 4.0"
                              configuration_aliases = [aws.two]
                            }
                          }
                        }
                        resource "aws_s3_bucket" "a" {
                          provider = aws.two
                          bucket   = "a"
                        }
                        resource "aws_s3_bucket" "b" { bucket = "b" }
                        """);
        for (Path dir : java.util.List.of(tf, st)) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                Files.createDirectories(dir.resolve(f.getKey()).getParent());
                Files.writeString(dir.resolve(f.getKey()), f.getValue());
            }
        }
        JsonNode[] plans = plans(terraform, cliConfig);
        JsonNode theirs = plans[0];
        JsonNode ours = plans[1];

        assertThat(theirs.at("/configuration/root_module/resources").size()).isEqualTo(5);
        assertThat(ours.path("configuration")).isEqualTo(theirs.path("configuration"));
    }

    /** terraform's and Strata's {@code show -json} of a plan of the same files, after each one's init. */
    private JsonNode[] plans(Path terraform, Path cliConfig) throws IOException, InterruptedException {
        run(terraform, cliConfig, "init", "-input=false", "-no-color");
        run(terraform, cliConfig, "plan", "-out=tf.plan", "-input=false", "-no-color");
        JsonNode theirs = JSON.readTree(run(terraform, cliConfig, "show", "-json", "tf.plan"));
        CliRunner strata = CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
        ok(strata.run("init"));
        ok(strata.run("plan", "-out=st.plan"));
        return new JsonNode[] {
            theirs, JSON.readTree(ok(strata.run("show", "-json", "st.plan")).stdout())
        };
    }

    private static final String MODULES_CONFIG = """
            terraform {
              required_providers {
                aws = {
                  source  = "hashicorp/aws"
                  version = "~> 5.1, != 5.3.0, >= 5"
                }
              }
            }
            provider "aws" {
              region                      = "eu-west-1"
              access_key                  = "AKIAEXAMPLE"
              secret_key                  = "not-a-secret"
              skip_credentials_validation = true
              skip_requesting_account_id  = true
              skip_metadata_api_check     = true
              default_tags {
                tags = { env = "t" }
              }
            }
            provider "aws" {
              alias                       = "west"
              region                      = "us-west-2"
              access_key                  = "AKIAEXAMPLE"
              secret_key                  = "not-a-secret"
              skip_credentials_validation = true
              skip_requesting_account_id  = true
              skip_metadata_api_check     = true
            }
            resource "aws_s3_bucket" "b" {
              bucket = "bkt-${terraform.workspace}"
              tags   = { a = "b" }
            }
            resource "aws_security_group" "constant" {
              name = "sg"
              ingress {
                to_port     = 80
                from_port   = 80
                protocol    = "tcp"
                cidr_blocks = ["0.0.0.0/0"]
              }
            }
            resource "aws_security_group" "referring" {
              name = "sg"
              ingress {
                from_port   = 443
                to_port     = 443
                protocol    = "tcp"
                cidr_blocks = ["0.0.0.0/0"]
              }
              ingress {
                from_port   = 8443
                to_port     = 8443
                protocol    = "tcp"
                cidr_blocks = [aws_s3_bucket.b.arn]
              }
            }
            resource "aws_s3_bucket_lifecycle_configuration" "l" {
              bucket = aws_s3_bucket.b.id
              rule {
                id     = "r"
                status = "Enabled"
                filter {
                  prefix = "logs/"
                }
                expiration {
                  days = 30
                }
              }
              dynamic "rule" {
                for_each = [1]
                content {
                  id     = "d${rule.value}"
                  status = "Enabled"
                }
              }
            }
            resource "aws_instance" "i" {
              ami           = "ami-1"
              instance_type = "t3.micro"
              root_block_device {
                volume_size = 8
              }
              timeouts {
                create = "10m"
              }
            }
            module "child" { source = "./child" }
            module "west" {
              source    = "./child"
              providers = { aws = aws.west }
            }
            module "own" { source = "./own" }
            module "aliases" {
              source = "./aliases"
              providers = {
                aws     = aws.west
                aws.two = aws
              }
            }
            """;

    private static Map<String, String> changes(JsonNode plan) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode rc : plan.path("resource_changes")) {
            ObjectNode n = JSON.createObjectNode();
            n.set("actions", rc.at("/change/actions"));
            // Strata writes sensitive values (here the parameter's value) as null; compare without them.
            n.set("after", PlanJsonDifferentialTest.redact(rc.at("/change/after"), rc.at("/change/after_sensitive")));
            n.set("after_sensitive", rc.at("/change/after_sensitive"));
            n.set("after_unknown", rc.at("/change/after_unknown"));
            out.put(rc.path("address").asText(), n.toString());
        }
        return out;
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private String run(Path exe, Path cliConfig, String... args) throws IOException, InterruptedException {
        return Terraform.at(exe, tf).cliConfig(cliConfig).ok(args);
    }
}
