package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.cloudsim.CloudSim;
import dev.strata.cloudsim.Knobs;
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
 * Issue 9's SSM lifecycle through the Strata CLI versus Terraform: the real AWS provider manages
 * {@code aws_ssm_parameter}s in the cloud simulator — create, update (value, description, tags),
 * import of parameters made directly in the simulator (with {@code strata import} / {@code
 * terraform import}, and with an {@code import} block), destroy — with Strata and Terraform each
 * against a fresh simulator of its own. After every step, the resources of {@code strata show
 * -json} and {@code terraform show -json} are equal: addresses, types, providers, schema versions,
 * attribute values and sensitive-value maps. Nothing is normalised: the parameters' attributes
 * carry no timestamps, and the simulator gives both the same account, ARNs and versions.
 * Sensitive values are compared as null, since Strata's JSON never shows them.
 *
 * <p>The provider block has no keys and no region: the keys come from the environment the CLI is
 * given (not the JVM's), the region from a shared config file named by a relative path, so this
 * also checks that plugins run with Strata's working directory and environment.
 *
 * <p>Skipped without the AWS provider mirror or {@code terraform}.
 */
class SsmLifecycleDifferentialIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> CREDENTIALS =
            Map.of("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY", "not-a-secret");

    @TempDir
    Path st;

    @TempDir
    Path tf;

    @TempDir
    Path etc;

    private static String provider(String url) {
        return """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                provider "aws" {
                  shared_config_files         = ["aws.config"]
                  skip_credentials_validation = true
                  skip_requesting_account_id  = true
                  skip_metadata_api_check     = true
                  endpoints {
                    ssm = "%s"
                  }
                }
                """.formatted(url);
    }

    private static final String CREATED = """
            resource "aws_ssm_parameter" "a" {
              name        = "/life/a"
              type        = "String"
              value       = "one"
              description = "first"
              tags        = { team = "platform" }
            }
            resource "aws_ssm_parameter" "b" {
              name  = "/life/b"
              type  = "SecureString"
              value = "s3cret"
              tags  = { env = "dev", owner = "ops" }
            }
            """;

    private static final String UPDATED = """
            resource "aws_ssm_parameter" "a" {
              name        = "/life/a"
              type        = "String"
              value       = "two"
              description = "second"
              tags        = { team = "platform", tier = "gold" }
            }
            resource "aws_ssm_parameter" "b" {
              name        = "/life/b"
              type        = "SecureString"
              value       = "s3cret-2"
              description = "now described"
              tags        = { env = "prod" }
            }
            """;

    private static final String IMPORTED_BY_COMMAND = """
            resource "aws_ssm_parameter" "c" {
              name        = "/life/c"
              type        = "String"
              value       = "made elsewhere"
              description = "outside"
            }
            """;

    private static final String IMPORTED_BY_BLOCK = """
            import {
              to = aws_ssm_parameter.d
              id = "/life/d"
            }
            resource "aws_ssm_parameter" "d" {
              name        = "/life/d"
              type        = "String"
              value       = "adopted"
              description = "by block"
            }
            """;

    @Test
    void createUpdateImportDestroyMatchTerraform() throws Exception {
        Path cliConfig = AwsOnSimulator.cliConfig(etc.resolve("cli.tfrc"));
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        for (Path d : List.of(st, tf)) {
            Files.writeString(d.resolve("aws.config"), "[default]\nregion = eu-west-1\n");
        }
        CliRunner strata =
                CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString()).env("HOME", etc.toString());
        CREDENTIALS.forEach(strata::env);

        try (CloudSim ours = CloudSim.start(0, null, Knobs.DEFAULT);
                CloudSim theirs = CloudSim.start(0, null, Knobs.DEFAULT)) {
            Tf t = new Tf(terraform, cliConfig);

            // Create.
            Files.writeString(st.resolve("main.tf"), provider(ours.url()) + CREATED);
            Files.writeString(tf.resolve("main.tf"), provider(theirs.url()) + CREATED);
            ok(strata.run("init"));
            t.run("init", "-input=false");
            ok(strata.run("apply", "-auto-approve"));
            t.run("apply", "-auto-approve", "-input=false");
            compare("create", 2, strata, t);
            assertThat(ours.ssmParameters()).isEqualTo(theirs.ssmParameters()).containsOnlyKeys("/life/a", "/life/b");

            // Update in place: value, description and tags.
            Files.writeString(st.resolve("main.tf"), provider(ours.url()) + UPDATED);
            Files.writeString(tf.resolve("main.tf"), provider(theirs.url()) + UPDATED);
            ok(strata.run("apply", "-auto-approve"));
            t.run("apply", "-auto-approve", "-input=false");
            compare("update", 2, strata, t);
            assertThat(ours.ssmParameters()).isEqualTo(theirs.ssmParameters()).containsEntry("/life/a", 2L);

            // Import with the command, of a parameter made directly in each simulator.
            for (CloudSim sim : List.of(ours, theirs)) {
                AwsOnSimulator.putParameter(
                        sim,
                        AwsOnSimulator.parameter("/life/c", "made elsewhere", "String")
                                .put("Description", "outside"));
                AwsOnSimulator.putParameter(
                        sim,
                        AwsOnSimulator.parameter("/life/d", "adopted", "String").put("Description", "by block"));
            }
            Files.writeString(st.resolve("main.tf"), provider(ours.url()) + UPDATED + IMPORTED_BY_COMMAND);
            Files.writeString(tf.resolve("main.tf"), provider(theirs.url()) + UPDATED + IMPORTED_BY_COMMAND);
            ok(strata.run("import", "aws_ssm_parameter.c", "/life/c"));
            t.run("import", "-input=false", "aws_ssm_parameter.c", "/life/c");
            compare("import command", 3, strata, t);

            // Import with an import block, applied.
            Files.writeString(
                    st.resolve("main.tf"), provider(ours.url()) + UPDATED + IMPORTED_BY_COMMAND + IMPORTED_BY_BLOCK);
            Files.writeString(
                    tf.resolve("main.tf"), provider(theirs.url()) + UPDATED + IMPORTED_BY_COMMAND + IMPORTED_BY_BLOCK);
            ok(strata.run("apply", "-auto-approve"));
            t.run("apply", "-auto-approve", "-input=false");
            compare("import block", 4, strata, t);
            assertThat(ours.ssmParameters()).isEqualTo(theirs.ssmParameters()).hasSize(4);

            // Destroy.
            ok(strata.run("destroy", "-auto-approve"));
            t.run("destroy", "-auto-approve", "-input=false");
            compare("destroy", 0, strata, t);
            assertThat(ours.ssmParameters()).isEmpty();
            assertThat(theirs.ssmParameters()).isEmpty();
        }
    }

    private void compare(String step, int resources, CliRunner strata, Tf t) throws Exception {
        JsonNode mine = JSON.readTree(ok(strata.run("show", "-json")).stdout());
        JsonNode theirs = JSON.readTree(t.run("show", "-json"));
        assertThat(resources(theirs)).as(step).hasSize(resources);
        assertThat(resources(mine)).as(step).isEqualTo(resources(theirs));
    }

    /** The state's resources by address, sensitive values nulled (Strata's JSON never shows them). */
    private static Map<String, String> resources(JsonNode show) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode r : show.at("/values/root_module/resources")) {
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

    /** Terraform in {@link #tf}, with the same credentials in its environment as Strata's. */
    private final class Tf {
        private final Path exe;
        private final Path cliConfig;

        Tf(Path exe, Path cliConfig) {
            this.exe = exe;
            this.cliConfig = cliConfig;
        }

        String run(String... args) throws IOException, InterruptedException {
            return Terraform.at(exe, tf)
                    .cliConfig(cliConfig)
                    .unsetInherited("AWS_")
                    .env("HOME", etc.toString())
                    .env(CREDENTIALS)
                    .timeout(Duration.ofMinutes(5))
                    .ok(args);
        }
    }
}
