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

        run(terraform, cliConfig, "init", "-input=false", "-no-color");
        run(terraform, cliConfig, "plan", "-out=tf.plan", "-input=false", "-no-color");
        JsonNode theirs = JSON.readTree(run(terraform, cliConfig, "show", "-json", "tf.plan"));

        CliRunner strata = CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
        ok(strata.run("init"));
        ok(strata.run("plan", "-out=st.plan"));
        JsonNode ours = JSON.readTree(ok(strata.run("show", "-json", "st.plan")).stdout());

        assertThat(changes(ours)).isEqualTo(changes(theirs));
        assertThat(ours.at("/planned_values/outputs/policy/value"))
                .isEqualTo(theirs.at("/planned_values/outputs/policy/value"));
        assertThat(ours.at("/planned_values/outputs/region/value").asText()).isEqualTo("eu-west-1");
    }

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
