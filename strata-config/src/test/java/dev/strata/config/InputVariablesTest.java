package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.config.InputVariables.Arg;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputVariablesTest {
    @TempDir
    Path dir;

    private Result<SortedMap<String, Value>> resolve(Map<String, String> env, Arg... args) {
        Result<ConfigTree> t = Fixtures.load(dir);
        assertThat(brief(t.diagnostics())).isEmpty();
        return InputVariables.resolve(t.value().root().module(), dir, env, List.of(args));
    }

    @Test
    void precedenceIsTerraforms() {
        write(
                dir,
                "main.tf",
                """
                variable "a" { default = "default" }
                variable "b" { default = "default" }
                variable "c" { default = "default" }
                variable "d" { default = "default" }
                variable "e" { default = "default" }
                variable "f" { default = "default" }
                """,
                "terraform.tfvars",
                "b = \"tfvars\"\nc = \"tfvars\"\nd = \"tfvars\"\ne = \"tfvars\"\nf = \"tfvars\"\n",
                "terraform.tfvars.json",
                "{\"c\": \"tfvars.json\", \"d\": \"tfvars.json\", \"e\": \"x\", \"f\": \"x\"}",
                "a.auto.tfvars",
                "d = \"a.auto\"\ne = \"a.auto\"\nf = \"a.auto\"\n",
                "b.auto.tfvars.json",
                "{\"e\": \"b.auto\", \"f\": \"b.auto\"}",
                "extra.tfvars",
                "f = \"file\"\n");
        Result<SortedMap<String, Value>> r = resolve(
                Map.of("TF_VAR_a", "env", "TF_VAR_b", "env"),
                new Arg.Var("f=cli"),
                new Arg.VarFile("extra.tfvars"),
                new Arg.Var("e=cli"));
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value())
                .containsEntry("a", Value.string("env"))
                .containsEntry("b", Value.string("tfvars"))
                .containsEntry("c", Value.string("tfvars.json"))
                .containsEntry("d", Value.string("a.auto"))
                .containsEntry("e", Value.string("cli"))
                .containsEntry("f", Value.string("file"));
    }

    @Test
    void conversionAndComplexValuesFromTheCommandLine() {
        write(dir, "main.tf", """
                variable "n" { type = number }
                variable "l" { type = list(string) }
                variable "o" {
                  type = object({ a = string, b = optional(number, 7) })
                }
                variable "s" { sensitive = true }
                """);
        Result<SortedMap<String, Value>> r = resolve(
                Map.of("TF_VAR_l", "[\"x\", 1]"),
                new Arg.Var("n=42"),
                new Arg.Var("o={a = \"v\"}"),
                new Arg.Var("s=secret"));
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value().get("n")).isEqualTo(Value.number(42));
        assertThat(r.value().get("l").elements()).containsExactly(Value.string("x"), Value.string("1"));
        assertThat(r.value().get("o").attributes().get("b")).isEqualTo(Value.number(7));
        assertThat(r.value().get("s").isSensitive()).isTrue();
    }

    /** As Terraform: a variables file that does not parse gives its errors alone, no warning about its values. */
    @Test
    void aFileThatDoesNotParseGivesItsErrorsAlone() {
        write(
                dir,
                "main.tf",
                "variable \"n\" { default = 1 }\n",
                "bad.tfvars",
                "x = [1,\n",
                "block.tfvars",
                "y = 1\nb {\n}\n");
        assertThat(brief(resolve(Map.of(), new Arg.VarFile("bad.tfvars")).diagnostics()))
                .containsExactly("bad.tfvars:2,1-1: Missing expression");
        assertThat(brief(resolve(Map.of(), new Arg.VarFile("block.tfvars")).diagnostics()))
                .hasSize(1)
                .allSatisfy(d -> assertThat(d).startsWith("block.tfvars:2,"));
    }

    @Test
    void problemsAreReportedWithLocations() {
        write(dir, "main.tf", """
                variable "n" { type = number }
                variable "req" {}
                variable "nn" {
                  type     = string
                  nullable = false
                }
                """, "terraform.tfvars", "n = \"abc\"\nundeclared = 1\nnn = null\n");
        // As Terraform: a command line naming no declared variable stops before any value is checked.
        Result<SortedMap<String, Value>> stopped = resolve(Map.of(), new Arg.Var("nope=1"), new Arg.Var("bad"));
        assertThat(brief(stopped.diagnostics()))
                .containsExactly(
                        "Invalid -var option",
                        "Value for undeclared variable",
                        "warning: Value for undeclared variable");
        // As Terraform: a required variable without a value stops before the values are checked.
        assertThat(brief(resolve(Map.of()).diagnostics()))
                .containsExactly(
                        "warning: Value for undeclared variable", "main.tf:2,1-15: No value for required variable");
        Result<SortedMap<String, Value>> r = resolve(Map.of(), new Arg.Var("req=x"));
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "warning: Value for undeclared variable",
                        "terraform.tfvars:1,5-10: Invalid value for input variable",
                        "terraform.tfvars:3,6-10: Required variable not set");
        assertThat(r.diagnostics().asList().get(1).detail())
                .isEqualTo("The given value is not suitable for var.n "
                        + "declared at main.tf:1,1-13: a number is required.");
    }

    /** A value from the command line or the environment is reported at the declaration, naming its source. */
    @Test
    void unsuitableValuesNameWhereTheyCameFrom() {
        write(dir, "main.tf", "variable \"n\" { type = number }\n");
        Result<SortedMap<String, Value>> r = resolve(Map.of(), new Arg.Var("n=abc"));
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:1,1-13: Invalid value for input variable");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("Unsuitable value for var.n set using -var=\"n=...\": a number is required.");
        r = resolve(Map.of("TF_VAR_n", "abc"));
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("Unsuitable value for var.n set using the TF_VAR_n environment variable: a number is "
                        + "required.");
    }

    @Test
    void validationRulesAreChecked() {
        write(dir, "main.tf", """
                variable "port" {
                  type = number
                  validation {
                    condition     = var.port > 1024
                    error_message = "The port must be above 1024, got ${var.port}."
                  }
                }
                """);
        Result<SortedMap<String, Value>> r = resolve(Map.of(), new Arg.Var("port=80"));
        // As Terraform 1.11: a value from the command line is reported at the variable's declaration.
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:1,1-16: Invalid value for variable");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("The port must be above 1024, got 80.\n\n"
                        + "This was checked by the validation rule at main.tf:3,3-13.");
        assertThat(brief(resolve(Map.of(), new Arg.Var("port=8080")).diagnostics()))
                .isEmpty();
    }

    /**
     * For an operation's walk: the values' own errors (a malformed value, a missing required one) are the
     * result's; a value of the wrong type is unknown with its error kept for the walk, rules are not
     * checked, and each value from a file has its range.
     */
    @Test
    void readLeavesTypesAndRulesToTheWalk() {
        write(dir, "main.tf", """
                variable "port" {
                  type = number
                  validation {
                    condition     = var.port > 1024
                    error_message = "Above 1024."
                  }
                }
                variable "n" { type = number }
                variable "d" { default = "x" }
                """, "terraform.tfvars", "port = 80\n");
        Result<ConfigTree> t = Fixtures.load(dir);
        Result<InputVariables.Read> r = InputVariables.read(
                t.value().root().module(), dir, Map.of(), List.of(new Arg.Var("n=abc")), null, false);
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value().values())
                .containsEntry("port", Value.number(80))
                .containsEntry("n", Value.unknown(dev.strata.lang.types.Type.NUMBER))
                .containsEntry("d", Value.string("x"));
        VariableOrigins o = r.value().origins();
        assertThat(o.range("port")).hasToString("terraform.tfvars:1,8-10");
        assertThat(o.range("n")).isNull();
        assertThat(o.range("d")).isNull();
        assertThat(o.problems("port").isEmpty()).isTrue();
        assertThat(brief(o.problems("n"))).containsExactly("main.tf:8,1-13: Invalid value for input variable");

        write(dir, "main.tf", "variable \"l\" { type = list(string) }\nvariable \"req\" {}\n", "terraform.tfvars", "");
        t = Fixtures.load(dir);
        r = InputVariables.read(t.value().root().module(), dir, Map.of(), List.of(new Arg.Var("l=[")), null, false);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "<value for var.l>:1,2-2: Missing expression",
                        // As Terraform: a -var that does not parse leaves its variable unset.
                        "main.tf:1,1-13: No value for required variable",
                        "main.tf:2,1-15: No value for required variable");
        r = InputVariables.read(t.value().root().module(), dir, Map.of(), List.of(), null, false);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:1,1-13: No value for required variable",
                        "main.tf:2,1-15: No value for required variable");
        // A saved plan holds the required one's value.
        r = InputVariables.read(t.value().root().module(), dir, Map.of(), List.of(), null, true);
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value().values().get("req").isKnown()).isFalse();
    }

    @Test
    void aValidationResultThatIsNullOrNotABoolIsAnErrorWithTerraformsText() {
        write(dir, "main.tf", """
                variable "w" { default = null }
                variable "v" {
                  default = "x"
                  validation {
                    condition     = var.v == "x" ? var.w : true
                    error_message = "Never."
                  }
                  validation {
                    condition     = var.v
                    error_message = "Never."
                  }
                }
                """);
        Result<SortedMap<String, Value>> r = resolve(Map.of());
        assertThat(r.diagnostics().asList())
                .extracting(d -> d.subject() + ": " + d.summary() + ": " + d.detail())
                .containsExactly(
                        "main.tf:5,21-48: Invalid variable validation result: Validation condition "
                                + "expression must return either true or false, not null.",
                        "main.tf:9,21-26: Invalid variable validation result: Invalid validation condition result "
                                + "value: a bool is required.");
    }

    @Test
    void undeclaredValuesWarnTwiceThenCountTheRestAsTerraformDoes() {
        write(
                dir,
                "main.tf",
                "variable \"a\" { default = \"x\" }\n",
                "terraform.tfvars",
                "a = \"1\"\nzz = 1\nyy = 2\nxx = 3\n",
                "b.auto.tfvars",
                "ww = 1\n",
                "c.auto.tfvars.json",
                "{\"vv\": 1, \"uu\": 2}");
        Result<SortedMap<String, Value>> r = resolve(Map.of("TF_VAR_nope", "1"));
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "warning: Value for undeclared variable",
                        "warning: Value for undeclared variable",
                        "warning: Values for undeclared variables");
        assertThat(r.diagnostics().asList().get(2).detail())
                .isEqualTo("In addition to the other similar "
                        + "warnings shown, 4 other variable(s) defined without being declared.");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .startsWith("The root module does not declare a "
                        + "variable named \"xx\" but a value was found in file \"terraform.tfvars\".");
        assertThat(r.value()).containsEntry("a", Value.string("1"));
    }

    @Test
    void undeclaredOnTheCommandLineIsAnErrorAndInTheEnvironmentIgnored() {
        write(dir, "main.tf", "variable \"a\" { default = \"x\" }\n");
        Result<SortedMap<String, Value>> r = resolve(Map.of("TF_VAR_b", "1"), new Arg.Var("nope=1"));
        assertThat(brief(r.diagnostics())).containsExactly("Value for undeclared variable");
        assertThat(r.diagnostics().hasErrors()).isTrue();
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("A variable named \"nope\" was assigned "
                        + "on the command line, but the root module does not declare a variable of that name. To use this "
                        + "value, add a \"variable\" block to the configuration.");
        assertThat(brief(resolve(Map.of("TF_VAR_b", "1")).diagnostics())).isEmpty();
    }

    /** A scripted prompter that records what it was asked. */
    private static final class Answers implements Prompter {
        final java.util.List<String> asked = new java.util.ArrayList<>();
        final Map<String, String> answers;

        Answers(Map<String, String> answers) {
            this.answers = answers;
        }

        @Override
        public java.util.Optional<String> ask(VariableConfig v) {
            asked.add(v.name() + (v.sensitive() ? " (sensitive)" : ""));
            return java.util.Optional.ofNullable(answers.get(v.name()));
        }
    }

    @Test
    void missingRequiredVariablesAreAskedForInNameOrder() {
        write(dir, "main.tf", """
                variable "b_region" { description = "The region." }
                variable "a_secret" {
                  type      = string
                  sensitive = true
                }
                variable "c_list" { type = list(string) }
                variable "d_default" { default = "x" }
                variable "e_given" {}
                variable "f_unanswered" {}
                variable "g_number" { type = number }
                """);
        Answers p = new Answers(
                Map.of("a_secret", "hunter2", "b_region", "eu", "c_list", "[\"a\", \"b\"]", "g_number", "many"));
        Result<ConfigTree> t = Fixtures.load(dir);
        Result<InputVariables.Read> read = InputVariables.read(
                t.value().root().module(), dir, Map.of("TF_VAR_e_given", "env"), List.of(), p, false);
        SortedMap<String, Value> r = read.value().values();
        assertThat(p.asked).containsExactly("a_secret (sensitive)", "b_region", "c_list", "f_unanswered", "g_number");
        assertThat(r.get("a_secret").isSensitive()).isTrue();
        assertThat(r.get("a_secret").unmark()).isEqualTo(Value.string("hunter2"));
        assertThat(r.get("b_region")).isEqualTo(Value.string("eu"));
        assertThat(r.get("c_list").elements()).containsExactly(Value.string("a"), Value.string("b"));
        assertThat(brief(read.diagnostics())).containsExactly("main.tf:9,1-24: No value for required variable");
        // The answer that does not suit its type is the walk's to report.
        assertThat(read.value().origins().problems("g_number").asList())
                .singleElement()
                .satisfies(d -> assertThat(d.detail())
                        .isEqualTo("Unsuitable value for var.g_number set using an interactive prompt: a number is "
                                + "required."));
    }

    @Test
    void withoutAPrompterAMissingRequiredVariableIsAnErrorAtItsDeclaration() {
        write(dir, "main.tf", "variable \"region\" {\n  type = string\n}\n");
        Result<SortedMap<String, Value>> r = resolve(Map.of());
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:1,1-18: No value for required variable");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("The root module input variable "
                        + "\"region\" is not set, and has no default value. Use a -var or -var-file command line argument "
                        + "to provide a value for this variable.");
    }
}
