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
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Provider-defined functions of the real AWS provider ({@code provider::aws::arn_parse}, {@code arn_build},
 * {@code trim_iam_role_path}) under Strata and under terraform: the same output values after plan
 * ({@code show -json}) and apply ({@code output -json}), including a result that is unknown until
 * apply, a sensitive one and a local name other than the provider's type; and the same diagnostics
 * (summary, detail, range) for failing calls. Only {@code terraform_data} resources, so no AWS API
 * is called. Skipped when the provider or terraform is absent.
 */
class ProviderFunctionsDifferentialTest {
    private static final ObjectMapper JSON = AwsExamples.JSON;

    private static final String PROVIDER = AwsExamples.OFFLINE_AWS_PROVIDER_BLOCK;

    // The same provider under a second local name: terraform warns about it (one of two wordings, by
    // chance), which Strata does not; only CONFIG, whose diagnostics are not compared, has it.
    private static final String CONFIG = """
            terraform {
              required_providers {
                aws    = { source = "hashicorp/aws", version = "~> 5.0" }
                amazon = { source = "hashicorp/aws" }
              }
            }
            """ + PROVIDER + """
            variable "role" {
              default   = "arn:aws:iam::123456789012:role/secret/path/hidden"
              sensitive = true
            }
            resource "terraform_data" "key" {
              input = "bucket/${provider::aws::arn_parse("arn:aws:s3:::logs").resource}"
            }
            locals {
              parsed = provider::aws::arn_parse("arn:aws:iam::123456789012:role/path/name")
            }
            output "parsed"  { value = local.parsed }
            output "service" { value = local.parsed.service }
            output "built"   { value = provider::aws::arn_build("aws", "s3", "", "", "bucket/key") }
            output "trimmed" { value = provider::aws::trim_iam_role_path("arn:aws:iam::123456789012:role/some/path/MyRole") }
            output "aliased" { value = provider::amazon::arn_build("aws-cn", "iam", "", "123456789012", "user/x") }
            output "later"   { value = provider::aws::arn_build("aws", "s3", "", "", terraform_data.key.output) }
            output "secret" {
              value     = provider::aws::trim_iam_role_path(var.role)
              sensitive = true
            }
            """;

    private static final String FAILING = """
            terraform {
              required_providers {
                aws = { source = "hashicorp/aws", version = "~> 5.0" }
              }
            }
            """ + PROVIDER + """
            output "bad_arn"  { value = provider::aws::arn_parse("not-an-arn") }
            output "bad_type" { value = provider::aws::arn_build("aws", "s3", "", "", ["x"]) }
            output "too_many" { value = provider::aws::arn_parse("a", "b") }
            output "nope"     { value = provider::aws::nope("x") }
            output "foo"      { value = provider::foo::bar("x") }
            """;

    @TempDir
    Path tf;

    @TempDir
    Path st;

    private Path terraform;
    private Path cliConfig;

    @BeforeEach
    void setUp() throws IOException {
        terraform = AwsExamples.prerequisites();
        cliConfig = AwsExamples.cliConfig(st);
    }

