package dev.strata.cli.e2e;

import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The human plan and apply text ({@code -no-color}) of Strata against the real terraform 1.11, for the
 * shapes where they used to differ: output values holding nulls and maps, the rule before
 * "Saved the plan to", the next-step hints under {@code TF_IN_AUTOMATION}, apply and destroy with
 * nothing to do, and (with the AWS provider 5.100 from the mirror) the legacy SDK's empty strings in
 * nested blocks, consecutive blocks of one type, wholly unknown blocks and data resources listed
 * before managed ones, and strings with control characters and template sequences. Compared as {@link ExamplesPlanDifferentialIT#comparable} does (the tool's name
 * neutral, prose paragraphs joined). Skipped without terraform (and, for AWS, the mirror).
 */
class PlanTextDifferentialTest {
    private static final Map<String, String> AUTOMATION = Map.of("TF_IN_AUTOMATION", "1");

    @TempDir
    Path tf;

    @TempDir
    Path st;

    private static final String OUTPUTS = """
            resource "terraform_data" "x" { input = "a" }
            output "o" {
              value = {
                a  = null
                m  = tomap({ K = "v", "a b" = "w" })
                id = terraform_data.x.id
                l  = [null, "x"]
              }
            }
            """;

    @Test
    void planAndApplyTextsMatchTerraform() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path cliConfig = AwsExamples.cliConfig(tf);
        Files.writeString(tf.resolve("main.tf"), OUTPUTS);
        Files.writeString(st.resolve("main.tf"), OUTPUTS);

        AwsExamples.Run tfInit = AwsExamples.terraform(terraform, tf, cliConfig, AUTOMATION, "init", "-no-color");
        CliRunner.Result stInit = strata(AUTOMATION).run("init", "-no-color");
        assertThat(tfInit.stdout()).endsWith("Terraform has been successfully initialized!\n");
        assertThat(stInit.stdout()).endsWith("Strata has been successfully initialized!\n");

        // Outputs with null attributes and a map; the rule and "Saved the plan to" after a saved plan.
        same(
                tfRun(terraform, cliConfig, Map.of(), "plan", "-out=p.plan", "-no-color"),
                strata(Map.of()).run("plan", "-out=p.plan", "-no-color"));
        // Under TF_IN_AUTOMATION no hint follows the plan, saved or not.
        same(
                tfRun(terraform, cliConfig, AUTOMATION, "plan", "-no-color"),
                strata(AUTOMATION).run("plan", "-no-color"));
        same(
                tfRun(terraform, cliConfig, AUTOMATION, "plan", "-out=p.plan", "-no-color"),
                strata(AUTOMATION).run("plan", "-out=p.plan", "-no-color"));

