package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan, apply and validate texts against the real terraform 1.11 (offline, {@code terraform_data} only), for
 * behaviours where Strata once differed: {@code &&}/{@code ||} beside an unknown operand, where the
 * {@code -target} warnings go, validate's last line. The whole stdout and stderr are compared, with only
 * the tool's name and the random ids made neutral. Skipped without terraform.
 */
class PlanTextsDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    private SideBySide both;

    @BeforeEach
    void findTerraform() throws IOException {
        both = SideBySide.assumeTerraform(tf, st);
    }

    /** Terraform 1.11 does not short-circuit: {@code false && unknown} is unknown until the apply. */
    @Test
    void logicalOperatorsWithAnUnknownOperandAreUnknown() throws Exception {
        both.init("""
                resource "terraform_data" "u" { input = "x" }
                output "and" { value = false && terraform_data.u.output == "x" }
                output "or"  { value = true || terraform_data.u.output == "x" }
                output "known" { value = false && true }
                """);
        String out = same("plan", "-no-color");
        assertThat(out).contains("  + and   = (known after apply)\n").contains("  + or    = (known after apply)\n");
        same("apply", "-auto-approve", "-no-color");
    }

    /**
     * The targeting warning is one of the plan's diagnostics: after the plan (after the apply's progress), and
     * an apply of a targeted plan (also one with nothing to do, also a saved one) ends with "Applied changes
     * may be incomplete".
     */
    @Test
    void targetingWarningsFollowThePlanAndTheApply() throws Exception {
        both.init("""
                resource "terraform_data" "a" { input = 1 }
                resource "terraform_data" "b" { input = 2 }
                """);
        String plan = same("plan", "-no-color", "-target=terraform_data.a");
        assertThat(plan.indexOf("Warning: Resource targeting is in effect"))
                .isGreaterThan(plan.indexOf("Plan: 1 to add"));
        String apply = same("apply", "-auto-approve", "-no-color", "-target=terraform_data.a");
        assertThat(apply)
                .containsSubsequence(
                        "Creation complete",
                        "Warning: Resource targeting is in effect",
                        "Warning: Applied changes may be incomplete",
                        "<tool> plan",
                        "Apply complete!");
        assertThat(same("apply", "-auto-approve", "-no-color", "-target=terraform_data.a"))
                .containsSubsequence("No changes.", "Warning: Applied changes may be incomplete", "Apply complete!");
        same("plan", "-no-color", "-target=terraform_data.b", "-out=t.plan");
        assertThat(same("apply", "-no-color", "t.plan"))
                .contains("Warning: Applied changes may be incomplete")
                .doesNotContain("Resource targeting is in effect");
    }

    /**
     * A dynamically typed attribute ({@code terraform_data.input}) diffs as JSON: a null attribute that goes
     * is shown ({@code - n = null}) and one that stays counts among the hidden unchanged ones.
     */
    @Test
    void nullsInDynamicValuesAreShownAndCounted() throws Exception {
        both.init("""
                variable "v" {
                  type    = any
                  default = { a = "x", n = null, m = 1, l = [1, null] }
                }
                resource "terraform_data" "x" {
                  input = var.v
                }
                """);
        same("apply", "-auto-approve", "-no-color");
        assertThat(same("plan", "-no-color", "-var", "v={a=\"y\"}")).contains("          - n = null\n");
        assertThat(same("plan", "-no-color", "-var", "v={a=\"x\", n=null, m=2, l=[1, null]}"))
                .contains("            # (3 unchanged attributes hidden)\n");
        assertThat(same("plan", "-destroy", "-no-color")).contains("          - n = null\n");
    }

    /** Removing terraform_data's input plans its output unknown, not null. */
    @Test
    void removingAnInputPlansTheOutputUnknown() throws Exception {
        both.init("resource \"terraform_data\" \"x\" {\n  input = \"x\"\n}\n");
        same("apply", "-auto-approve", "-no-color");
        both.write("resource \"terraform_data\" \"x\" {\n}\n");
        assertThat(same("plan", "-no-color")).contains("~ output = \"x\" -> (known after apply)");
    }

    /** Validate's success line ends with a blank line (ValidateCommandTest has the one after warnings). */
    @Test
    void validateEndsAsTerraformDoes() throws Exception {
        both.init("variable \"a\" {}\n");
        assertThat(same("validate", "-no-color")).isEqualTo("Success! The configuration is valid.\n\n");
    }

    /**
     * Runs the command with both tools, asserts the same exit code, stdout and stderr (tool names and ids
     * neutral), and returns Strata's neutral stdout. Prose is compared with its line breaks, except for
     * the paragraphs whose wrapping moves with the tool's name.
     */
    private String same(String... args) throws Exception {
        AwsExamples.Run theirs = both.terraform(args);
        CliRunner.Result ours = both.strata(args);
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(theirs.exitCode());
        assertThat(lines(ours.stderr())).isEqualTo(lines(theirs.stderr()));
        List<String> mine = lines(ours.stdout());
        assertThat(mine).as(ours.stdout()).isEqualTo(lines(theirs.stdout()));
        return neutral(ours.stdout());
    }

    private static List<String> lines(String text) {
        String kept = String.join(
                "\n",
                text.lines().filter(l -> !l.contains(": Refreshing state... ")).toList());
        List<String> l = ExamplesPlanDifferentialIT.comparable(neutral(kept));
        // The last blank lines are part of the text (validate ends with one), which lines() would lose.
        int blanks = 0;
        for (int i = text.length() - 1; i >= 0 && text.charAt(i) == '\n'; i--) {
            blanks++;
        }
        return java.util.stream.Stream.concat(l.stream(), java.util.stream.Stream.of("<" + blanks + " newlines>"))
                .toList();
    }

    private static String neutral(String text) {
        return text.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                .replaceAll("\\b(terraform|strata) plan\\b", "<tool> plan")
                .replaceAll("\\b(Terraform|Strata)\\b", "<tool>");
    }
}
