package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The machine-readable UI stream of {@code plan -json} and {@code apply -json} against the real terraform
 * 1.11 on a configuration with state ({@code terraform_data} with count, for_each, a module and outputs):
 * the same messages (type, {@code @message}, every field but the timestamp), in the same phases (version,
 * refreshes, planned changes, the plan's summary and outputs, the apply's operations, its summary and
 * outputs), and for each resource its messages in the same order. Operations on different resources run
 * concurrently in both tools, so their interleaving is not compared. Skipped without terraform.
 */
class JsonUiStreamDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tf;

    @TempDir
    Path st;

    private SideBySide both;

    private static final String MODULE = """
            variable "in" { type = string }
            resource "terraform_data" "m" { input = var.in }
            output "out" { value = terraform_data.m.output }
            """;

    private static final String CONFIG = """
            variable "v" {
              default = "x"
            }
            resource "terraform_data" "a" {
              input = var.v
            }
            resource "terraform_data" "b" {
              count = 2
              input = "${terraform_data.a.output}-${count.index}"
            }
            resource "terraform_data" "e" {
              for_each = toset(["k1", "k2"])
              input    = each.key
            }
            module "child" {
              source = "./child"
              in     = var.v
            }
            output "o" { value = terraform_data.a.output }
            output "m" { value = module.child.out }
            output "s" {
              value     = terraform_data.a.output
              sensitive = true
            }
            """;

    @BeforeEach
    void setUp() throws Exception {
        both = SideBySide.assumeTerraform(tf, st);
        both.write("child/main.tf", MODULE);
        both.init(CONFIG);
        assertThat(both.terraform("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        CliRunner.Result first = both.strata("apply", "-auto-approve", "-no-color");
        assertThat(first.exitCode()).as(first.toString()).isZero();
    }

    @Test
    void planWithStateRefreshesEachObjectAsTerraformDoes() throws Exception {
        List<JsonNode> ours = same("plan", "-json", "-var", "v=y");
        assertThat(ours.stream().map(m -> m.get("type").asText()))
                .contains("refresh_start", "refresh_complete", "planned_change", "change_summary", "outputs");
        assertThat(same("plan", "-json")).noneMatch(m -> m.get("type").asText().equals("planned_change"));
    }

    @Test
    void applyWithStateStreamsAsTerraformDoes() throws Exception {
        List<JsonNode> ours = same("apply", "-json", "-auto-approve", "-var", "v=y");
        assertThat(ours.stream().map(m -> m.get("type").asText()))
                .contains("refresh_start", "refresh_complete", "apply_start", "apply_complete");
    }

    @Test
    void aPlanWithNoOutputsHasNoOutputsMessage() throws Exception {
        both.write("main.tf", "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n");
        assertThat(both.terraform("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        assertThat(both.strata("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        assertThat(same("plan", "-json")).noneMatch(m -> m.get("type").asText().equals("outputs"));
        // An apply with nothing to do still ends with its own summary and the outputs ("Outputs: 0").
        assertThat(same("apply", "-json", "-auto-approve").stream()
                        .map(m -> m.get("@message").asText()))
                .contains("Apply complete! Resources: 0 added, 0 changed, 0 destroyed.", "Outputs: 0");
    }

    @Test
    void aDestroyCountsWhatItDestroyedAndHasNoOutputsMessage() throws Exception {
        List<String> destroyed = same("destroy", "-json", "-auto-approve").stream()
                .map(m -> m.get("@message").asText())
                .toList();
        assertThat(destroyed)
                .contains("Destroy complete! Resources: 6 destroyed.")
                .doesNotContain("Outputs: 0");
        assertThat(same("destroy", "-json", "-auto-approve").stream()
                        .map(m -> m.get("@message").asText()))
                .contains("Destroy complete! Resources: 0 destroyed.");
    }

    /** Runs both tools, compares the streams as the class says, and returns Strata's (normalized). */
    private List<JsonNode> same(String... args) throws Exception {
        AwsExamples.Run theirs = both.terraform(args);
        CliRunner.Result ours = both.strata(args);
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(theirs.exitCode());
        List<JsonNode> t = messages(theirs.stdout());
        List<JsonNode> s = messages(ours.stdout());
        assertThat(texts(s)).as(ours.stdout()).containsExactlyInAnyOrderElementsOf(texts(t));
        assertThat(phases(s)).as("phases in order").isSorted();
        assertThat(byResource(s)).isEqualTo(byResource(t));
        return s;
    }

    private static List<JsonNode> messages(String stdout) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : stdout.lines().toList()) {
            if (!line.isBlank()) {
                out.add(normal(JSON.readTree(line)));
            }
        }
        return out;
    }

    /** Sorted members, ids and tool names neutral, no timestamp, elapsed times zero. */
    private static JsonNode normal(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = JSON.createObjectNode();
            new TreeMap<String, JsonNode>(Map.copyOf(toMap(n))).forEach((k, v) -> {
                switch (k) {
                    case "@timestamp" -> {}
                    case "elapsed_seconds" -> o.put(k, 0);
                    case "terraform" -> o.put(k, "<version>");
                    default -> o.set(k, normal(v));
                }
            });
            if (o.path("type").asText().equals("version")) {
                o.put("@message", "<tool> <version>");
            }
            return o;
        }
        if (n.isArray()) {
            var a = JSON.createArrayNode();
            n.forEach(e -> a.add(normal(e)));
            return a;
        }
        if (n.isTextual()) {
            return TextNode.valueOf(n.asText()
                    .replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                    .replaceAll("after \\d+s", "after <n>s")
                    .replaceAll("^(terraform|strata)\\.ui$", "<tool>.ui"));
        }
        return n;
    }

    private static Map<String, JsonNode> toMap(JsonNode n) {
        Map<String, JsonNode> m = new TreeMap<>();
        n.properties().forEach(e -> m.put(e.getKey(), e.getValue()));
        return m;
    }

    private static List<String> texts(List<JsonNode> ms) {
        return ms.stream().map(JsonNode::toString).toList();
    }

    /** Where each message belongs in the run; Terraform writes the phases one after the other. */
    private static List<Integer> phases(List<JsonNode> ms) {
        List<Integer> out = new ArrayList<>();
        boolean applying = false;
        boolean summarised = false;
        for (JsonNode m : ms) {
            String type = m.get("type").asText();
            if (type.startsWith("apply_")) {
                applying = true;
            }
            String operation = m.path("changes").path("operation").asText();
            if (type.equals("change_summary") && !operation.equals("plan")) {
                summarised = true; // the apply's outputs follow its summary, even when it did nothing
            }
            out.add(
                    switch (type) {
                        case "version" -> 0;
                        case "refresh_start", "refresh_complete" -> 1;
                        case "planned_change" -> 2;
                        case "change_summary" -> operation.equals("plan") ? 3 : 6;
                        case "outputs" -> applying || summarised ? 7 : 4;
                        default -> 5;
                    });
        }
        return out;
    }

    /** Each resource's messages in their order. */
    private static Map<String, List<String>> byResource(List<JsonNode> ms) {
        Map<String, List<String>> out = new TreeMap<>();
        for (JsonNode m : ms) {
            JsonNode r = m.path("hook").path("resource");
            if (r.isMissingNode()) {
                r = m.path("change").path("resource");
            }
            if (!r.isMissingNode()) {
                out.computeIfAbsent(r.path("addr").asText(), k -> new ArrayList<>())
                        .add(m.get("type").asText());
            }
        }
        return out;
    }
}
