package dev.strata.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -exclude} (OpenTofu 1.9+) through the real CLI: plan, apply, destroy, refresh and saved plans. */
class ExcludeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** b depends on a; c on nothing. */
    private static final String CONFIG = """
            resource "terraform_data" "a" { input = "a1" }
            resource "terraform_data" "b" { input = terraform_data.a.output }
            resource "terraform_data" "c" { input = "c1" }
            """;

    @TempDir
    Path dir;

    private CliRunner.Result run(String... args) {
        return CliRunner.in(dir).run(args);
    }

    private CliRunner.Result ok(String... args) {
        CliRunner.Result r = run(args);
        assertEquals(0, r.exitCode(), r::toString);
        return r;
    }

    private void config(String text) throws IOException {
        Files.writeString(dir.resolve("main.tf"), text);
    }

    /** Each resource's input in the state, by name. */
    private Map<String, String> inputs() throws IOException {
        Map<String, String> out = new TreeMap<>();
        if (!Files.exists(dir.resolve("terraform.tfstate"))) {
            return out;
        }
        for (JsonNode r :
                JSON.readTree(dir.resolve("terraform.tfstate").toFile()).get("resources")) {
            // terraform_data's input is dynamic: stored with its type.
            JsonNode in = r.get("instances").get(0).get("attributes").get("input");
            out.put(r.get("name").asText(), in.isObject() ? in.path("value").asText() : in.asText());
        }
        return out;
    }

    private static List<String> planned(String stdout) {
        List<String> out = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (line.startsWith("  # ")) {
                out.add(line.substring(4));
            }
        }
        return out;
    }

    @Test
    void planLeavesOutTheExcludedResourceAndWhatDependsOnIt() throws IOException {
        config(CONFIG);
        CliRunner.Result r = ok("plan", "-exclude=terraform_data.a");
        assertEquals(List.of("terraform_data.c will be created"), planned(r.stdout()), r.stdout());
        assertTrue(r.stdout().contains("Plan: 1 to add, 0 to change, 0 to destroy."), r.stdout());
        assertTrue(r.stdout().contains("Warning: Resource exclusion is in effect"), r.toString());
        assertTrue(r.stdout().contains("The -exclude option is not for routine use"), r.toString());
        assertFalse(r.stdout().contains("Resource targeting is in effect"), r.toString());
    }

    @Test
    void applyLeavesExcludedObjectsUntouched() throws IOException {
        config(CONFIG);
        ok("apply", "-auto-approve");
        config(CONFIG.replace("a1", "a2").replace("c1", "c2"));
        CliRunner.Result r = ok("apply", "-auto-approve", "-exclude=terraform_data.a");
        assertTrue(r.stdout().contains("Apply complete! Resources: 0 added, 1 changed, 0 destroyed."), r.stdout());
        assertEquals(Map.of("a", "a1", "b", "a1", "c", "c2"), inputs());
        // Without the exclusion the rest follows.
        ok("apply", "-auto-approve");
        assertEquals(Map.of("a", "a2", "b", "a2", "c", "c2"), inputs());
    }

    @Test
    void excludingOneInstanceLeavesTheOthers() throws IOException {
        config("""
                resource "terraform_data" "n" {
                  count = 3
                  input = count.index
                }
                """);
        CliRunner.Result r = ok("apply", "-auto-approve", "-exclude=terraform_data.n[1]");
        assertTrue(r.stdout().contains("Apply complete! Resources: 2 added, 0 changed, 0 destroyed."), r.stdout());
        assertFalse(r.stdout().contains("terraform_data.n[1]"), r.stdout());
    }

    @Test
    void targetAndExcludeTogetherAreAnError() throws IOException {
        config(CONFIG);
        CliRunner.Result r = run("plan", "-target=terraform_data.c", "-exclude=terraform_data.a");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Error: Invalid combination of arguments"), r.toString());
        assertTrue(r.stderr().contains("-target and -exclude options cannot be used together"), r.toString());
        CliRunner.Result apply = run("apply", "-auto-approve", "-target=terraform_data.c", "-exclude=terraform_data.a");
        assertEquals(1, apply.exitCode(), apply::toString);
        assertEquals(Map.of(), inputs());
    }

    @Test
    void aMalformedExcludeIsAnError() throws IOException {
        config(CONFIG);
        CliRunner.Result r = run("plan", "-exclude=terraform_data");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Error: Invalid exclude \"terraform_data\""), r.toString());
    }

    @Test
    void aSavedPlanKeepsItsExcludes() throws IOException {
        config(CONFIG);
        ok("plan", "-exclude=terraform_data.a", "-out=p.plan");
        // Applying the plan with other excludes would apply something other than what was reviewed.
        CliRunner.Result other = run("apply", "-exclude=terraform_data.c", "p.plan");
        assertEquals(1, other.exitCode(), other::toString);
        assertTrue(other.stderr().contains("Option conflicts with the saved plan"), other.toString());
        assertTrue(other.stderr().contains("-exclude=terraform_data.a"), other.toString());
        // The same excludes agree with the plan.
        CliRunner.Result r = ok("apply", "-exclude=terraform_data.a", "p.plan");
        assertTrue(r.stdout().contains("Apply complete! Resources: 1 added, 0 changed, 0 destroyed."), r.stdout());
        assertEquals(Map.of("c", "c1"), inputs());
    }

    @Test
    void destroyKeepsTheExcludedObjectAndWhatItDependsOn() throws IOException {
        config(CONFIG);
        ok("apply", "-auto-approve");
        CliRunner.Result r = ok("destroy", "-auto-approve", "-exclude=terraform_data.b");
        assertTrue(r.stdout().contains("Destroy complete! Resources: 1 destroyed."), r.stdout());
        assertEquals(Map.of("a", "a1", "b", "a1"), inputs());
    }

    @Test
    void refreshTakesExcludes() throws IOException {
        config(CONFIG);
        ok("apply", "-auto-approve");
        CliRunner.Result r = ok("refresh", "-exclude=terraform_data.a");
        assertTrue(r.stdout().contains("Resource exclusion is in effect"), r.toString());
        assertEquals(Map.of("a", "a1", "b", "a1", "c", "c1"), inputs());
    }
}