    private CliRunner strata() {
        return CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString());
    }

    @Test
    void outputValuesAfterPlanAndApplyMatchTerraform() throws Exception {
        Files.writeString(tf.resolve("main.tf"), CONFIG);
        Files.writeString(st.resolve("main.tf"), CONFIG);

        run(0, "init", "-input=false", "-no-color");
        run(0, "plan", "-out=tf.plan", "-input=false", "-no-color");
        JsonNode theirPlan = JSON.readTree(run(0, "show", "-json", "tf.plan"));
        run(0, "apply", "-input=false", "-no-color", "tf.plan");
        JsonNode theirOutputs = JSON.readTree(run(0, "output", "-json"));

        ok(strata().run("init"));
        ok(strata().run("plan", "-out=st.plan"));
        JsonNode ourPlan =
                JSON.readTree(ok(strata().run("show", "-json", "st.plan")).stdout());
        ok(strata().run("apply", "st.plan"));
        JsonNode ourOutputs = JSON.readTree(ok(strata().run("output", "-json")).stdout());

        JsonNode planned = ourPlan.at("/planned_values/outputs");
        assertThat(planned.path("parsed").path("value").path("resource").asText())
                .isEqualTo("role/path/name");
        assertThat(planned.path("later").has("value")).as("unknown until apply").isFalse();
        assertThat(withoutSensitive(planned, "sensitive", "value"))
                .isEqualTo(withoutSensitive(theirPlan.at("/planned_values/outputs"), "sensitive", "value"));
        assertThat(withoutSensitive(ourPlan.at("/output_changes"), "after_sensitive", "after"))
                .isEqualTo(withoutSensitive(theirPlan.at("/output_changes"), "after_sensitive", "after"));
        assertThat(ourPlan.at("/resource_changes/0/change/after/input"))
                .isEqualTo(theirPlan.at("/resource_changes/0/change/after/input"));

        assertThat(ourOutputs.path("later").path("value").asText()).isEqualTo("arn:aws:s3:::bucket/logs");
        assertThat(ourOutputs.path("secret").path("sensitive").asBoolean()).isTrue();
        // Strata's output -json does not print sensitive values (terraform's does): compare the rest.
        assertThat(withoutSensitive(ourOutputs, "sensitive", "value"))
                .isEqualTo(withoutSensitive(theirOutputs, "sensitive", "value"));
    }

    @Test
    void failingCallsGiveTerraformsDiagnostics() throws Exception {
        Files.writeString(tf.resolve("main.tf"), FAILING);
        Files.writeString(st.resolve("main.tf"), FAILING);

        run(0, "init", "-input=false", "-no-color");
        TreeSet<String> theirs = diagnostics(run(1, "plan", "-json", "-input=false"));
        ok(strata().run("init"));
        CliRunner.Result r = strata().run("plan", "-json", "-input=false");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        TreeSet<String> ours = diagnostics(r.stdout());

        assertThat(theirs).hasSize(5);
        assertThat(ours).containsExactlyElementsOf(theirs);

        // validate evaluates the same calls (constant arguments) and reports the same problems.
        TreeSet<String> theirValidate = validateDiagnostics(run(1, "validate", "-json"));
        CliRunner.Result v = strata().run("validate", "-json");
        assertThat(v.exitCode()).as(v.toString()).isEqualTo(1);
        assertThat(theirValidate).isNotEmpty();
        assertThat(validateDiagnostics(v.stdout())).containsExactlyElementsOf(theirValidate);
    }

    /** The diagnostics of a {@code validate -json} document, as in {@link #diagnostics}. */
    private static TreeSet<String> validateDiagnostics(String json) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        for (JsonNode d : JSON.readTree(json).path("diagnostics")) {
            ObjectNode shape = JSON.createObjectNode();
            shape.set("severity", d.path("severity"));
            shape.set("summary", d.path("summary"));
            shape.set("detail", d.path("detail"));
            shape.set("range", d.path("range"));
            out.add(shape.toString());
        }
        return out;
    }

    /** Each diagnostic of a {@code -json} stream as its severity, summary, detail and range. */
    private static TreeSet<String> diagnostics(String jsonLines) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        for (String line : jsonLines.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            if (n.path("type").asText().equals("diagnostic")) {
                JsonNode d = n.path("diagnostic");
                ObjectNode shape = JSON.createObjectNode();
                shape.set("severity", d.path("severity"));
                shape.set("summary", d.path("summary"));
                shape.set("detail", d.path("detail"));
                shape.set("range", d.path("range"));
                out.add(shape.toString());
            }
        }
        return out;
    }

    /**
     * A copy of the outputs (or output changes) where each one whose {@code flag} is true lacks {@code field}:
     * Strata writes a sensitive output's value as null in a plan's JSON, terraform writes it; the rest is compared.
     */
    private static JsonNode withoutSensitive(JsonNode outputs, String flag, String field) {
        ObjectNode copy = outputs.deepCopy();
        copy.fields().forEachRemaining(e -> {
            if (e.getValue().path(flag).asBoolean()) {
                ((ObjectNode) e.getValue()).remove(field);
            }
        });
        return copy;
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private String run(int expectedExit, String... args) throws IOException, InterruptedException {
        return Terraform.at(terraform, tf).cliConfig(cliConfig).expect(expectedExit, args);
    }
}
