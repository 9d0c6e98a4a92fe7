package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rego policies written for Terraform (conftest, OPA) keep working on {@code strata show -json
 * PLANFILE}: for the parts of the plan JSON such policies read ({@code format_version},
 * {@code variables}, {@code resource_changes[]} with {@code address}, {@code type}, {@code name},
 * {@code mode}, {@code change.actions}, {@code before}, {@code after}, {@code after_unknown},
 * {@code planned_values}, {@code prior_state}, {@code configuration} with its expressions) Strata's
 * document is Terraform's, for a plan that creates, updates, replaces and deletes. The committed fixture
 * {@code rego/plan.json} (the input of the Rego policy in docs/guardrails.md) is regenerated and must
 * stay identical. OPA itself is not installable here, so the Rego policy is not evaluated.
 */
class PlanJsonForRegoTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path FIXTURE = Path.of("src", "test", "resources", "rego");

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @Test
    void fixtureDocumentStaysIdentical() throws IOException {
        Files.copy(FIXTURE.resolve("main.tf"), st.resolve("main.tf"));
        ok(CliRunner.in(st).run("plan", "-out=tfplan"));
        JsonNode ours = stable(JSON.readTree(
                ok(CliRunner.in(st).run("show", "-json", "tfplan")).stdout()));
        String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(ours) + "\n";
        if (Boolean.getBoolean("strata.regenerate")) {
            Files.writeString(FIXTURE.resolve("plan.json"), text);
        }
        assertThat(text)
                .as("rego/plan.json (regenerate with -Dstrata.regenerate=true and review the difference)")
                .isEqualTo(Files.readString(FIXTURE.resolve("plan.json")));
        assertThat(ours.at("/resource_changes/2/address").asText()).isEqualTo("terraform_data.service[\"web\"]");
        assertThat(ours.at("/resource_changes/2/change/after/input/tags/owner").asText())
                .isEmpty();
    }

    @Test
    void whatRegoPoliciesReadIsTerraformsDocument() throws Exception {
        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        String first = """
                variable "env" {
                  default = "dev"
                }
                variable "token" {
                  default   = "t0ken"
                  sensitive = true
                }
                resource "terraform_data" "keep" {
                  input = { tags = { owner = "a" }, ports = [22, 443] }
                }
                resource "terraform_data" "edit" {
                  input = { tags = { owner = "b", env = var.env } }
                }
                resource "terraform_data" "swap" {
                  input            = "v1"
                  triggers_replace = [var.env]
                }
                resource "terraform_data" "gone" {
                  count = 2
                  input = count.index
                }
                output "edit" { value = terraform_data.edit.output }
                """;
        String second = first.replace("default = \"dev\"", "default = \"prod\"")
                .replace("count = 2", "count = 1")
                .replace(
                        "resource \"terraform_data\" \"keep\"",
                        "resource \"terraform_data\" \"new\" {\n  input = terraform_data.keep.output\n}\nresource \"terraform_data\" \"keep\"");
        Files.writeString(tf.resolve("main.tf"), first);
        Files.writeString(st.resolve("main.tf"), first);
        Terraform t = Terraform.at(terraform.get(), tf);
        t.ok("init", "-input=false", "-no-color");
        t.ok("apply", "-auto-approve", "-input=false", "-no-color");
        ok(CliRunner.in(st).run("apply", "-auto-approve"));
        Files.writeString(tf.resolve("main.tf"), second);
        Files.writeString(st.resolve("main.tf"), second);
        t.ok("plan", "-out=tf.plan", "-input=false", "-no-color");
        JsonNode theirs = stable(JSON.readTree(t.ok("show", "-json", "tf.plan")));
        ok(CliRunner.in(st).run("plan", "-out=st.plan"));
        JsonNode ours = stable(JSON.readTree(
                ok(CliRunner.in(st).run("show", "-json", "st.plan")).stdout()));

        assertThat(actions(theirs))
                .as("the plan covers every action")
                .contains("[\"create\"]", "[\"update\"]", "[\"delete\",\"create\"]", "[\"delete\"]", "[\"no-op\"]");
        // A sensitive variable's value is the one difference: Terraform writes it in clear, Strata as null.
        ObjectNode variables = ((ObjectNode) theirs.get("variables")).deepCopy();
        theirs.at("/configuration/root_module/variables").fields().forEachRemaining(v -> {
            if (v.getValue().path("sensitive").asBoolean()) {
                ((ObjectNode) variables.get(v.getKey())).putNull("value");
            }
        });
        assertThat(variables.at("/token/value").isNull()).isTrue();
        assertThat(ours.get("variables")).as("/variables").isEqualTo(variables);
        // configuration: Terraform's, but for a sensitive variable's default (left out by Strata).
        assertThat(theirs.at("/configuration/root_module/resources").size()).isPositive();
        assertThat(PlanJsonDifferentialTest.configuration(ours))
                .as("/configuration")
                .isEqualTo(PlanJsonDifferentialTest.configuration(theirs));
        for (String path : List.of("/format_version", "/planned_values", "/prior_state")) {
            assertThat(ours.at(path)).as(path).isEqualTo(theirs.at(path));
        }
        assertThat(ours.get("resource_changes").size())
                .isEqualTo(theirs.get("resource_changes").size());
        for (int i = 0; i < theirs.get("resource_changes").size(); i++) {
            JsonNode a = ours.get("resource_changes").get(i);
            JsonNode b = theirs.get("resource_changes").get(i);
            for (String path : List.of(
                    "/address",
                    "/type",
                    "/name",
                    "/mode",
                    "/index",
                    "/provider_name",
                    "/change/actions",
                    "/change/before",
                    "/change/after",
                    "/change/after")) {
                assertThat(a.at(path)).as(b.path("address").asText() + path).isEqualTo(b.at(path));
            }
            // What a policy asks of these (is this attribute unknown / sensitive?) is where they are true; the
            // shape around known values differs for no-op changes (Terraform {}, Strata false leaves).
            for (String path :
                    List.of("/change/after_unknown", "/change/before_sensitive", "/change/after_sensitive")) {
                assertThat(trueLeaves(a.at(path), ""))
                        .as(b.path("address").asText() + path)
                        .isEqualTo(trueLeaves(b.at(path), ""));
            }
        }
    }

    private static List<String> trueLeaves(JsonNode n, String at) {
        List<String> out = new ArrayList<>();
        if (n.isBoolean() && n.booleanValue()) {
            out.add(at);
        } else if (n.isObject()) {
            n.fields().forEachRemaining(e -> out.addAll(trueLeaves(e.getValue(), at + "/" + e.getKey())));
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                out.addAll(trueLeaves(n.get(i), at + "/" + i));
            }
        }
        return out;
    }

    private static List<String> actions(JsonNode plan) {
        List<String> out = new ArrayList<>();
        plan.path("resource_changes")
                .forEach(rc -> out.add(rc.at("/change/actions").toString()));
        return out;
    }

    /**
     * The document without what differs from run to run: the plan's time and the tool's version (also the prior state's), and
     * the ids terraform_data draws at random (their values, not where they are).
     */
    private static JsonNode stable(JsonNode plan) throws IOException {
        ObjectNode copy = ((ObjectNode) plan).deepCopy();
        copy.remove("timestamp");
        copy.remove("terraform_version");
        if (copy.get("prior_state") instanceof ObjectNode prior) {
            prior.remove("terraform_version");
        }
        String s = copy.toString().replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>");
        return JSON.readTree(s);
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