        tfRun(terraform, cliConfig, Map.of(), "apply", "-auto-approve", "-no-color");
        assertThat(strata(Map.of()).run("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        // Nothing to change: still "Apply complete!" and the outputs.
        same(
                tfRun(terraform, cliConfig, Map.of(), "apply", "-auto-approve", "-no-color"),
                strata(Map.of()).run("apply", "-auto-approve", "-no-color"));
        tfRun(terraform, cliConfig, Map.of(), "destroy", "-auto-approve", "-no-color");
        assertThat(strata(Map.of()).run("destroy", "-auto-approve", "-no-color").exitCode())
                .isZero();
        Files.writeString(tf.resolve("main.tf"), "resource \"terraform_data\" \"x\" { input = \"a\" }\n");
        Files.writeString(st.resolve("main.tf"), "resource \"terraform_data\" \"x\" { input = \"a\" }\n");
        // Nothing to destroy: its own wording, then "Destroy complete!".
        same(
                tfRun(terraform, cliConfig, Map.of(), "destroy", "-auto-approve", "-no-color"),
                strata(Map.of()).run("destroy", "-auto-approve", "-no-color"));
    }

    /** Strings in plans and state are quoted as Go's strconv.Quote does: {@code \x01}, and "${" left alone. */
    @Test
    void stringsAreQuotedAsTerraformQuotesThem() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path cliConfig = AwsExamples.cliConfig(tf);
        String config = """
                resource "terraform_data" "q" { input = "a\\u0001b\\u007fc\\"$${d}\\t%%{e}" }
                """;
        Files.writeString(tf.resolve("main.tf"), config);
        Files.writeString(st.resolve("main.tf"), config);
        AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "init", "-no-color");
        same(
                tfRun(terraform, cliConfig, Map.of(), "apply", "-auto-approve", "-no-color"),
                strata(Map.of()).run("apply", "-auto-approve", "-no-color"));
        same(
                tfRun(terraform, cliConfig, Map.of(), "state", "show", "-no-color", "terraform_data.q"),
                strata(Map.of()).run("state", "show", "-no-color", "terraform_data.q"));
    }

    /**
     * Values that change between two applies, as the plan shows them: strings holding JSON as
     * {@code jsonencode(...)} with the change inside, strings of several lines line by line, outputs and
     * dynamically typed attributes diffed as JSON (lists element by element in Terraform's order, unchanged
     * elements away from a change hidden), and output names aligned over all outputs. Then {@code show}.
     */
    private static final String CHANGES = """
            variable "stage" {
              type    = number
              default = 1
            }
            locals {
              s1 = var.stage == 1
            }
            resource "terraform_data" "policy" {
              input = jsonencode({
                Version   = "2012-10-17"
                Statement = [{ Effect = "Allow", Action = local.s1 ? ["s3:Get"] : ["s3:Get", "s3:Put"] }]
              })
            }
            resource "terraform_data" "lines" {
              input = local.s1 ? "a\\n\\nb\\nc\\n" : "a\\n\\nB\\nc\\nd\\n"
            }
            resource "terraform_data" "kinds" {
              input = local.s1 ? jsonencode({ a = 1 }) : jsonencode([1])
            }
            resource "terraform_data" "to_text" {
              input = [local.s1 ? jsonencode({ a = 1 }) : "x\\ny", " {\\"a\\": 1}", "null", jsonencode({})]
            }
            output "a_list" { value = jsondecode(local.s1 ? "[\\"a\\",\\"b\\",\\"c\\"]" : "[\\"a\\",\\"c\\",\\"d\\"]") }
            output "b_perm" { value = jsondecode(local.s1 ? "[\\"a\\",\\"b\\",\\"c\\"]" : "[\\"c\\",\\"b\\",\\"a\\"]") }
            output "c_dups" { value = jsondecode(local.s1 ? "[\\"c\\",\\"c\\"]" : "[\\"c\\",\\"d\\"]") }
            output "d_long" { value = jsondecode(local.s1 ? "[1,2,3,4,5,6,7,8,9,10]" : "[1,2,3,4,5,6,7,8,9,11]") }
            output "e_objs" {
              value = jsondecode(local.s1 ? "[\\"f\\",\\"e\\",{\\"n\\":\\"x\\"}]" : "[{\\"n\\":\\"y\\"}]")
            }
            output "f_obj" {
              value = local.s1 ? { id = "i", n = 1, m = { x = 1, y = 2 } } : { id = terraform_data.lines.id, n = 1, m = { x = 1, y = 3 } }
            }
            output "g_json" { value = jsonencode(local.s1 ? { q = [1, 2] } : { q = [1, 3] }) }
            output "h_unchanged_but_long_name" { value = "same" }
            """;

    @Test
    void changedValuesRenderAsTerraformRendersThem() throws Exception {
        Tools t = initialized(CHANGES);
        Path terraform = t.terraform();
        Path cliConfig = t.cliConfig();
        same(
                tfRun(terraform, cliConfig, Map.of(), "plan", "-no-color"),
                strata(Map.of()).run("plan", "-no-color"));
        // Applied apart: the order of the progress lines of concurrent creates is not fixed.
        tfRun(terraform, cliConfig, Map.of(), "apply", "-auto-approve", "-no-color");
        CliRunner.Result apply = strata(Map.of()).run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        same(
                tfRun(terraform, cliConfig, Map.of(), "show", "-no-color"),
                strata(Map.of()).run("show", "-no-color"));
        same(
                tfRun(terraform, cliConfig, Map.of(), "plan", "-refresh=false", "-var=stage=2", "-no-color"),
                strata(Map.of()).run("plan", "-refresh=false", "-var=stage=2", "-no-color"));
    }

    /**
     * A plan that finds errors shows, before them, what it planned all the same ("planned the following
     * actions, but then encountered a problem", or only the outputs' changes), without the outputs that
     * failed and the object whose precondition failed; with nothing planned, "Planning failed."; an apply
     * the same, and applies nothing.
     */
    @Test
    void aPlanWithErrorsShowsWhatItPlanned() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path cliConfig = AwsExamples.cliConfig(tf);
        String config = """
                variable "l" {
                  default = []
                }
                resource "terraform_data" "r" {}
                output "ok" { value = 1 }
                output "a" { value = tolist(var.l)[0] }
                """;
        String outputsOnly = """
                variable "ok" {
                  default = false
                }
                resource "terraform_data" "a" {
                  lifecycle {
                    precondition {
                      condition     = var.ok
                      error_message = "no"
                    }
                  }
                }
                output "x" { value = 1 }
                """;
        // An output whose precondition fails has no planned change, as one that fails to evaluate.
        String outputPrecondition = """
                variable "ok" {
                  default = false
                }
                resource "terraform_data" "r" {}
                output "good" { value = 1 }
                output "bad" {
                  value = 2
                  precondition {
                    condition     = var.ok
                    error_message = "no"
                  }
                }
                """;
        for (String c : new String[] {
            config,
            "variable \"l\" {\n  default = []\n}\noutput \"a\" { value = tolist(var.l)[0] }\n",
            outputsOnly,
            outputPrecondition
        }) {
            Files.writeString(tf.resolve("main.tf"), c);
            Files.writeString(st.resolve("main.tf"), c);
            AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "init", "-no-color");
            assertThat(strata(Map.of()).run("init", "-no-color").exitCode()).isZero();
            for (String command : new String[] {"plan", "apply"}) {
                AwsExamples.Run theirs =
                        AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), command, "-no-color");
                CliRunner.Result ours = strata(Map.of()).run(command, "-no-color");
                assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1).isEqualTo(theirs.exitCode());
                assertThat(text(ours.stdout())).as(c).isEqualTo(text(theirs.stdout()));
                assertThat(text(ours.stderr())).as(c).isEqualTo(text(theirs.stderr()));
            }
            // The JSON stream: what was planned (changes, summary, outputs), then the errors.
            AwsExamples.Run theirsJson = AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "plan", "-json");
            CliRunner.Result oursJson = strata(Map.of()).run("plan", "-json");
            assertThat(types(oursJson.stdout())).as(c).isEqualTo(types(theirsJson.stdout()));

            // Saved with -out all the same: show prints what it planned, show -json marks it errored, and
            // apply refuses it.
            assertThat(AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "plan", "-out=p.bin", "-no-color")
                            .exitCode())
                    .isEqualTo(1);
            assertThat(strata(Map.of()).run("plan", "-out=p.bin", "-no-color").exitCode())
                    .isEqualTo(1);
            AwsExamples.Run theirShow =
                    AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "show", "-no-color", "p.bin");
            same(theirShow, strata(Map.of()).run("show", "-no-color", "p.bin"));
            JsonNode theirDoc = AwsExamples.JSON.readTree(
                    AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "show", "-json", "p.bin")
                            .stdout());
            JsonNode ourDoc = AwsExamples.JSON.readTree(
                    strata(Map.of()).run("show", "-json", "p.bin").stdout());
            for (String flag : new String[] {"applyable", "complete", "errored"}) {
                assertThat(ourDoc.get(flag)).as(flag).isEqualTo(theirDoc.get(flag));
            }
            AwsExamples.Run theirApply =
                    AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "apply", "-no-color", "p.bin");
            CliRunner.Result ourApply = strata(Map.of()).run("apply", "-no-color", "p.bin");
            assertThat(ourApply.exitCode()).as(ourApply.toString()).isEqualTo(1).isEqualTo(theirApply.exitCode());
            assertThat(text(ourApply.stdout())).isEqualTo(text(theirApply.stdout()));
            assertThat(text(ourApply.stderr())).isEqualTo(text(theirApply.stderr()));
        }
        assertThat(st.resolve("terraform.tfstate")).doesNotExist();
    }

    /**
     * A root variable whose value its validation rule rejects, or that does not suit its type, stops only what
     * uses it, as in Terraform, which checks both in the walk: the rest is planned, other errors are reported
     * too, and the error points at the value in its {@code .tfvars} file or, for a default or a {@code -var},
     * at the declaration. Plan and apply text, and the JSON stream's messages.
     */
    @Test
    void aRootVariableItsRulesRejectStopsOnlyWhatUsesIt() throws Exception {
        String rule = """
                variable "name" {
                  type    = string
                  default = "ab"
                  validation {
                    condition     = length(var.name) > 3
                    error_message = "Name must be longer than 3."
                  }
                }
                resource "terraform_data" "uses" {
                  input = var.name
                }
                resource "terraform_data" "apart" {
                  input = "q"
                }
                """;
        String withOtherError = rule + """
                output "x" {
                  value = 1
                  precondition {
                    condition     = terraform_data.apart.input == "zz"
                    error_message = "not zz"
                  }
                }
                """;
        record Case(String config, String tfvars, String... args) {}
        Tools t = initialized(rule);
        for (Case c : List.of(
                new Case(rule, null),
                new Case(withOtherError, null),
                new Case(withOtherError, "name = \"xy\"\n"),
                new Case(withOtherError, "name = [\"xy\"]\n"),
                new Case(withOtherError, null, "-var=name=q"))) {
            for (Path d : List.of(tf, st)) {
                Files.writeString(d.resolve("main.tf"), c.config());
                Files.deleteIfExists(d.resolve("terraform.tfvars"));
                if (c.tfvars() != null) {
                    Files.writeString(d.resolve("terraform.tfvars"), c.tfvars());
                }
            }
            String what = c.config() + c.tfvars() + List.of(c.args());
            for (String command : new String[] {"plan", "apply"}) {
                List<String> args = new java.util.ArrayList<>(List.of(command, "-no-color", "-input=false"));
                args.addAll(List.of(c.args()));
                AwsExamples.Run theirs =
                        AwsExamples.terraform(t.terraform(), tf, t.cliConfig(), Map.of(), args.toArray(String[]::new));
                CliRunner.Result ours = strata(Map.of()).run(args.toArray(String[]::new));
                assertThat(theirs.exitCode()).as(theirs.stderr()).isEqualTo(1);
                assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1);
                assertThat(text(ours.stdout())).as(what).isEqualTo(text(theirs.stdout()));
                assertThat(text(ours.stderr())).as(what).isEqualTo(text(theirs.stderr()));
            }
            List<String> json = new java.util.ArrayList<>(List.of("plan", "-json", "-input=false"));
            json.addAll(List.of(c.args()));
            AwsExamples.Run theirs =
                    AwsExamples.terraform(t.terraform(), tf, t.cliConfig(), Map.of(), json.toArray(String[]::new));
            CliRunner.Result ours = strata(Map.of()).run(json.toArray(String[]::new));
            // Terraform's JSON stream has its errors in no fixed order.
            assertThat(sorted(types(ours.stdout()))).as(what).isEqualTo(sorted(types(theirs.stdout())));
        }
        assertThat(st.resolve("terraform.tfstate")).doesNotExist();

        // A destroy checks them in the refresh it plans first, and stops there without showing a plan; without
        // that refresh it does not look at them and destroys everything.
        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("main.tf"), rule);
            Files.deleteIfExists(d.resolve("terraform.tfvars"));
        }
        tfRun(t.terraform(), t.cliConfig(), Map.of(), "apply", "-auto-approve", "-var=name=long enough");
        assertThat(strata(Map.of())
                        .run("apply", "-auto-approve", "-var=name=long enough")
                        .exitCode())
                .isZero();
        for (String[] args : List.of(
                new String[] {"plan", "-destroy", "-no-color"},
                new String[] {"destroy", "-auto-approve", "-no-color"})) {
            AwsExamples.Run theirs = AwsExamples.terraform(t.terraform(), tf, t.cliConfig(), Map.of(), args);
            CliRunner.Result ours = strata(Map.of()).run(args);
            assertThat(theirs.exitCode()).as(theirs.stderr()).isEqualTo(1);
            assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1);
            assertThat(sorted(text(ours.stdout()))).isEqualTo(sorted(text(theirs.stdout())));
            assertThat(text(ours.stderr())).isEqualTo(text(theirs.stderr()));
        }
        String[] destroy = {"destroy", "-auto-approve", "-refresh=false", "-no-color"};
        AwsExamples.Run theirs = tfRun(t.terraform(), t.cliConfig(), Map.of(), destroy);
        CliRunner.Result ours = strata(Map.of()).run(destroy);
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        // The deletions run at once, their progress lines in no fixed order: compared apart.
        java.util.function.Predicate<String> deleting = l -> l.contains(": Destr");
        assertThat(text(ours.stdout().lines().filter(deleting.negate()).collect(joining("\n"))))
                .isEqualTo(
                        text(theirs.stdout().lines().filter(deleting.negate()).collect(joining("\n"))));
        String id = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
        assertThat(sorted(ours.stdout()
                        .lines()
                        .filter(deleting)
                        .map(l -> l.replaceAll(id, "<id>"))
                        .toList()))
                .isEqualTo(sorted(theirs.stdout()
                        .lines()
                        .filter(deleting)
                        .map(l -> l.replaceAll(id, "<id>"))
                        .toList()));
        assertThat(strata(Map.of()).run("state", "list").stdout()).isEmpty();
    }

    /**
     * {@code show} and {@code state show} of one state (terraform's, read by both): a JSON string as
     * {@code jsonencode(...)}, a heredoc, a tainted object, and a deposed one, which {@code show} lists
     * after the current one and {@code state show} leaves out.
     */
    @Test
    void showAndStateShowRenderObjectsAsTerraformDoes() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path cliConfig = AwsExamples.cliConfig(tf);
        String config = """
                resource "terraform_data" "j" {
                  input = jsonencode({ a = [1, 2], b = { c = "d" } })
                }
                resource "terraform_data" "h" {
                  input = "one\\n\\ntwo\\n"
                }
                """;
        Files.writeString(tf.resolve("main.tf"), config);
        Files.writeString(st.resolve("main.tf"), config);
        AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "init", "-no-color");
        tfRun(terraform, cliConfig, Map.of(), "apply", "-auto-approve", "-no-color");
        tfRun(terraform, cliConfig, Map.of(), "taint", "terraform_data.h");
        var json = AwsExamples.JSON;
        var state = (com.fasterxml.jackson.databind.node.ObjectNode)
                json.readTree(tf.resolve("terraform.tfstate").toFile());
        for (JsonNode r : state.get("resources")) {
            if (r.get("name").asText().equals("j")) {
                var deposed = ((com.fasterxml.jackson.databind.node.ObjectNode)
                                r.get("instances").get(0))
                        .deepCopy();
                deposed.put("deposed", "abcd1234");
                ((com.fasterxml.jackson.databind.node.ArrayNode) r.get("instances")).add(deposed);
            }
        }
        state.put("serial", state.get("serial").asInt() + 1);
        json.writerWithDefaultPrettyPrinter()
                .writeValue(tf.resolve("terraform.tfstate").toFile(), state);
        Files.copy(tf.resolve("terraform.tfstate"), st.resolve("terraform.tfstate"));
        assertThat(strata(Map.of()).run("init", "-no-color").exitCode()).isZero();
        same(
                tfRun(terraform, cliConfig, Map.of(), "show", "-no-color"),
                strata(Map.of()).run("show", "-no-color"));
        for (String addr : new String[] {"terraform_data.j", "terraform_data.h"}) {
            same(
                    tfRun(terraform, cliConfig, Map.of(), "state", "show", "-no-color", addr),
                    strata(Map.of()).run("state", "show", "-no-color", addr));
        }
    }

    /**
     * Moves: one without a change is "has moved to"; one that also changes is headed by its change with
     * "(moved from ...)" below; an instance the expansion dropped is destroyed with its reason, and with
     * none in a destroy plan.
     */
    @Test
    void movedObjectsAreHeadedAsTerraformHeadsThem() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path cliConfig = AwsExamples.cliConfig(tf);
        String before = """
                resource "terraform_data" "a" {
                  input = "a"
                }
                resource "terraform_data" "b" {
                  count = 2
                  input = "b${count.index}"
                }
                """;
        Files.writeString(tf.resolve("main.tf"), before);
        AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "init", "-no-color");
        tfRun(terraform, cliConfig, Map.of(), "apply", "-auto-approve", "-no-color");
        Files.copy(tf.resolve("terraform.tfstate"), st.resolve("terraform.tfstate"));
        String after = """
                resource "terraform_data" "a2" {
                  input = "a"
                }
                moved {
                  from = terraform_data.a
                  to   = terraform_data.a2
                }
                resource "terraform_data" "b" {
                  for_each = toset(["x"])
                  input    = "b"
                }
                moved {
                  from = terraform_data.b[0]
                  to   = terraform_data.b["x"]
                }
                """;
        Files.writeString(tf.resolve("main.tf"), after);
        Files.writeString(st.resolve("main.tf"), after);
        assertThat(strata(Map.of()).run("init", "-no-color").exitCode()).isZero();
        // Without the refresh: its progress lines come in no fixed order.
        same(
                tfRun(terraform, cliConfig, Map.of(), "plan", "-refresh=false", "-no-color"),
                strata(Map.of()).run("plan", "-refresh=false", "-no-color"));
        same(
                tfRun(terraform, cliConfig, Map.of(), "plan", "-destroy", "-refresh=false", "-no-color"),
                strata(Map.of()).run("plan", "-destroy", "-refresh=false", "-no-color"));
    }

    /**
     * An {@code import} block's object while planning: "Preparing import..." and "Refreshing state..." with
     * its id, then the plan; in the JSON stream a refresh_start and refresh_complete. Progress lines come in
     * no fixed order, so the lines are compared sorted.
     */
    @Test
    void importBlocksReportTheirProgressAsTerraformDoes() throws Exception {
        String config = """
                import {
                  to = terraform_data.x
                  id = "abc"
                }
                resource "terraform_data" "x" {
                  input = "v"
                }
                import {
                  for_each = toset(["p", "q"])
                  to       = terraform_data.y[each.key]
                  id       = "id-${each.key}"
                }
                resource "terraform_data" "y" {
                  for_each = toset(["p", "q"])
                }
                """;
        Tools t = initialized(config);
        Path terraform = t.terraform();
        Path cliConfig = t.cliConfig();
        AwsExamples.Run theirs = tfRun(terraform, cliConfig, Map.of(), "plan", "-no-color");
        CliRunner.Result ours = strata(Map.of()).run("plan", "-no-color");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(progress(ours.stdout())).isEqualTo(progress(theirs.stdout()));
        assertThat(text(withoutProgress(ours.stdout()))).isEqualTo(text(withoutProgress(theirs.stdout())));
        assertThat(ours.stdout()).contains("terraform_data.y[\"p\"]: Preparing import... [id=id-p]\n");

        AwsExamples.Run theirsJson = tfRun(terraform, cliConfig, Map.of(), "plan", "-json");
        CliRunner.Result oursJson = strata(Map.of()).run("plan", "-json");
        assertThat(sorted(types(oursJson.stdout()))).isEqualTo(sorted(types(theirsJson.stdout())));
    }

    /**
     * A child module's input that its validation rejects is used by nothing, as in Terraform: known only in the
     * apply, the resource that refers to it is not created; known when planning, it is not planned while the
     * rest of the plan is.
     */
    @Test
    void aValueAModuleRejectsIsUsedByNothing() throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.createDirectories(d.resolve("m"));
            Files.writeString(d.resolve("m/main.tf"), """
                    variable "v" {
                      type = string
                      validation {
                        condition     = var.v == "good"
                        error_message = "bad v"
                      }
                    }
                    resource "terraform_data" "x" {
                      input = var.v
                    }
                    resource "terraform_data" "y" {
                      input = "independent"
                    }
                    """);
        }
        Tools t = initialized("""
                resource "terraform_data" "src" {
                  input = "bad"
                }
                module "m" {
                  source = "./m"
                  v      = terraform_data.src.output
                }
                """);
        AwsExamples.Run theirs = AwsExamples.terraform(
                t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color");
        CliRunner.Result ours = strata(Map.of()).run("apply", "-auto-approve", "-no-color");
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1).isEqualTo(theirs.exitCode());
        assertThat(text(ours.stderr())).isEqualTo(text(theirs.stderr()));
        CliRunner.Result ourState = strata(Map.of()).run("state", "list");
        assertThat(ourState.stdout())
                .isEqualTo(tfRun(t.terraform(), t.cliConfig(), Map.of(), "state", "list")
                        .stdout())
                .doesNotContain("module.m.terraform_data.x");

        // Known when planning (a root variable: not yet while validating, where a constant would be rejected).
        String rejectedAtOnce = """
                variable "v" {
                  default = "bad"
                }
                module "m" {
                  source = "./m"
                  v      = var.v
                }
                resource "terraform_data" "other" {}
                """;
        Files.writeString(tf.resolve("main.tf"), rejectedAtOnce);
        Files.writeString(st.resolve("main.tf"), rejectedAtOnce);
        AwsExamples.Run theirPlan =
                AwsExamples.terraform(t.terraform(), tf, t.cliConfig(), Map.of(), "plan", "-no-color");
        CliRunner.Result ourPlan = strata(Map.of()).run("plan", "-no-color");
        assertThat(ourPlan.exitCode()).as(ourPlan.toString()).isEqualTo(1).isEqualTo(theirPlan.exitCode());
        String id = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
        assertThat(progress(ourPlan.stdout().replaceAll(id, "<id>")))
                .isEqualTo(progress(theirPlan.stdout().replaceAll(id, "<id>")));
        assertThat(text(withoutProgress(ourPlan.stdout()))).isEqualTo(text(withoutProgress(theirPlan.stdout())));
        assertThat(text(ourPlan.stderr())).isEqualTo(text(theirPlan.stderr()));
    }

    /** A {@code removed} block's destroy-time provisioner runs before its object goes (Terraform 1.9+). */
    @Test
    void aRemovedBlocksProvisionerRunsAsTerraformRunsIt() throws Exception {
        Tools t = initialized("""
                resource "terraform_data" "drop" {
                  input = "d"
                }
                """);
        same(
                AwsExamples.terraform(
                        t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color"),
                strata(Map.of()).run("apply", "-auto-approve", "-no-color"));
        String removed = """
                removed {
                  from = terraform_data.drop
                  provisioner "local-exec" {
                    when    = destroy
                    command = "echo removed ${self.input}"
                  }
                }
                """;
        Files.writeString(tf.resolve("main.tf"), removed);
        Files.writeString(st.resolve("main.tf"), removed);
        AwsExamples.Run theirs = AwsExamples.terraform(
                t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color");
        same(theirs, strata(Map.of()).run("apply", "-auto-approve", "-no-color"));
        assertThat(theirs.stdout()).contains("terraform_data.drop (local-exec): removed d");
    }

    /**
     * {@code removed} with {@code destroy = false}: the object is not read again, its entry is headed as
     * Terraform 1.11 heads it, the summary has no count for it, and the warning that it will no longer be
     * managed follows the plan, and the apply's progress.
     */
    @Test
    void forgottenObjectsAreShownAndWarnedAsTerraformDoes() throws Exception {
        // A module a removed block destroys: its objects are "not in configuration" by their own names.
        for (Path dir : List.of(tf, st)) {
            Files.createDirectories(dir.resolve("mod"));
            Files.writeString(dir.resolve("mod/main.tf"), "resource \"terraform_data\" \"x\" {}\n");
        }
        Tools t = initialized("""
                resource "terraform_data" "keep" {
                  input = "k"
                }
                resource "terraform_data" "drop" {
                  input = terraform_data.keep.output
                }
                module "gone" {
                  source = "./mod"
                }
                """);
        // Both create the three objects (the order of their progress lines is the schedulers').
        AwsExamples.Run created = AwsExamples.terraform(
                t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color");
        assertThat(created.exitCode()).as(created.stderr()).isZero();
        CliRunner.Result ours = strata(Map.of()).run("apply", "-auto-approve", "-no-color");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        String removed = """
                removed {
                  from = terraform_data.keep
                  lifecycle {
                    destroy = false
                  }
                }
                removed {
                  from = terraform_data.drop
                }
                removed {
                  from = module.gone
                }
                """;
        Files.writeString(tf.resolve("main.tf"), removed);
        Files.writeString(st.resolve("main.tf"), removed);
        AwsExamples.Run plan = tfRun(t.terraform(), t.cliConfig(), Map.of(), "plan", "-no-color");
        assertThat(plan.stdout())
                .contains("  # (because terraform_data.x is not in configuration)")
                .contains(" # terraform_data.keep will no longer be managed by Terraform, but will not be destroyed")
                .contains("Warning: Some objects will no longer be managed by Terraform")
                .doesNotContain("terraform_data.keep: Refreshing state");
        sameUpToProgressOrder(plan, strata(Map.of()).run("plan", "-no-color"));
        sameUpToProgressOrder(
                AwsExamples.terraform(
                        t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color"),
                strata(Map.of()).run("apply", "-auto-approve", "-no-color"));
        assertThat(strata(Map.of()).run("state", "list").stdout()).isEmpty();
    }

    /**
     * A targeted destroy reads again what a targeted plan would (the targets and what they depend on, not what
     * depends on them, which is destroyed as recorded), plans no change to the root outputs and leaves them in
     * the state, as Terraform does.
     */
    @Test
    void aTargetedDestroyRefreshesAndKeepsOutputsAsTerraformDoes() throws Exception {
        Tools t = initialized("""
                resource "terraform_data" "a" {
                  input = "a"
                }
                resource "terraform_data" "b" {
                  input = terraform_data.a.output
                }
                output "b" {
                  value = terraform_data.b.output
                }
                output "k" {
                  value = "konst"
                }
                """);
        same(
                AwsExamples.terraform(
                        t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color"),
                strata(Map.of()).run("apply", "-auto-approve", "-no-color"));
        for (String target : List.of("terraform_data.a", "terraform_data.b")) {
            AwsExamples.Run theirs =
                    tfRun(t.terraform(), t.cliConfig(), Map.of(), "plan", "-destroy", "-no-color", "-target=" + target);
            assertThat(theirs.stdout()).doesNotContain("Changes to Outputs");
            same(theirs, strata(Map.of()).run("plan", "-destroy", "-no-color", "-target=" + target));
        }
        AwsExamples.Run applied = tfRun(
                t.terraform(),
                t.cliConfig(),
                Map.of(),
                "apply",
                "-destroy",
                "-auto-approve",
                "-no-color",
                "-target=terraform_data.b");
        CliRunner.Result ours =
                strata(Map.of()).run("apply", "-destroy", "-auto-approve", "-no-color", "-target=terraform_data.b");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        // The warning names the command to run next: each tool its own.
        assertThat(text(ours.stdout()))
                .isEqualTo(text(applied.stdout().replace("    terraform plan\n", "    strata plan\n")));
        AwsExamples.Run outputs = tfRun(t.terraform(), t.cliConfig(), Map.of(), "output", "-no-color");
        assertThat(outputs.stdout()).contains("b = \"a\"");
        same(outputs, strata(Map.of()).run("output", "-no-color"));
    }

    /** An error a provisioner (or a provider) reports names its object as Terraform's does: "with ADDRESS,". */
    @Test
    void anErrorReportedForAnObjectNamesIt() throws Exception {
        Tools t = initialized("""
                resource "terraform_data" "f" {
                  count = 1
                  provisioner "local-exec" {
                    command = "exit 3"
                  }
                }
                """);
        AwsExamples.Run theirs = AwsExamples.terraform(
                t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color");
        CliRunner.Result ours = strata(Map.of()).run("apply", "-auto-approve", "-no-color");
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1).isEqualTo(theirs.exitCode());
        assertThat(text(theirs.stderr())).contains("  with terraform_data.f[0],");
        assertThat(text(ours.stderr())).isEqualTo(text(theirs.stderr()));
    }

    /**
     * Replacements and deletions in Terraform's order: a replaced object's dependent goes first and comes
     * back last, a dependent no longer configured goes before what it used is replaced, and
     * {@code create_before_destroy} on a dependent makes what it uses create its replacement first.
     */
    @Test
    void replacementsAndDeletionsAreOrderedAsTerraformOrdersThem() throws Exception {
        String chain = """
                variable "rev" {
                  default = 1
                }
                resource "terraform_data" "a" {
                  triggers_replace = [var.rev]
                }
                resource "terraform_data" "b" {
                  triggers_replace = [var.rev]
                  input            = terraform_data.a.id
                }
                """;
        Tools t = initialized(chain);
        for (String[] step : new String[][] {
            {chain, "2"},
            {chain.substring(0, chain.indexOf("resource \"terraform_data\" \"b\"")), "3"},
            {
                chain.replace(
                        "triggers_replace = [var.rev]\n  input",
                        "lifecycle {\n    create_before_destroy = true\n  }\n  input"),
                "4"
            }
        }) {
            Files.writeString(tf.resolve("main.tf"), step[0]);
            Files.writeString(st.resolve("main.tf"), step[0]);
            AwsExamples.Run theirs = AwsExamples.terraform(
                    t.terraform(),
                    tf,
                    t.cliConfig(),
                    Map.of(),
                    "apply",
                    "-auto-approve",
                    "-no-color",
                    "-var",
                    "rev=" + step[1]);
            CliRunner.Result ours =
                    strata(Map.of()).run("apply", "-auto-approve", "-no-color", "-var", "rev=" + step[1]);
            assertThat(ours.exitCode()).as(ours.toString()).isZero().isEqualTo(theirs.exitCode());
            assertThat(operations(ours.stdout())).as(step[1]).isNotEmpty().isEqualTo(operations(theirs.stdout()));
        }
    }

    /** The apply's operations in the order they ran, without ids and deposed keys. */
    private static List<String> operations(String stdout) {
        return stdout.lines()
                .filter(l ->
                        l.matches("^\\S+( \\(deposed object \\w+\\))?: (Creating|Destroying|Modifying)\\.\\.\\..*"))
                .map(l -> l.replaceAll(" \\[id=.*", "").replaceAll("deposed object \\w+", "deposed object"))
                .toList();
    }

    /**
     * A root variable's rule that refers to a local value or a resource (Terraform 1.9+) is checked, in the
     * walk: what does not use the rejected value is planned (and applied), what uses it is not.
     */
    @Test
    void aRootVariableRuleThatRefersToOtherObjectsIsChecked() throws Exception {
        Tools t = initialized("""
                locals {
                  forbidden = "bad"
                }
                variable "v" {
                  type    = string
                  default = "bad"
                  validation {
                    condition     = var.v != local.forbidden
                    error_message = "v must not be ${local.forbidden}."
                  }
                }
                resource "terraform_data" "free" {
                  input = "x"
                }
                resource "terraform_data" "uses" {
                  input = var.v
                }
                output "o" {
                  value = var.v
                }
                """);
        AwsExamples.Run theirPlan =
                AwsExamples.terraform(t.terraform(), tf, t.cliConfig(), Map.of(), "plan", "-no-color");
        CliRunner.Result ourPlan = strata(Map.of()).run("plan", "-no-color");
        assertThat(ourPlan.exitCode()).as(ourPlan.toString()).isEqualTo(1).isEqualTo(theirPlan.exitCode());
        assertThat(text(ourPlan.stdout())).isEqualTo(text(theirPlan.stdout()));
        assertThat(text(ourPlan.stderr())).isEqualTo(text(theirPlan.stderr()));

        // Known only once the resource it refers to is made: checked by the apply.
        String afterApply = """
                variable "v" {
                  type    = string
                  default = "short"
                  validation {
                    condition     = length(terraform_data.src.id) < length(var.v)
                    error_message = "v must be longer than the source's id."
                  }
                }
                resource "terraform_data" "src" {
                  input = "x"
                }
                resource "terraform_data" "uses" {
                  input = var.v
                }
                """;
        Files.writeString(tf.resolve("main.tf"), afterApply);
        Files.writeString(st.resolve("main.tf"), afterApply);
        AwsExamples.Run theirs = AwsExamples.terraform(
                t.terraform(), tf, t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color");
        CliRunner.Result ours = strata(Map.of()).run("apply", "-auto-approve", "-no-color");
        assertThat(ours.exitCode()).as(ours.toString()).isEqualTo(1).isEqualTo(theirs.exitCode());
        assertThat(text(ours.stderr())).isEqualTo(text(theirs.stderr()));
        assertThat(strata(Map.of()).run("state", "list").stdout())
                .isEqualTo(tfRun(t.terraform(), t.cliConfig(), Map.of(), "state", "list")
                        .stdout())
                .isEqualTo("terraform_data.src\n");
    }

    /**
     * {@code apply -refresh-only} shows its plan, applies without asking when nothing changed outside and closes
     * as an apply; {@code refresh} shows only the outputs; their JSON streams carry the same messages.
     */
    @Test
    void refreshOnlyAppliesAndRefreshesAsTerraformDoes() throws Exception {
        Tools t = initialized("""
                resource "terraform_data" "r" {
                  for_each = toset(["a", "b"])
                  input    = each.key
                }
                output "ids" {
                  value = { for k, v in terraform_data.r : k => v.input }
                }
                output "secret" {
                  value     = "hush"
                  sensitive = true
                }
                """);
        tfRun(t.terraform(), t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color");
        assertThat(strata(Map.of()).run("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        String id = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
        for (List<String> command : List.of(
                List.of("apply", "-refresh-only", "-auto-approve", "-no-color"),
                List.of("apply", "-refresh-only", "-no-color"),
                List.of("refresh", "-no-color"))) {
            String[] args = command.toArray(String[]::new);
            AwsExamples.Run theirs = tfRun(t.terraform(), t.cliConfig(), Map.of(), args);
            CliRunner.Result ours = strata(Map.of()).run(args);
            assertThat(ours.exitCode()).as(ours.toString()).isZero();
            assertThat(progress(ours.stdout().replaceAll(id, "<id>")))
                    .as(command.toString())
                    .isEqualTo(progress(theirs.stdout().replaceAll(id, "<id>")));
            assertThat(text(withoutProgress(ours.stdout())))
                    .as(command.toString())
                    .isEqualTo(text(withoutProgress(theirs.stdout())));
        }
        for (List<String> command :
                List.of(List.of("apply", "-refresh-only", "-auto-approve", "-json"), List.of("refresh", "-json"))) {
            String[] args = command.toArray(String[]::new);
            assertThat(sorted(types(strata(Map.of()).run(args).stdout().replaceAll(id, "<id>"))))
                    .as(command.toString())
                    .isEqualTo(sorted(types(tfRun(t.terraform(), t.cliConfig(), Map.of(), args)
                            .stdout()
                            .replaceAll(id, "<id>"))));
        }
    }

    /**
     * {@code import ADDR ID} reports its progress as Terraform's: importing from the id, what the provider
     * prepared, the read of the object; an address the configuration lacks is refused in Terraform's words.
     */
    @Test
    void theImportCommandReportsAsTerraformDoes() throws Exception {
        Tools t = initialized("""
                resource "terraform_data" "imp" {
                }
                """);
        AwsExamples.Run theirs =
                tfRun(t.terraform(), t.cliConfig(), Map.of(), "import", "-no-color", "terraform_data.imp", "some-id");
        CliRunner.Result ours = strata(Map.of()).run("import", "-no-color", "terraform_data.imp", "some-id");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(text(ours.stdout())).isEqualTo(text(theirs.stdout()));
        assertThat(ours.stdout()).contains("terraform_data.imp: Importing from ID \"some-id\"...");

        AwsExamples.Run theirMissing = AwsExamples.terraform(
                t.terraform(), tf, t.cliConfig(), Map.of(), "import", "-no-color", "terraform_data.nope", "x");
        CliRunner.Result ourMissing = strata(Map.of()).run("import", "-no-color", "terraform_data.nope", "x");
        assertThat(ourMissing.exitCode()).isEqualTo(1).isEqualTo(theirMissing.exitCode());
        assertThat(ourMissing.stderr()).isEqualTo(theirMissing.stderr());
    }

    /** terraform and its CLI configuration. */
    private record Tools(Path terraform, Path cliConfig) {}

    /** {@code config} written for both tools and initialised by both; skipped without terraform. */
    private Tools initialized(String config) throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        Path cliConfig = AwsExamples.cliConfig(tf);
        Files.writeString(tf.resolve("main.tf"), config);
        Files.writeString(st.resolve("main.tf"), config);
        AwsExamples.terraform(terraform, tf, cliConfig, Map.of(), "init", "-no-color");
        CliRunner.Result init = strata(Map.of()).run("init", "-no-color");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        return new Tools(terraform, cliConfig);
    }

    private static List<String> sorted(List<String> lines) {
        return lines.stream().sorted().toList();
    }

    private static final java.util.regex.Pattern PROGRESS =
            java.util.regex.Pattern.compile(".*: (Preparing import|Refreshing state)\\.\\.\\. \\[id=.*");

    /** The progress lines of concurrent work, sorted. */
    private static List<String> progress(String stdout) {
        return sorted(stdout.lines().filter(l -> PROGRESS.matcher(l).matches()).toList());
    }

    private static String withoutProgress(String stdout) {
        return String.join(
                        "\n",
                        stdout.lines()
                                .filter(l -> !PROGRESS.matcher(l).matches())
                                .toList())
                + "\n";
    }

    /** Each JSON UI message's type and text, without the version line (the tools' names differ). */
    private static List<String> types(String stream) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        for (String line : stream.split("\n")) {
            JsonNode m = AwsExamples.JSON.readTree(line);
            if (!m.path("type").asText().equals("version")) {
                out.add(m.path("type").asText() + " " + m.path("@message").asText());
            }
        }
        return out;
    }

    /**
     * Replacements: a changed triggers_replace (dynamically typed, so not marked "# forces replacement"),
     * replace_triggered_by ("will be replaced due to changes in replace_triggered_by") and -replace.
     */
    @Test
    void replacementsAreHeadedAsTerraformHeadsThem() throws Exception {
        Tools t = initialized("""
                variable "v" {
                  default = 1
                }
                resource "terraform_data" "a" {
                  triggers_replace = [var.v, "x"]
                  input            = { k = var.v, s = "same" }
                }
                resource "terraform_data" "b" {
                  input = "b"
                  lifecycle {
                    replace_triggered_by = [terraform_data.a]
                  }
                }
                """);
        tfRun(t.terraform(), t.cliConfig(), Map.of(), "apply", "-auto-approve", "-no-color");
        Files.copy(tf.resolve("terraform.tfstate"), st.resolve("terraform.tfstate"));
        for (String[] args : new String[][] {
            {"plan", "-refresh=false", "-var=v=2", "-no-color"},
            {"plan", "-refresh=false", "-replace=terraform_data.b", "-no-color"}
        }) {
            same(
                    tfRun(t.terraform(), t.cliConfig(), Map.of(), args),
                    strata(Map.of()).run(args));
        }
    }

    private static final String AWS = AwsExamples.OFFLINE_AWS_PROVIDER + """
            resource "aws_vpc" "x" { cidr_block = "10.0.0.0/16" }
            resource "aws_default_network_acl" "d" {
              default_network_acl_id = "acl-1"
              egress {
                rule_no    = 100
                action     = "allow"
                protocol   = "-1"
                from_port  = 0
                to_port    = 0
                cidr_block = "0.0.0.0/0"
              }
              egress {
                rule_no         = 101
                action          = "allow"
                protocol        = "-1"
                from_port       = 0
                to_port         = 0
                ipv6_cidr_block = "::/0"
              }
            }
            resource "aws_network_acl" "n" {
              vpc_id = aws_vpc.x.id
              egress {
                rule_no    = 100
                action     = "allow"
                protocol   = "-1"
                from_port  = 0
                to_port    = 0
                cidr_block = "0.0.0.0/0"
              }
            }
            resource "aws_security_group" "a" { vpc_id = aws_vpc.x.id }
            data "aws_iam_policy_document" "b" {
              statement {
                actions   = ["s3:*"]
                resources = [aws_vpc.x.arn]
              }
            }
            resource "aws_vpc_endpoint" "s3" {
              vpc_id       = aws_vpc.x.id
              service_name = "com.amazonaws.eu-west-1.s3"
            }
            """;

    @Test
    void awsPlanTextMatchesTerraform() throws Exception {
        Path terraform = AwsExamples.prerequisites();
        Path cliConfig = AwsExamples.cliConfig(tf);
        Files.writeString(tf.resolve("main.tf"), AWS);
        Files.writeString(st.resolve("main.tf"), AWS);
        tfRun(terraform, cliConfig, AUTOMATION, "init", "-input=false", "-no-color");
        CliRunner strata = strata(Map.of("TF_CLI_CONFIG_FILE", cliConfig.toString()));
        assertThat(strata.run("init", "-input=false", "-no-color").exitCode()).isZero();
        same(
                tfRun(terraform, cliConfig, Map.of(), "plan", "-out=p.plan", "-input=false", "-no-color"),
                strata.run("plan", "-out=p.plan", "-input=false", "-no-color"));
    }

    private AwsExamples.Run tfRun(Path terraform, Path cliConfig, Map<String, String> env, String... args)
            throws Exception {
        AwsExamples.Run r = AwsExamples.terraform(terraform, tf, cliConfig, env, args);
        assertThat(r.exitCode())
                .as("terraform %s: %s", String.join(" ", args), r.stderr())
                .isZero();
        return r;
    }

    private CliRunner strata(Map<String, String> env) {
        CliRunner r = CliRunner.in(st);
        env.forEach(r::env);
        return r;
    }

    private static final java.util.regex.Pattern ANY_PROGRESS = java.util.regex.Pattern.compile(
            "\\S.*: (Refreshing state|Destroying|Destruction complete|Creating|Creation complete)\\b.*");

    /** As {@link #same}, with the progress lines of concurrent work compared as a set (their order is the schedulers'). */
    private static void sameUpToProgressOrder(AwsExamples.Run theirs, CliRunner.Result ours) {
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(text(withoutAnyProgress(ours.stdout()))).isEqualTo(text(withoutAnyProgress(theirs.stdout())));
        assertThat(anyProgress(ours.stdout())).isEqualTo(anyProgress(theirs.stdout()));
    }

    private static String withoutAnyProgress(String stdout) {
        return String.join(
                "\n",
                stdout.lines().filter(l -> !ANY_PROGRESS.matcher(l).matches()).toList());
    }

    private static List<String> anyProgress(String stdout) {
        return sorted(stdout.lines()
                .filter(l -> ANY_PROGRESS.matcher(l).matches())
                .map(l -> l.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                        .replaceAll("after \\d+s", "after Ns"))
                .toList());
    }

    private static void same(AwsExamples.Run theirs, CliRunner.Result ours) {
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(text(ours.stdout())).isEqualTo(text(theirs.stdout()));
    }

    /** Comparable lines, with the random ids terraform_data gets replaced. */
    private static List<String> text(String stdout) {
        return ExamplesPlanDifferentialIT.comparable(stdout).stream()
                .map(l -> l.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>"))
                .toList();
    }
}
