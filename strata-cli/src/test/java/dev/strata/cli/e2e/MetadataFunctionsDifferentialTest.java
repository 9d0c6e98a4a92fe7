package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code metadata functions -json} against terraform 1.11's: the same function names, and for every
 * function the same parameters (names, types, nullability), variadic parameter and result type.
 * Descriptions are Terraform's own prose and Strata has none, so they are left out of the comparison.
 * Skipped where terraform is not on the PATH.
 */
class MetadataFunctionsDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The signatures that differ on purpose, and why. */
    private static final Map<String, String> KNOWN = Map.of(
            "templatestring",
            "Strata derives the result type by type-checking a call, and its templatestring leaves the result "
                    + "unknown of unknown type while the vars argument's type is not known, so the derived type is "
                    + "dynamic where Terraform's declared one is string",
            "core::templatestring",
            "the same function as templatestring");

    @TempDir
    Path dir;

    @Test
    void signaturesMatchTerraform() throws Exception {
        Terraform terraform = Terraform.in(dir);
        JsonNode expected = JSON.readTree(terraform.ok("metadata", "functions", "-json"));
        CliRunner.Result run = CliRunner.in(dir).run("metadata", "functions", "-json");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode actual = JSON.readTree(run.stdout());

        assertThat(actual.get("format_version").asText())
                .isEqualTo(expected.get("format_version").asText());
        Map<String, JsonNode> ours = signatures(actual);
        Map<String, JsonNode> theirs = signatures(expected);
        assertThat(new TreeSet<>(ours.keySet())).isEqualTo(new TreeSet<>(theirs.keySet()));

        List<String> differences = new ArrayList<>();
        for (String name : theirs.keySet()) {
            if (!ours.get(name).equals(theirs.get(name))) {
                differences.add(name);
            }
        }
        assertThat(differences)
                .as("functions whose signatures differ from terraform's")
                .containsExactlyInAnyOrderElementsOf(KNOWN.keySet());
    }

    @Test
    void withoutJsonItIsAnError() {
        CliRunner.Result run = CliRunner.in(dir).run("metadata", "functions");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).contains("requires the -json flag");
    }

    /** The signatures by name, without descriptions. */
    private static Map<String, JsonNode> signatures(JsonNode doc) {
        Map<String, JsonNode> out = new TreeMap<>();
        doc.get("function_signatures").properties().forEach(e -> {
            ObjectNode sig = e.getValue().deepCopy();
            sig.remove("description");
            sig.withArray("parameters").forEach(p -> ((ObjectNode) p).remove("description"));
            if (sig.get("parameters").isEmpty()) {
                sig.remove("parameters");
            }
            if (sig.has("variadic_parameter")) {
                ((ObjectNode) sig.get("variadic_parameter")).remove("description");
            }
            out.put(e.getKey(), sig);
        });
        return out;
    }
}
