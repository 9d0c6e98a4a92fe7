package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code import} blocks with {@code for_each} (Terraform 1.7+) against the real terraform 1.11 on
 * {@code terraform_data}, which imports offline: the plan text and exit code of each configuration,
 * and the diagnostics of the broken ones. Skipped where terraform is not on the PATH.
 */
class ImportForEachDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("map over for_each resource", """
                        locals {
                          ids = { a = "id-a", b = "id-b" }
                        }
                        import {
                          for_each = local.ids
                          to       = terraform_data.x[each.key]
                          id       = each.value
                        }
                        resource "terraform_data" "x" {
                          for_each = local.ids
                        }
                        """),
                Arguments.of("list into count, id from each.value", """
                        import {
                          for_each = ["a", "b"]
                          to       = terraform_data.x[each.key]
                          id       = "id-${each.value}"
                        }
                        resource "terraform_data" "x" {
                          count = 2
                        }
                        """),
                Arguments.of("set of objects into module instances", """
                        variable "envs" {
                          default = { dev = "d-1", prod = "p-1" }
                        }
                        module "m" {
                          source   = "./m"
                          for_each = var.envs
                        }
                        import {
                          for_each = var.envs
                          to       = module.m[each.key].terraform_data.y
                          id       = each.value
                        }
                        """),
                Arguments.of("null for_each imports nothing", """
                        import {
                          for_each = null
                          to       = terraform_data.x[each.key]
                          id       = each.value
                        }
                        resource "terraform_data" "x" {
                          for_each = toset(["k"])
                        }
                        """),
                Arguments.of("unknown for_each", """
                        resource "terraform_data" "a" {
                          input = "x"
                        }
                        import {
                          for_each = toset([terraform_data.a.output])
                          to       = terraform_data.x[each.key]
                          id       = each.value
                        }
                        resource "terraform_data" "x" {
                          for_each = toset(["p"])
                        }
                        """),
                Arguments.of("not a collection", """
                        import {
                          for_each = "abc"
                          to       = terraform_data.x[each.key]
                          id       = each.value
                        }
                        resource "terraform_data" "x" {
                          for_each = toset(["k"])
                        }
                        """),
                Arguments.of("key into a resource without for_each", """
                        import {
                          for_each = toset(["k", "b"])
                          to       = terraform_data.nope[each.key]
                          id       = each.value
                        }
                        """),
                Arguments.of("no key into a for_each resource", """
                        import {
                          for_each = toset(["k", "b"])
                          to       = terraform_data.x
                          id       = each.value
                        }
                        resource "terraform_data" "x" {
                          for_each = toset(["k", "b"])
                        }
                        """),
                Arguments.of("variable in the to key", """
                        variable "k" {
                          default = "k"
                        }
                        import {
                          for_each = toset(["k"])
                          to       = terraform_data.x[var.k]
                          id       = each.value
                        }
                        resource "terraform_data" "x" {
                          for_each = toset(["k"])
                        }
                        """),
                Arguments.of("key the resource does not have", """
                        import {
                          for_each = toset(["k", "zz"])
                          to       = terraform_data.x[each.key]
                          id       = each.value
                        }
                        resource "terraform_data" "x" {
                          for_each = toset(["k"])
                        }
                        """),
                Arguments.of("module instance that does not exist", """
                        module "m" {
                          source   = "./m"
                          for_each = toset(["a"])
                        }
                        import {
                          to = module.m["c"].terraform_data.y
                          id = "c"
                        }
                        """),
                Arguments.of("no configuration", """
                        import {
                          to = terraform_data.nope
                          id = "a"
                        }
                        """));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void planMatchesTerraform(String name, String config) throws Exception {
        Terraform terraform = Terraform.in(tf);
        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("main.tf"), config);
            Files.createDirectories(d.resolve("m"));
            Files.writeString(d.resolve("m/main.tf"), "resource \"terraform_data\" \"y\" {}\n");
        }
        terraform.ok("init", "-no-color");
        ProcessResult t = terraform.run("plan", "-no-color");
        CliRunner.Result s = strata().run("plan", "-no-color");
        assertThat(s.exitCode())
                .as(name + "\n" + s + "\nterraform:\n" + t.stdout() + t.stderr())
                .isEqualTo(t.exitCode());
        assertThat(text(s.stderr())).as(name).isEqualTo(text(t.stderr()));
        if (t.exitCode() == 0) {
            assertThat(text(s.stdout())).as(name).isEqualTo(text(t.stdout()));
        }
    }

    /** Imports apply: the objects are in state with their ids, and the next plan has nothing to do. */
    @Test
    void appliedImportsAreInState() throws Exception {
        Files.writeString(st.resolve("main.tf"), """
                import {
                  for_each = { a = "id-a", b = "id-b" }
                  to       = terraform_data.x[each.key]
                  id       = each.value
                }
                resource "terraform_data" "x" {
                  for_each = toset(["a", "b"])
                }
                """);
        CliRunner.Result apply = strata().run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        String state = Files.readString(st.resolve("terraform.tfstate"));
        assertThat(state).contains("\"id\": \"id-a\"").contains("\"id\": \"id-b\"");
        CliRunner.Result again = strata().run("plan", "-no-color", "-detailed-exitcode");
        assertThat(again.exitCode()).as(again.toString()).isZero();
    }

    /**
     * The apply's progress and summary for imports, as terraform prints them: "Importing..." and
     * "Import complete" with the id, counted as imported (not added) in "Apply complete!".
     */
    @Test
    void applyReportsImportsAsTerraformDoes() throws Exception {
        String config = """
                import {
                  for_each = { a = "id-a", b = "id-b" }
                  to       = terraform_data.x[each.key]
                  id       = each.value
                }
                resource "terraform_data" "x" {
                  for_each = toset(["a", "b"])
                }
                resource "terraform_data" "y" {
                  input = "fixed"
                }
                """;
        Terraform terraform = Terraform.in(tf);
        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("main.tf"), config);
        }
        terraform.ok("init", "-no-color");
        ProcessResult t = terraform.run("apply", "-auto-approve", "-no-color");
        CliRunner.Result s = strata().run("apply", "-auto-approve", "-no-color");
        assertThat(s.exitCode())
                .as(s + "\nterraform:\n" + t.stdout() + t.stderr())
                .isEqualTo(t.exitCode())
                .isZero();
        assertThat(applyLines(s.stdout())).isEqualTo(applyLines(t.stdout()));
        assertThat(t.stdout()).contains("Resources: 2 imported, 1 added, 0 changed, 0 destroyed.");
    }

    /** With -json there is no message per import (as in Terraform), only the count in the change summary. */
    @Test
    void jsonApplyCountsImportsAsTerraformDoes() throws Exception {
        String config = """
                import {
                  to = terraform_data.x
                  id = "id-1"
                }
                resource "terraform_data" "x" {}
                """;
        Terraform terraform = Terraform.in(tf);
        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("main.tf"), config);
        }
        terraform.ok("init", "-no-color");
        ProcessResult t = terraform.run("apply", "-auto-approve", "-json");
        CliRunner.Result s = strata().run("apply", "-auto-approve", "-json");
        assertThat(s.exitCode()).as(s.toString()).isEqualTo(t.exitCode()).isZero();
        assertThat(summaries(s.stdout())).isEqualTo(summaries(t.stdout()));
        assertThat(summaries(t.stdout())).anyMatch(l -> l.contains("\"import\":1"));
    }

    /** The change_summary messages and changes of a JSON stream, without timestamps. */
    private static List<String> summaries(String out) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<String> l = new java.util.ArrayList<>();
        for (String line : out.lines().toList()) {
            com.fasterxml.jackson.databind.JsonNode m = json.readTree(line);
            if (m.path("type").asText().equals("change_summary")) {
                l.add(m.path("@message").asText() + " " + m.path("changes"));
            }
        }
        return l;
    }

    /** The progress lines of imports (sorted: they run concurrently) and the summary line. */
    private static List<String> applyLines(String out) {
        return out.lines()
                .filter(l -> l.contains(": Import") || l.startsWith("Apply complete!"))
                .sorted()
                .toList();
    }

    /** Comparable lines: tool names neutral, no progress lines (their order varies). */
    private static List<String> text(String out) {
        List<String> l = new java.util.ArrayList<>(ExamplesPlanDifferentialIT.comparable(out).stream()
                .filter(x -> !x.contains("Preparing import...") && !x.contains("Refreshing state..."))
                // Strata's diagnostics do not list the values of the expression's references yet.
                .filter(x -> !x.startsWith("    ├") && !x.startsWith("    │"))
                .map(x -> x.replaceAll("\\b(terraform|strata) plan\\b", "<tool> plan"))
                .toList());
        while (!l.isEmpty() && l.getLast().isBlank()) {
            l.removeLast();
        }
        return l;
    }

    private CliRunner strata() {
        return CliRunner.in(st).env("TF_IN_AUTOMATION", "1");
    }
}
