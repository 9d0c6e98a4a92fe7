package dev.strata.cli.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the AWS plan differentials share: the corpus and the provider mirror, the adaptation of a
 * corpus module to the AWS provider 5.100 (the only one installed here), the provider override that
 * points both tools at a local simulator, running {@code terraform}, and the parts of two
 * {@code show -json} plans that must agree.
 */
final class AwsExamples {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path MIRROR = AwsOnSimulator.MIRROR;

    /** The AWS provider's block, configured to plan offline (fake keys, no account or metadata look-ups). */
    static final String OFFLINE_AWS_PROVIDER_BLOCK = """
            provider "aws" {
              region                      = "eu-west-1"
              access_key                  = "AKIAEXAMPLE"
              secret_key                  = "not-a-secret"
              skip_credentials_validation = true
              skip_requesting_account_id  = true
              skip_metadata_api_check     = true
            }
            """;

    /** The AWS provider 5.x, required and configured to plan offline. */
    static final String OFFLINE_AWS_PROVIDER = """
            terraform {
              required_providers {
                aws = { source = "hashicorp/aws", version = "~> 5.0" }
              }
            }
            """ + OFFLINE_AWS_PROVIDER_BLOCK;

    private AwsExamples() {}

    /** The shared corpus of published modules ({@code corpus/hcl}). */
    static Path corpus() {
        return Path.of(System.getProperty("strata.shared.dir", "../../shared")).resolve("corpus/hcl");
    }

    /** The terraform binary; skips the test when it or the AWS provider mirror is absent. */
    static Path prerequisites() {
        assumeTrue(Files.isDirectory(MIRROR.resolve("registry.terraform.io/hashicorp/aws")), "no AWS provider mirror");
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        return terraform;
    }

    /** A CLI configuration that installs hashicorp/aws from the mirror only (no network). */
    static Path cliConfig(Path dir) throws IOException {
        return AwsOnSimulator.writeCliConfig(dir.resolve("cli.tfrc"));
    }

    /**
     * Writes {@code zz_sim_override.tf} (Terraform override-file semantics) into {@code dir}: dummy
     * keys, the skip_* settings and the EC2/STS endpoints on the simulator at {@code url}.
     */
    static void simulatorOverride(Path dir, String url) throws IOException {
        Files.writeString(dir.resolve("zz_sim_override.tf"), """
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
                """.formatted(url));
    }

    /**
     * How many places of each kind {@link #adaptTo5} changed: version constraints, 6.x-only
     * {@code region = var.region} arguments, {@code data.aws_region.*.region} references, and
     * {@code provider_meta "aws"} blocks.
     */
    record Adaptation(int versions, int regionArguments, int regionAttributes, int providerMetas) {}

    /**
     * Copies the module tree {@code from} to {@code to}, adapted to the AWS provider 5.x: version
     * constraints {@code >= 6.x} relaxed to {@code >= 5.0}, the 6.x-only {@code region = var.region}
     * arguments removed, {@code data.aws_region.*.region} read as 5.x's {@code .name}, and the
     * {@code provider_meta "aws"} blocks (whose {@code user_agent} 5.100 rejects) removed.
     */
    static Adaptation adaptTo5(Path from, Path to) throws IOException {
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
        return new Adaptation(changed[0], changed[1], changed[2], changed[3]);
    }

    private static String replace(Pattern p, String src, String with, int[] counts, int which) {
        Matcher m = p.matcher(src);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            counts[which]++;
            m.appendReplacement(sb, with);
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** Resource changes by address, with what the comparison covers. */
    static Map<String, String> changes(JsonNode plan) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode rc : plan.path("resource_changes")) {
            ObjectNode n = JSON.createObjectNode();
            for (String f : List.of("mode", "type", "name", "index", "provider_name", "module_address")) {
                n.set(f, rc.path(f));
            }
            n.set("actions", rc.at("/change/actions"));
            // Strata writes sensitive values as null; compare without them.
            n.set("after", PlanJsonDifferentialTest.redact(rc.at("/change/after"), rc.at("/change/after_sensitive")));
            n.set("after_unknown", rc.at("/change/after_unknown"));
            n.set("after_sensitive", rc.at("/change/after_sensitive"));
            out.put(rc.path("address").asText(), n.toString());
        }
        return out;
    }

    /** Output changes (actions, after, after_unknown) and planned output values by name. */
    static Map<String, String> outputs(JsonNode plan) {
        Map<String, String> out = new TreeMap<>();
        plan.path("output_changes").properties().forEach(e -> {
            ObjectNode n = JSON.createObjectNode();
            n.set("actions", e.getValue().path("actions"));
            n.set("after", e.getValue().path("after"));
            n.set("after_unknown", e.getValue().path("after_unknown"));
            n.set("planned", plan.at("/planned_values/outputs").path(e.getKey()));
            out.put(e.getKey(), n.toString());
        });
        return out;
    }

    /** A finished {@code terraform} run. */
    record Run(int exitCode, String stdout, String stderr) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    /** Runs {@code terraform args...} in {@code dir} with the mirror-only CLI configuration. */
    static Run terraform(Path exe, Path dir, Path cliConfig, String... args) throws IOException, InterruptedException {
        return terraform(exe, dir, cliConfig, Map.of(), args);
    }

    /** As {@link #terraform(Path, Path, Path, String...)}, with {@code env} added to the environment. */
    static Run terraform(Path exe, Path dir, Path cliConfig, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        // Not TF_IN_AUTOMATION unless asked for: it drops the hints after a plan (the rule, "Saved the
        // plan to: ..."), which the plan text comparison covers; Strata honours it the same way.
        ProcessResult r = Terraform.at(exe, dir)
                .cliConfig(cliConfig)
                .inAutomation(false)
                .env(env)
                .run(args);
        return new Run(r.exitCode(), r.stdout(), r.stderr());
    }
}
