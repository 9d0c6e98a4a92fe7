package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * {@code strata plan -out} + {@code strata show -json} against {@code terraform plan -out} +
 * {@code terraform show -json} with the real AWS provider (5.100.0, from the filesystem mirror), for
 * configurations that read AWS data sources: the corpus VPC module's {@code examples/complete}, and a
 * smaller one of our own. Same resource changes (address, mode, type, name, index, provider, actions,
 * after, after_unknown, after_sensitive) and the same output changes and planned output values.
 *
 * <p>The VPC module in the corpus requires hashicorp/aws 6.x, and only 5.100.0 is installed here, so
 * both tools plan an <em>adaptation</em> of a copy of it, made by {@link #adaptTo5}: the version
 * constraints relaxed to {@code >= 5.0}, the 6.x-only {@code region = var.region} arguments removed,
 * {@code data.aws_region.*.region} read as 5.x's {@code .name}, and the 6.x-only
 * {@code provider_meta "aws"} blocks removed. An override file {@code zz_sim_override.tf} (Terraform
 * override-file semantics) gives the provider dummy keys, the skip_* settings and EC2/STS endpoints
 * on a local {@link CloudSim}, which answers the data sources' DescribeAvailabilityZones and
 * DescribeVpcEndpointServices; both tools plan against the same simulator, offline.
 *
 * <p>Skipped when terraform, the AWS provider mirror or the corpus is absent.
 */
class VpcExamplePlanDifferentialTest {
    private static final ObjectMapper JSON = AwsExamples.JSON;
    private static final Path VPC = AwsExamples.corpus().resolve("terraform-aws-modules__terraform-aws-vpc");

    @AutoClose
    private static CloudSim sim;

    @TempDir
    Path work;

    @BeforeAll
    static void startSimulator() throws IOException {
        sim = CloudSim.start(0, null, Knobs.DEFAULT);
    }

    @Test
    void vpcCompleteExampleMatchesTerraform() throws Exception {
        assumeTrue(Files.isDirectory(VPC.resolve("examples/complete")), "no VPC module in the corpus");
        Path terraform = AwsExamples.prerequisites();
        Path tfRoot = adaptTo5(VPC, work.resolve("tf"));
        Path stRoot = adaptTo5(VPC, work.resolve("st"));
        Differential d = run(terraform, tfRoot.resolve("examples/complete"), stRoot.resolve("examples/complete"));
        // 62 resources to create, and the example reads its zones and endpoint services from the simulator.
        assertThat(d.ours.path("resource_changes").size()).isGreaterThanOrEqualTo(60);
        List<String> zones = new ArrayList<>();
        for (JsonNode rc : d.ours.path("resource_changes")) {
            if (rc.path("address").asText().startsWith("module.vpc.aws_subnet.private[")) {
                zones.add(rc.at("/change/after/availability_zone").asText());
            }
        }
        assertThat(zones).containsExactly("eu-west-1a", "eu-west-1b", "eu-west-1c");
        assertThat(d.ours.at("/planned_values/outputs/vpc_cidr_block/value").asText())
                .isEqualTo("10.0.0.0/16");
        d.assertSame();
    }

    @Test
    void subnetsPerZoneWithSecurityGroupRulesAsBlocksMatchTerraform() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        String config = """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = ">= 5.0" }
                  }
                }
                provider "aws" {
                  region = "us-east-2"
                }
                data "aws_availability_zones" "all" {
                  state = "available"
                }
                data "aws_vpc_endpoint_service" "s3" {
                  service      = "s3"
                  service_type = "Gateway"
                }
                locals {
                  zones = slice(data.aws_availability_zones.all.names, 0, 2)
                  ports = { http = 80, https = 443 }
                }
                resource "aws_vpc" "main" {
                  cidr_block = "10.1.0.0/16"
                  tags       = { Name = "main" }
                }
                resource "aws_subnet" "zone" {
                  for_each          = toset(local.zones)
                  vpc_id            = aws_vpc.main.id
                  availability_zone = each.key
                  cidr_block        = cidrsubnet(aws_vpc.main.cidr_block, 8, index(local.zones, each.key))
                }
                resource "aws_security_group" "web" {
                  name   = "web"
                  vpc_id = aws_vpc.main.id
                  dynamic "ingress" {
                    for_each = local.ports
                    content {
                      description = ingress.key
                      from_port   = ingress.value
                      to_port     = ingress.value
                      protocol    = "tcp"
                      cidr_blocks = [aws_vpc.main.cidr_block]
                    }
                  }
                  egress {
                    from_port   = 0
                    to_port     = 0
                    protocol    = "-1"
                    cidr_blocks = ["0.0.0.0/0"]
                  }
                }
                resource "aws_vpc_endpoint" "s3" {
                  vpc_id       = aws_vpc.main.id
                  service_name = data.aws_vpc_endpoint_service.s3.service_name
                }
                output "zones" { value = local.zones }
                output "zone_ids" { value = data.aws_availability_zones.all.zone_ids }
                output "subnet_cidrs" { value = { for k, s in aws_subnet.zone : k => s.cidr_block } }
                output "first_missing" { value = try(aws_subnet.zone["nowhere"].id, null) }
                """;
        Path tf = Files.createDirectories(work.resolve("small-tf"));
        Path st = Files.createDirectories(work.resolve("small-st"));
        Files.writeString(tf.resolve("main.tf"), config);
        Files.writeString(st.resolve("main.tf"), config);
        Differential d = run(terraform, tf, st);
        assertThat(d.ours.at("/planned_values/outputs/zones/value").toString())
                .isEqualTo("[\"us-east-2a\",\"us-east-2b\"]");
        d.assertSame();
    }

    /** The two plans as {@code show -json} wrote them. */
    private record Differential(JsonNode theirs, JsonNode ours) {
        void assertSame() {
            assertThat(AwsExamples.changes(ours)).isEqualTo(AwsExamples.changes(theirs));
            assertThat(AwsExamples.outputs(ours)).isEqualTo(AwsExamples.outputs(theirs));
        }
    }

    private Differential run(Path terraform, Path tfDir, Path stDir) throws Exception {
        Path cliConfig = AwsExamples.cliConfig(work);
        for (Path d : List.of(tfDir, stDir)) {
            AwsExamples.simulatorOverride(d, sim.url());
        }
        tool(terraform, tfDir, cliConfig, "init", "-input=false", "-no-color");
        tool(terraform, tfDir, cliConfig, "plan", "-out=tf.plan", "-input=false", "-no-color");
        JsonNode theirs = JSON.readTree(tool(terraform, tfDir, cliConfig, "show", "-json", "tf.plan"));

        CliRunner strata = CliRunner.in(stDir).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
        ok(strata.run("init"));
        ok(strata.run("plan", "-out=st.plan"));
        JsonNode ours = JSON.readTree(ok(strata.run("show", "-json", "st.plan")).stdout());
        return new Differential(theirs, ours);
    }

    /**
     * Copies the VPC module to {@code to} adapted to the AWS provider 5.x ({@link AwsExamples#adaptTo5});
     * fails if an adaptation finds nothing to change, so that a new corpus version that needs others
     * is noticed.
     */
    static Path adaptTo5(Path from, Path to) throws IOException {
        AwsExamples.Adaptation a = AwsExamples.adaptTo5(from, to);
        assertThat(List.of(a.versions(), a.regionArguments(), a.regionAttributes(), a.providerMetas()))
                .as("adaptations applied (versions, region arguments, region attributes, provider_meta)")
                .allMatch(n -> n > 0);
        return to;
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private static String tool(Path exe, Path dir, Path cliConfig, String... args)
            throws IOException, InterruptedException {
        AwsExamples.Run r = AwsExamples.terraform(exe, dir, cliConfig, args);
        assertThat(r.exitCode())
                .as("terraform " + String.join(" ", args) + " in " + dir + "\n" + r.stderr())
                .isZero();
        return r.stdout();
    }
}
