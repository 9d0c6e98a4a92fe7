package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
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
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path MIRROR = Path.of("/opt/tf-plugins");
    private static final Path VPC = Path.of(System.getProperty("strata.shared.dir", "../../shared"))
            .resolve("corpus/hcl/terraform-aws-modules__terraform-aws-vpc");

    private static CloudSim sim;

    @TempDir
    Path work;

    @BeforeAll
    static void startSimulator() throws IOException {
        sim = CloudSim.start(0, null, Knobs.DEFAULT);
    }

    @AfterAll
    static void stopSimulator() {
        if (sim != null) {
            sim.close();
        }
    }

    @Test
    void vpcCompleteExampleMatchesTerraform() throws Exception {
        assumeTrue(Files.isDirectory(VPC.resolve("examples/complete")), "no VPC module in the corpus");
        Path terraform = prerequisites();
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
        assertThat(d.ours.at("/planned_values/outputs/vpc_cidr_block/value").asText()).isEqualTo("10.0.0.0/16");
        d.assertSame();
    }

    @Test
    void subnetsPerZoneWithSecurityGroupRulesAsBlocksMatchTerraform() throws Exception {
        Path terraform = prerequisites();
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

    private static Path prerequisites() {
        assumeTrue(Files.isDirectory(MIRROR.resolve("registry.terraform.io/hashicorp/aws")), "no AWS provider mirror");
        Path terraform = PlanJsonDifferentialTest.terraform().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        return terraform;
    }

    /** The two plans as {@code show -json} wrote them. */
    private record Differential(JsonNode theirs, JsonNode ours) {
        void assertSame() {
            assertThat(changes(ours)).isEqualTo(changes(theirs));
            assertThat(outputs(ours)).isEqualTo(outputs(theirs));
        }
    }

    private Differential run(Path terraform, Path tfDir, Path stDir) throws Exception {
        Path cliConfig = work.resolve("cli.tfrc");
        Files.writeString(cliConfig, "provider_installation {\n  filesystem_mirror {\n    path    = \"" + MIRROR
                + "\"\n    include = [\"registry.terraform.io/hashicorp/aws\"]\n  }\n}\n");
        for (Path d : List.of(tfDir, stDir)) {
            Files.writeString(d.resolve("zz_sim_override.tf"), """
                    provider "aws" {
                      access_key                  = "AKIAEXAMPLE"
                      secret_key                  = "not-a-secret"
                      skip_credentials_validation = true
                      skip_requesting_account_id  = true
                      skip_metadata_api_check     = true
                      endpoints {
                        ec2 = "%1$s"
                        sts = "%1$s"
                      }
                    }
                    """.formatted(sim.url()));
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
     * Copies the VPC module to {@code to} and adapts the copy to the AWS provider 5.x (see the class
     * comment); fails if an adaptation finds nothing to change, so that a new corpus version that
     * needs others is noticed.
     */
    static Path adaptTo5(Path from, Path to) throws IOException {
        int[] changed = new int[4];
        Pattern version = Pattern.compile("version\\s*=\\s*\">= 6\\.[0-9.]+\"");
        Pattern regionArg = Pattern.compile("(?m)^[ \\t]*region[ \\t]*=[ \\t]*var\\.region[ \\t]*\\n");
        Pattern regionAttr = Pattern.compile("(data\\.aws_region\\.[a-z_]+(\\[0\\])?)\\.region\\b");
        Pattern meta = Pattern.compile("(?s)\\n  provider_meta \"aws\" \\{\\n.*?\\n  \\}\\n");
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                    continue;
                }
                if (!p.toString().endsWith(".tf")) {
                    Files.copy(p, target);
                    continue;
                }
                String src = Files.readString(p);
                String out = replace(version, src, "version = \">= 5.0\"", changed, 0);
                out = replace(regionArg, out, "", changed, 1);
                out = replace(regionAttr, out, "$1.name", changed, 2);
                out = replace(meta, out, "\n", changed, 3);
                Files.writeString(target, out);
            }
        }
        assertThat(java.util.Arrays.stream(changed).boxed().toList())
                .as("adaptations applied (versions, region arguments, region attributes, provider_meta)")
                .allMatch(n -> n > 0);
        return to;
    }

    private static String replace(Pattern p, String src, String with, int[] counts, int which) {
        var m = p.matcher(src);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            counts[which]++;
            m.appendReplacement(sb, with);
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** Resource changes by address, with what the comparison covers. */
    private static Map<String, String> changes(JsonNode plan) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode rc : plan.path("resource_changes")) {
            ObjectNode n = JSON.createObjectNode();
            for (String f : List.of("mode", "type", "name", "index", "provider_name", "module_address")) {
                n.set(f, rc.path(f));
            }
            n.set("actions", rc.at("/change/actions"));
            // Strata writes sensitive values as null; compare without them (none here, but keep it honest).
            n.set("after", PlanJsonDifferentialTest.redact(rc.at("/change/after"), rc.at("/change/after_sensitive")));
            n.set("after_unknown", rc.at("/change/after_unknown"));
            n.set("after_sensitive", rc.at("/change/after_sensitive"));
            out.put(rc.path("address").asText(), n.toString());
        }
        return out;
    }

    /** Output changes (actions, after, after_unknown) and planned output values by name. */
    private static Map<String, String> outputs(JsonNode plan) {
        Map<String, String> out = new TreeMap<>();
        plan.path("output_changes").fields().forEachRemaining(e -> {
            ObjectNode n = JSON.createObjectNode();
            n.set("actions", e.getValue().path("actions"));
            n.set("after", e.getValue().path("after"));
            n.set("after_unknown", e.getValue().path("after_unknown"));
            n.set("planned", plan.at("/planned_values/outputs").path(e.getKey()));
            out.put(e.getKey(), n.toString());
        });
        return out;
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private static String tool(Path exe, Path dir, Path cliConfig, String... args) throws IOException,
            InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        pb.environment().put("TF_IN_AUTOMATION", "1");
        pb.environment().put("TF_CLI_CONFIG_FILE", cliConfig.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(600, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("terraform " + String.join(" ", args) + " in " + dir).isZero();
        return new String(out, StandardCharsets.UTF_8);
    }
}
