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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ephemeral "aws_ssm_parameter"} with the real AWS provider 5.100 on the simulator, Strata against
 * Terraform: one ephemeral parameter (a unique marker) feeds another parameter's write-only
 * {@code value_wo} and a provider configuration's {@code secret_key}, another one that configuration's
 * {@code region} (which the simulator takes from each request's signature, so the created parameter's
 * ARN shows that the provider was configured from it). Both engines print the same progress lines
 * (Opening/Closing in plan and apply), the same plan, store the marker in the API, and Strata writes it
 * to no file: state, its backups, the journal, the plan file and a trace log. A reference from a
 * persisted argument is the same error in both. Skipped without the AWS provider mirror or {@code terraform}.
 */
class EphemeralResourceAwsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARKER = "eph-res-marker-6a0d42c1";
    private static final String REGION = "eu-central-1";

    @TempDir
    Path st;

    @TempDir
    Path tf;

    @TempDir
    Path etc;

    private Path cliConfig;
    private Path terraform;
    private Path log;
    private CliRunner strata;

    /** Both cases: the provider from the mirror, terraform, and Strata tracing into a log file. */
    @BeforeEach
    void setUp() throws IOException {
        cliConfig = AwsOnSimulator.cliConfig(etc.resolve("cli.tfrc"));
        terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        log = st.resolve("strata-trace.log");
        strata = CliRunner.in(st)
                .env("TF_CLI_CONFIG_FILE", cliConfig.toString())
                .env("HOME", etc.toString())
                .env("STRATA_LOG", "trace")
                .env("STRATA_LOG_PATH", log.toString());
    }

    /** A simulator holding the two parameters the configuration reads. */
    private static CloudSim simulator() throws IOException, InterruptedException {
        CloudSim sim = CloudSim.start(0, null, Knobs.DEFAULT);
        try {
            AwsOnSimulator.putParameter(sim, AwsOnSimulator.parameter("/cfg/secret", MARKER, "SecureString"));
            AwsOnSimulator.putParameter(sim, AwsOnSimulator.parameter("/cfg/region", REGION, "String"));
        } catch (Exception | Error e) {
            sim.close();
            throw e;
        }
        return sim;
    }

    /** Strata traced (the log is not empty) and wrote the marker to no file. */
    private void assertTracedWithoutTheMarker() throws IOException {
        assertThat(Files.size(log)).isPositive();
        assertThat(EphemeralValuesDifferentialTest.filesContaining(st, MARKER))
                .as("files holding an ephemeral resource's result")
                .isEmpty();
    }

    private static String provider(String alias, String region, String secret, String url) {
        return """
                provider "aws" {
                  %s
                  access_key                  = "AKIAEXAMPLE"
                  secret_key                  = %s
                  region                      = %s
                  skip_credentials_validation = true
                  skip_requesting_account_id  = true
                  skip_metadata_api_check     = true
                  endpoints {
                    ssm = "%s"
                  }
                }
                """.formatted(alias == null ? "" : "alias = \"" + alias + "\"", secret, region, url);
    }

    private static String config(String url, String extra) {
        return """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                """
                + provider(null, "\"eu-west-1\"", "\"bootstrap\"", url)
                + """
                ephemeral "aws_ssm_parameter" "secret" {
                  arn = "arn:aws:ssm:eu-west-1:123456789012:parameter/cfg/secret"
                }
                ephemeral "aws_ssm_parameter" "region" {
                  arn = "arn:aws:ssm:eu-west-1:123456789012:parameter/cfg/region"
                }
                """
                + provider(
                        "fed",
                        "ephemeral.aws_ssm_parameter.region.value",
                        "ephemeral.aws_ssm_parameter.secret.value",
                        url)
                + """
                resource "aws_ssm_parameter" "copy" {
                  provider         = aws.fed
                  name             = "/cfg/copy"
                  type             = "SecureString"
                  value_wo         = ephemeral.aws_ssm_parameter.secret.value
                  value_wo_version = 1
                }
                """
                + extra;
    }

    @Test
    void ephemeralParameterFeedsAWriteOnlyArgumentAndAProviderAsInTerraform() throws Exception {
        try (CloudSim ours = simulator();
                CloudSim theirs = simulator()) {
            // A persisted argument may not take the result: the same error, in validate, from both.
            Files.writeString(
                    st.resolve("main.tf"),
                    config(
                            ours.url(),
                            "resource \"aws_ssm_parameter\" \"bad\" {\n  name  = \"/cfg/bad\"\n"
                                    + "  type  = \"String\"\n  value = ephemeral.aws_ssm_parameter.secret.value\n}\n"));
            Files.writeString(
                    tf.resolve("main.tf"),
                    config(
                            theirs.url(),
                            "resource \"aws_ssm_parameter\" \"bad\" {\n  name  = \"/cfg/bad\"\n"
                                    + "  type  = \"String\"\n  value = ephemeral.aws_ssm_parameter.secret.value\n}\n"));
            ok(strata.run("init"));
            terraform().ok("init", "-input=false");
            CliRunner.Result bad = strata.run("validate", "-no-color");
            dev.strata.testing.ProcessResult theirBad = terraform().run("validate", "-no-color");
            assertThat(bad.exitCode()).isEqualTo(theirBad.exitCode()).isEqualTo(1);
            assertThat(errors(bad.stderr()))
                    .isEqualTo(errors(theirBad.stderr()))
                    .hasSize(2)
                    .startsWith("Error: Invalid use of ephemeral value");

            Files.writeString(st.resolve("main.tf"), config(ours.url(), ""));
            Files.writeString(tf.resolve("main.tf"), config(theirs.url(), ""));
            String mine = ok(strata.run("plan", "-no-color", "-out=st.plan")).stdout();
            String their = terraform().ok("plan", "-no-color", "-input=false", "-out=tf.plan");
            assertThat(ephemeralLines(mine)).isEqualTo(ephemeralLines(their)).hasSize(8);
            assertThat(AwsOnSimulator.planBlocks(mine)).isEqualTo(AwsOnSimulator.planBlocks(their));
            String shown = ok(strata.run("show", "-json", "st.plan")).stdout();
            assertThat(shown).doesNotContain(MARKER);
            // No ephemeral object is planned or recorded; the configuration lists the references to them
            // (a provider's arguments, a write-only argument) as Terraform's does.
            JsonNode ourJson = JSON.readTree(shown);
            JsonNode theirJson = JSON.readTree(terraform().ok("show", "-json", "tf.plan"));
            for (String part : List.of("planned_values", "resource_changes", "prior_state")) {
                assertThat(ourJson.path(part).toString()).as(part).doesNotContain("ephemeral.aws_ssm_parameter");
            }
            assertThat(ourJson.at("/configuration/root_module")).isEqualTo(theirJson.at("/configuration/root_module"));
            assertThat(ourJson.at("/configuration/provider_config/aws.fed/expressions/secret_key"))
                    .isEqualTo(theirJson.at("/configuration/provider_config/aws.fed/expressions/secret_key"));

            mine = ok(strata.run("apply", "-no-color", "st.plan")).stdout();
            their = terraform().ok("apply", "-no-color", "-input=false", "tf.plan");
            assertThat(progress(mine)).isEqualTo(progress(their));
            for (CloudSim sim : List.of(ours, theirs)) {
                JsonNode copy = AwsOnSimulator.getParameter(sim, "/cfg/copy");
                assertThat(copy.path("Value").asText()).isEqualTo(MARKER);
            }
            // The fed provider's region came from the other ephemeral parameter.
            JsonNode state = JSON.readTree(ok(strata.run("state", "pull")).stdout());
            assertThat(state.path("resources").toString())
                    .contains("arn:aws:ssm:" + REGION + ":")
                    .doesNotContain("\"mode\":\"ephemeral\"");

            // copy has no tags: the provider reads back tags = {} for the null stored, drift that Terraform
            // reports in a refresh-only plan only, since nothing in a normal plan depends on it; a targeted plan
            // (-target) shows no drift in either engine, and both -json streams carry the same resource_drift.
            String target = "-target=aws_ssm_parameter.copy";
            mine = ok(strata.run("plan", "-no-color", target)).stdout();
            their = terraform().ok("plan", "-no-color", "-input=false", target);
            for (String out : List.of(mine, their)) {
                assertThat(out)
                        .doesNotContain("changed outside")
                        .contains("No changes. Your infrastructure matches the configuration.");
            }
            assertThat(drift(ok(strata.run("plan", "-json", target)).stdout()))
                    .isEqualTo(drift(terraform().ok("plan", "-json", "-input=false", target)))
                    .containsExactly("aws_ssm_parameter.copy: Drift detected (update) update");
            mine = ok(strata.run("plan", "-no-color", "-refresh-only")).stdout();
            their = terraform().ok("plan", "-no-color", "-input=false", "-refresh-only");
            assertThat(AwsOnSimulator.planBlocks(mine))
                    .isEqualTo(AwsOnSimulator.planBlocks(their))
                    .singleElement()
                    .asString()
                    .contains("# aws_ssm_parameter.copy has changed")
                    .contains("+ tags             = {}");

            // A second apply with nothing to change opens and closes both for its plan, and backs the state
            // up. Terraform runs its (empty) apply walk too and so opens them a second time; Strata has no
            // apply walk without changes (docs/ephemeral.md).
            mine = ok(strata.run("apply", "-no-color", "-auto-approve")).stdout();
            their = terraform().ok("apply", "-no-color", "-input=false", "-auto-approve");
            assertThat(progress(mine))
                    .isEqualTo(progress(their).stream().distinct().toList());
            assertThat(mine).contains("No changes.");
        }
        assertTracedWithoutTheMarker();
    }

    /**
     * Destroying, both engines open the ephemeral parameters the fed provider needs in the destroy plan
     * and again in its apply, and close them after the deletion; the {@code -json} streams carry the
     * same {@code ephemeral_op_*} messages. Terraform's destroy plan opens them twice (its refresh walk
     * and its destroy walk), Strata's once: the messages are compared without repeats. A {@code -target}
     * naming an ephemeral parameter destroys nothing in either. No file Strata writes holds the marker.
     */
    @Test
    void ephemeralParametersAreOpenedForADestroyAsInTerraform() throws Exception {
        try (CloudSim ours = simulator();
                CloudSim theirs = simulator()) {
            Files.writeString(st.resolve("main.tf"), config(ours.url(), ""));
            Files.writeString(tf.resolve("main.tf"), config(theirs.url(), ""));
            ok(strata.run("init"));
            Terraform their = terraform();
            their.ok("init", "-input=false");
            ok(strata.run("apply", "-no-color", "-auto-approve"));
            their.ok("apply", "-no-color", "-input=false", "-auto-approve");

            String mine = ok(strata.run("plan", "-destroy", "-no-color", "-target=ephemeral.aws_ssm_parameter.secret"))
                    .stdout();
            String theirOut = their.ok(
                    "plan", "-destroy", "-no-color", "-input=false", "-target=ephemeral.aws_ssm_parameter.secret");
            assertThat(ephemeralLines(mine))
                    .isEqualTo(ephemeralLines(theirOut).stream().distinct().toList())
                    .hasSize(4);
            assertThat(mine).contains("No changes. No objects need to be destroyed.");
            assertThat(theirOut).contains("No changes. No objects need to be destroyed.");

            mine = ok(strata.run("plan", "-destroy", "-json", "-out=st.plan")).stdout();
            theirOut = their.ok("plan", "-destroy", "-json", "-input=false", "-out=tf.plan");
            assertThat(ephemeralMessages(mine))
                    .isEqualTo(ephemeralMessages(theirOut).stream().distinct().toList())
                    .hasSize(8);
            mine = ok(strata.run("apply", "-json", "st.plan")).stdout();
            theirOut = their.ok("apply", "-json", "-input=false", "tf.plan");
            assertThat(ephemeralMessages(mine)).isEqualTo(ephemeralMessages(theirOut));
            assertThat(mine).contains("Apply complete! Resources: 0 added, 0 changed, 1 destroyed.");
            for (CloudSim sim : List.of(ours, theirs)) {
                assertThat(AwsOnSimulator.parameterStatus(sim, "/cfg/copy")).isEqualTo(400);
            }
        }
        assertTracedWithoutTheMarker();
    }

    /** The {@code ephemeral_op_*} messages of a {@code -json} stream as "type hook.action @message", sorted. */
    private static List<String> ephemeralMessages(String stream) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : stream.lines().filter(l -> l.startsWith("{")).toList()) {
            JsonNode n = JSON.readTree(line);
            if (n.path("type").asText().startsWith("ephemeral_op")) {
                out.add(n.path("type").asText() + " "
                        + n.path("hook").path("action").asText() + " "
                        + n.path("hook").path("resource").path("addr").asText() + " "
                        + n.path("@message").asText().replaceAll(" after \\d+s", ""));
            }
        }
        return out.stream().sorted().toList();
    }

    /** The {@code resource_drift} messages of a {@code -json} stream as "@message action". */
    private static List<String> drift(String stream) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : stream.lines().filter(l -> l.startsWith("{")).toList()) {
            JsonNode n = JSON.readTree(line);
            if (n.path("type").asText().equals("resource_drift")) {
                out.add(n.path("@message").asText() + " "
                        + n.path("change").path("action").asText());
            }
        }
        return out;
    }

    /** An error's summary and place (Strata's underlining and Terraform's "with" line left out). */
    private static List<String> errors(String out) {
        return out.lines()
                .filter(l -> l.startsWith("Error: ") || l.startsWith("  on "))
                .toList();
    }

    /**
     * The lines about ephemeral resources, with the times left out, sorted: the two open concurrently in
     * both engines, so their lines interleave in any order.
     */
    private static List<String> ephemeralLines(String out) {
        return out.lines()
                .filter(l -> l.startsWith("ephemeral."))
                .map(l -> l.replaceAll(" after \\d+s", ""))
                .sorted()
                .toList();
    }

    /** Every progress line (ephemeral and managed resources), times left out, in order per address. */
    private static List<String> progress(String out) {
        return out.lines()
                .filter(l -> l.matches("^(ephemeral\\.)?aws_ssm_parameter\\.\\w+: .*"))
                .map(l -> l.replaceAll(" after \\d+s", ""))
                .sorted()
                .toList();
    }

    private Terraform terraform() {
        return Terraform.at(terraform, tf)
                .cliConfig(cliConfig)
                .unsetInherited("AWS_")
                .env("HOME", etc.toString());
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
