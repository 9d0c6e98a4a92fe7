package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sensitivity across a module boundary, against terraform 1.11: {@code sensitive = true} on a child
 * module's output marks nothing in the parent (a root output using it plans, applies and prints as
 * Terraform shows it), while a mark the value itself carries (a sensitive variable) still makes every
 * unmarked root output an error, all of them reported on every run, in source order. Skipped without
 * {@code terraform}.
 */
class ChildOutputSensitivityDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern AT = Pattern.compile("on (\\S+) line (\\d+)");

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @Test
    void childOutputSensitiveFlagIsNotCarriedIntoTheParent() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        write(Map.of(
                "m/main.tf", """
                resource "terraform_data" "r" { input = "later" }
                output "secret" {
                  value     = "declared-sensitive"
                  sensitive = true
                }
                output "obj" {
                  value     = { a = "plain", b = terraform_data.r.output }
                  sensitive = true
                }
                """,
                "main.tf", """
                module "m" { source = "./m" }
                output "direct" { value = module.m.secret }
                output "upper" { value = upper(module.m.secret) }
                output "whole" { value = module.m }
                output "attr" { value = module.m.obj.a }
                output "marked" {
                  value     = module.m.secret
                  sensitive = true
                }
                resource "terraform_data" "uses" { input = module.m.secret }
                """));
        Map<String, String> env = Map.of();
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        Terraform.at(terraform, tf).env(env).ok("plan", "-out=tf.plan", "-input=false", "-no-color");
        JsonNode theirs = JSON.readTree(Terraform.at(terraform, tf).env(env).ok("show", "-json", "tf.plan"));
        CliRunner strata = CliRunner.in(st);
        ok(strata.run("plan", "-out=st.plan"));
        JsonNode ours = JSON.readTree(ok(strata.run("show", "-json", "st.plan")).stdout());
        assertThat(PlanJsonDifferentialTest.changes(ours, List.of()))
                .as("resource_changes")
                .isEqualTo(PlanJsonDifferentialTest.changes(theirs, List.of()));
        // Terraform writes a sensitive output's value in clear in show -json; Strata writes null. Compare
        // the others, and the flag of the one declared sensitive at the root.
        assertThat(unlessSensitive(PlanJsonDifferentialTest.outputs(ours)))
                .as("output_changes")
                .isEqualTo(unlessSensitive(PlanJsonDifferentialTest.outputs(theirs)));
        assertThat(ours.at("/output_changes/marked/after_sensitive").asBoolean())
                .isTrue();
        assertThat(theirs.at("/output_changes/marked/after_sensitive").asBoolean())
                .isTrue();

        Terraform.at(terraform, tf).env(env).ok("apply", "-input=false", "-no-color", "tf.plan");
        CliRunner.Result applied = ok(strata.run("apply", "st.plan"));
        assertThat(applied.stdout()).contains("direct = \"declared-sensitive\"").contains("marked = <sensitive>");
        JsonNode tfOutputs = JSON.readTree(Terraform.at(terraform, tf).env(env).ok("output", "-json"));
        JsonNode stOutputs = JSON.readTree(ok(strata.run("output", "-json")).stdout());
        assertThat(stOutputs.path("marked").path("sensitive").asBoolean()).isTrue();
        assertThat(tfOutputs.path("marked").path("sensitive").asBoolean()).isTrue();
        ((com.fasterxml.jackson.databind.node.ObjectNode) stOutputs).remove("marked");
        ((com.fasterxml.jackson.databind.node.ObjectNode) tfOutputs).remove("marked");
        assertThat(stOutputs).as("output -json").isEqualTo(tfOutputs);
        assertThat(ok(strata.run("output", "marked")).stdout()).doesNotContain("declared-sensitive");
    }

    @Test
    void everyUnmarkedSensitiveRootOutputIsReportedOnEveryRunInSourceOrder() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        StringBuilder child = new StringBuilder("variable \"s\" {\n  sensitive = true\n}\n");
        StringBuilder root = new StringBuilder("""
                variable "s" {
                  sensitive = true
                  default   = "hidden-value"
                }
                module "m" {
                  source = "./m"
                  s      = var.s
                }
                output "fine" { value = module.m.plain }
                """);
        child.append("output \"plain\" { value = \"shown\" }\n");
        for (int i = 1; i <= 30; i++) {
            // Some work per child output keeps several of them evaluating while root outputs already fail:
            // the interleaving that made a plan report only some of these errors.
            child.append("output \"o")
                    .append(i)
                    .append("\" { value = \"${var.s}-")
                    .append(i)
                    .append("-${sha256(join(\",\", [for x in range(1000) : \"${x}${var.s}\"]))}\" }\n");
            root.append("output \"o")
                    .append(i)
                    .append("\" { value = module.m.o")
                    .append(i)
                    .append(" }\n");
        }
        write(Map.of("m/main.tf", child.toString(), "main.tf", root.toString()));
        Map<String, String> env = Map.of();
        Terraform.at(terraform, tf).env(env).ok("init", "-input=false", "-no-color");
        ProcessResult theirs = Terraform.at(terraform, tf).env(env).run("plan", "-input=false", "-no-color");
        assertThat(theirs.exitCode()).isEqualTo(1);
        List<String> expected = places(theirs.stderr());
        assertThat(expected).hasSize(30);
        for (int run = 0; run < 8; run++) {
            CliRunner.Result ours = CliRunner.in(st).run("plan");
            assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1);
            assertThat(places(ours.stderr())).as("run " + run).isEqualTo(expected);
            assertThat(ours.stderr() + ours.stdout()).doesNotContain("hidden-value");
        }
    }

    private static List<String> unlessSensitive(List<String> outputs) {
        return outputs.stream().filter(o -> !o.startsWith("marked ")).toList();
    }

    /** Where each "Output refers to sensitive values" error points, in the order printed. */
    private static List<String> places(String stderr) {
        List<String> out = new ArrayList<>();
        for (String block : stderr.split("Error: ")) {
            if (!block.startsWith("Output refers to sensitive values")) {
                continue;
            }
            Matcher m = AT.matcher(block);
            assertThat(m.find()).as(block).isTrue();
            out.add(m.group(1) + ":" + m.group(2));
        }
        return out;
    }

    private void write(Map<String, String> files) throws Exception {
        for (Path dir : List.of(tf, st)) {
            for (var f : files.entrySet()) {
                Path p = dir.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
            }
        }
    }

    private static CliRunner.Result ok(CliRunner.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }
}
