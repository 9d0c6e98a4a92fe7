package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning behaviours compared with the real terraform 1.11 (offline, {@code terraform_data} only): which root
 * outputs a {@code -target} run still plans and applies, check block assertions unknown while planning, and
 * the order of input variable errors. The whole stdout and stderr are compared, with the tool's name and the
 * random ids made neutral, and the exit codes. Skipped without terraform.
 */
class PlanParityDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    private SideBySide both;

    @BeforeEach
    void findTerraform() throws IOException {
        both = SideBySide.assumeTerraform(tf, st);
    }

    private static final String TARGETED = """
            variable "v" { default = "vv" }
            locals {
              la = terraform_data.a.output
              lc = "const"
            }
            resource "terraform_data" "a" { input = "a" }
            resource "terraform_data" "b" { input = "b" }
            output "a" { value = terraform_data.a.output }
            output "aid" { value = terraform_data.a.id }
            output "viaLocal" { value = local.la }
            output "lc" { value = local.lc }
            output "var" { value = var.v }
            output "avar" { value = "${terraform_data.a.output}${var.v}" }
            output "ab" { value = [terraform_data.a.output, terraform_data.b.output] }
            output "viaModule" { value = module.m.o }
            output "moduleConst" { value = module.m.k }
            module "m" {
              source = "./m"
              x      = terraform_data.a.output
            }
            """;

    /**
     * Under {@code -target}, a root output is planned, applied and shown when it derives from a resource and
     * from targeted resources only (through locals, variables and modules); one of constants or variables,
     * or one that also needs an untargeted resource, is left as it is.
     */
    @Test
    void targetedRunsKeepTheOutputsOfTheTargets() throws Exception {
        both.write(
                "m/main.tf",
                "variable \"x\" {}\noutput \"o\" { value = var.x }\n" + "output \"k\" { value = \"k\" }\n");
        both.init(TARGETED);
        String plan = same("plan", "-no-color", "-target=terraform_data.a");
        assertThat(plan)
                .contains("Changes to Outputs:\n  + a         = (known after apply)\n")
                .contains("  + viaModule = (known after apply)\n")
                .doesNotContain("+ lc")
                .doesNotContain("+ ab");
        same("plan", "-no-color", "-target=terraform_data.a", "-out=t.plan");
        JsonNode theirs = json(both.terraform("show", "-json", "t.plan").stdout());
        JsonNode ours = json(both.strata("show", "-json", "t.plan").stdout());
        assertThat(ours.get("output_changes")).isEqualTo(theirs.get("output_changes"));
        assertThat(ours.at("/planned_values/outputs")).isEqualTo(theirs.at("/planned_values/outputs"));
        assertThat(ours.get("output_changes").size()).isEqualTo(5);
        String apply = same("apply", "-auto-approve", "-no-color", "-target=terraform_data.a");
        assertThat(apply).contains("Outputs:\n\na = \"a\"\n").doesNotContain("lc = ");
        same("output", "-json");
        // The rest: the other outputs now, and those of the targets are unchanged.
        same("apply", "-auto-approve", "-no-color", "-target=terraform_data.b");
        same("output", "-json");
    }

    private static final String CHECKED = """
            resource "terraform_data" "a" { input = "a" }
            check "c" {
              assert {
                condition     = terraform_data.a.output == "a"
                error_message = "bad"
              }
            }
            """;

    /**
     * A check block assertion unknown while planning: a warning in {@code plan} (text and JSON), none in
     * {@code apply}, and in {@code test} a plan run that errors (the runs after it skipped).
     */
    @Test
    void checkAssertionsKnownAfterApply() throws Exception {
        both.init(CHECKED);
        assertThat(same("plan", "-no-color"))
                .contains("Warning: Check block assertion known after apply\n\n  on main.tf line 4, in check \"c\":\n")
                .contains("    │ terraform_data.a.output is a string\n");
        assertThat(jsonDiagnostics("plan", "-json"))
                .anyMatch(d -> d.path("summary").asText().equals("Check block assertion known after apply"));
        assertThat(same("apply", "-auto-approve", "-no-color")).doesNotContain("Warning");
        same("destroy", "-auto-approve", "-no-color");
        both.write("c.tftest.hcl", "run \"p\" {\n  command = plan\n}\nrun \"a\" {}\n");
        String test = same("test", "-no-color");
        assertThat(test).contains("  run \"p\"... fail\n").contains("  run \"a\"... skip\n");
        both.write("c.tftest.hcl", "run \"a\" {}\nrun \"p\" {\n  command = plan\n}\n");
        assertThat(same("test", "-no-color")).contains("Success! 2 passed, 0 failed.");
    }

    private static final String VARIABLES = """
            variable "n" {
              type    = number
              default = 1
            }
            variable "env" {
              type    = string
              default = "qa"
              validation {
                condition     = contains(["dev", "prod"], var.env)
                error_message = "Env must be dev or prod."
              }
            }
            variable "o" {
              type     = list(string)
              default  = []
              nullable = false
            }
            resource "terraform_data" "a" { input = var.env }
            """;

    /** {@link #VARIABLES} with a variable that has no default. */
    private static final String REQUIRED = VARIABLES + "variable \"must\" {\n  type = list(string)\n}\n";

    /**
     * An undeclared {@code -var} stops the run before any value is checked; a value of the wrong type is
     * reported beside the failed validation rules, in source order, at the declaration with its source.
     */
    @Test
    void inputVariableErrorsComeInTerraformsOrder() throws Exception {
        both.init(VARIABLES);
        same("plan", "-no-color", "-var", "nope=1");
        same("plan", "-no-color", "-var", "nope=1", "-var", "n=abc");
        sameErrors("plan", "-no-color", "-var", "n=abc");
        // A null for a non-nullable variable with a default takes the default, in both.
        same("plan", "-no-color", "-var", "env=dev", "-var", "o=null");
        sameErrors("plan", "-no-color", "-var", "env=dev", "-var", "o=[[1]]");
        both.write("x.tfvars", "o = null\n");
        same("plan", "-no-color", "-var", "env=dev", "-var-file=x.tfvars");
        // An undeclared -var or a -var that does not parse still lets a missing required value be reported; a
        // variables file that does not parse stops before.
        both.init(REQUIRED);
        same("plan", "-no-color", "-input=false", "-var", "nope=1");
        same("plan", "-no-color", "-input=false", "-var", "must=[");
        same("plan", "-no-color", "-input=false", "-var", "nope=1", "-var", "o=[", "-var", "must=[\"a\"]");
        both.write("y.tfvars", "must = [\n");
        same("plan", "-no-color", "-input=false", "-var-file=y.tfvars");
        both.init(VARIABLES);
        AwsExamples.Run theirs = both.terraform("plan", "-no-color", "-var", "n=abc");
        assertThat(theirs.exitCode()).isEqualTo(1);
        assertThat(neutral(theirs.stderr()))
                .containsSubsequence("on main.tf line 1:", "set using -var=\"n=...\"", "on main.tf line 5:");
    }

    /**
     * {@code ignore_changes} naming attributes the provider alone decides: a warning each, at the resource,
     * in {@code validate} and {@code plan}, shown once with a count of the similar ones.
     */
    @Test
    void redundantIgnoreChangesElementsAreWarnedAbout() throws Exception {
        both.init("""
                resource "terraform_data" "a" {
                  input = "a"
                  lifecycle {
                    ignore_changes = [id, output, input]
                  }
                }
                """);
        assertThat(same("validate", "-no-color"))
                .contains("Warning: Redundant ignore_changes element\n\n  on main.tf line 1, in resource")
                .contains("The attribute id is decided by the provider alone")
                .contains("(and one more similar warning elsewhere)");
        assertThat(same("plan", "-no-color")).contains("Warning: Redundant ignore_changes element");
        assertThat(jsonDiagnostics("plan", "-json")).hasSize(2);
    }

    /**
     * A module's {@code configuration_aliases} (here {@code terraform.alt}, a reference rooted at a name
     * the parser first reads as a keyword when it is {@code null}) must each be passed by its caller.
     */
    @Test
    void configurationAliasesMustBePassedIn() throws Exception {
        both.write("m/main.tf", """
                terraform {
                  required_providers {
                    terraform = {
                      source                = "terraform.io/builtin/terraform"
                      configuration_aliases = [terraform.alt]
                    }
                  }
                }
                resource "terraform_data" "x" {
                  provider = terraform.alt
                }
                """);
        both.write("module \"m\" {\n  source = \"./m\"\n}\n");
        both.terraform("init", "-no-color");
        both.strata("init", "-no-color");
        same("validate", "-no-color");
        AwsExamples.Run theirs = both.terraform("plan", "-no-color");
        CliRunner.Result ours = both.strata("plan", "-no-color");
        assertThat(ours.exitCode()).isEqualTo(theirs.exitCode()).isEqualTo(1);
        assertThat(lines(ours.stderr())).isEqualTo(lines(theirs.stderr()));
        assertThat(ours.stderr()).contains("Error: Missing required provider configuration\n\n  on main.tf line 1:\n");
    }

    /**
     * A value in {@code terraform.tfvars} for an undeclared variable: its warning (with no source range, as
     * Terraform's) follows the plan, before the plan's own warnings, in {@code plan}, {@code apply} and the
     * JSON stream.
     */
    @Test
    void undeclaredVariableWarningsFollowThePlan() throws Exception {
        both.init("""
                resource "terraform_data" "a" {
                  input = "a"
                  lifecycle {
                    ignore_changes = [id]
                  }
                }
                """);
        both.write("terraform.tfvars", "nope = 1\n");
        assertThat(same("plan", "-no-color"))
                .containsSubsequence(
                        "Plan: 1 to add",
                        "Warning: Value for undeclared variable",
                        "Warning: Redundant ignore_changes element",
                        "Note: You didn't use the -out option");
        List<JsonNode> diagnostics = jsonDiagnostics("plan", "-json");
        assertThat(diagnostics).hasSize(2);
        assertThat(diagnostics.getFirst().has("range")).isFalse();
        for (String stream : List.of(
                both.terraform("plan", "-json").stdout(),
                CliRunner.in(st).run("plan", "-json").stdout())) {
            List<String> types =
                    stream.lines().map(l -> json(l).path("type").asText()).toList();
            assertThat(types.indexOf("diagnostic")).as(stream).isGreaterThan(types.indexOf("change_summary"));
        }
        assertThat(same("apply", "-auto-approve", "-no-color"))
                .containsSubsequence("Creation complete", "Warning: Value for undeclared variable", "Apply complete!");
        assertThat(same("destroy", "-auto-approve", "-no-color"))
                .containsSubsequence(
                        "Destruction complete", "Warning: Value for undeclared variable", "Destroy complete!");
    }

    /**
     * Details wrap where terraform's do, line for line (not only the same words): a column short of its 78
     * columns off a terminal (whatever COLUMNS says), and two columns shorter inside the box it draws when
     * colour is on.
     */
    @Test
    void longDetailsWrapWhereTerraformWrapsThem() throws Exception {
        String a = "a".repeat(70);
        both.init("""
                variable "x" {
                  type = string
                  validation {
                    condition     = length(var.x) > 100
                    error_message = "%s bc. %s bcd. %s bcde. %s bcdef. %s bcdefg. x"
                  }
                }
                resource "terraform_data" "r" { input = var.x }
                """.formatted(a, a, a, a, a));
        AwsExamples.Run theirs = both.terraform("plan", "-no-color", "-var", "x=y");
        CliRunner.Result ours = CliRunner.in(st).env("COLUMNS", "200").run("plan", "-no-color", "-var", "x=y");
        assertThat(ours.exitCode()).isEqualTo(theirs.exitCode()).isEqualTo(1);
        assertThat(neutral(ours.stderr())).isEqualTo(neutral(theirs.stderr())).contains(a + " bcdef.\n" + a + "\n");
        // In colour (terraform colours when stdout is not a terminal too; Strata only on one): the text in
        // the box, without the escape codes, is the same.
        AwsExamples.Run boxed = both.terraform("plan", "-var", "x=y");
        CliRunner.Result mine = CliRunner.in(st).terminal(true).run("plan", "-var", "x=y");
        assertThat(plain(mine.stderr())).isEqualTo(plain(boxed.stderr())).contains("│ " + a + " bcd.\n│ " + a + "\n");
    }

    private static String plain(String text) {
        return neutral(text.replaceAll("\u001b\\[[0-9;]*m", ""));
    }

    /** The {@code diagnostic} objects of the commands' JSON streams, compared; Strata's returned. */
    private List<JsonNode> jsonDiagnostics(String... args) throws Exception {
        AwsExamples.Run theirs = both.terraform(args);
        CliRunner.Result ours = both.strata(args);
        assertThat(ours.exitCode()).isEqualTo(theirs.exitCode());
        List<JsonNode> mine = diagnosticsOf(ours.stdout());
        assertThat(mine).isEqualTo(diagnosticsOf(theirs.stdout()));
        return mine;
    }

    private static List<JsonNode> diagnosticsOf(String stream) throws IOException {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (String l : stream.lines().toList()) {
            JsonNode n = json(l);
            if ("diagnostic".equals(n.path("type").asText())) {
                // Parsed again after the tool's name is made neutral: object keys compare in any order.
                // Strata's -json stream gives the range but no snippet (a known gap of its UI stream).
                JsonNode d = json(neutral(n.get("diagnostic").toString()));
                ((com.fasterxml.jackson.databind.node.ObjectNode) d).remove("snippet");
                out.add(d);
            }
        }
        return out;
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Runs the command with both tools, asserts the same exit code, stdout and stderr (tool names and ids
     * neutral), and returns Strata's neutral stdout.
     */
    private String same(String... args) throws Exception {
        AwsExamples.Run theirs = both.terraform(args);
        CliRunner.Result ours = both.strata(args);
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(theirs.exitCode());
        assertThat(lines(ours.stderr())).as(ours.stderr()).isEqualTo(lines(theirs.stderr()));
        assertThat(lines(ours.stdout())).as(ours.stdout()).isEqualTo(lines(theirs.stdout()));
        return neutral(ours.stdout());
    }

    /**
     * As {@link #same}, for errors in the variables' values, which both find while planning: exit code 1, the
     * same stderr, and the same stdout ("Planning failed." or what was planned despite them).
     */
    private void sameErrors(String... args) throws Exception {
        AwsExamples.Run theirs = both.terraform(args);
        CliRunner.Result ours = both.strata(args);
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(lines(ours.stderr())).as(ours.stderr()).isEqualTo(lines(theirs.stderr()));
        assertThat(lines(ours.stdout())).as(ours.stdout()).isEqualTo(lines(theirs.stdout()));
    }

    private static List<String> lines(String text) {
        String kept = String.join(
                "\n",
                text.lines()
                        .filter(l -> !l.contains(": Refreshing state... "))
                        .map(l -> l.replaceAll("\"timestamp\": \"[^\"]*\"", "\"timestamp\": \"<t>\""))
                        .map(l -> l.replaceAll("\"terraform_version\": \"[^\"]*\"", "\"terraform_version\": \"<v>\""))
                        .toList());
        return ExamplesPlanDifferentialIT.comparable(neutral(kept));
    }

    private static String neutral(String text) {
        return text.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                .replaceAll("\\b(terraform|strata) (plan|apply)\\b", "<tool> $2")
                .replaceAll("\\b(Terraform|Strata)\\b", "<tool>");
    }
}
