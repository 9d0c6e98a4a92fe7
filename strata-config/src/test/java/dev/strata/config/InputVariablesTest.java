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
        write(dir, "main.tf", """
                variable "a" { default = "default" }
                variable "b" { default = "default" }
                variable "c" { default = "default" }
                variable "d" { default = "default" }
                variable "e" { default = "default" }
                variable "f" { default = "default" }
                """,
                "terraform.tfvars", "b = \"tfvars\"\nc = \"tfvars\"\nd = \"tfvars\"\ne = \"tfvars\"\nf = \"tfvars\"\n",
                "terraform.tfvars.json", "{\"c\": \"tfvars.json\", \"d\": \"tfvars.json\", \"e\": \"x\", \"f\": \"x\"}",
                "a.auto.tfvars", "d = \"a.auto\"\ne = \"a.auto\"\nf = \"a.auto\"\n",
                "b.auto.tfvars.json", "{\"e\": \"b.auto\", \"f\": \"b.auto\"}",
                "extra.tfvars", "f = \"file\"\n");
        Result<SortedMap<String, Value>> r = resolve(Map.of("TF_VAR_a", "env", "TF_VAR_b", "env"),
                new Arg.Var("f=cli"), new Arg.VarFile("extra.tfvars"), new Arg.Var("e=cli"));
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value()).containsEntry("a", Value.string("env")).containsEntry("b", Value.string("tfvars"))
                .containsEntry("c", Value.string("tfvars.json")).containsEntry("d", Value.string("a.auto"))
                .containsEntry("e", Value.string("cli")).containsEntry("f", Value.string("file"));
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
        Result<SortedMap<String, Value>> r = resolve(Map.of("TF_VAR_l", "[\"x\", 1]"),
                new Arg.Var("n=42"), new Arg.Var("o={a = \"v\"}"), new Arg.Var("s=secret"));
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value().get("n")).isEqualTo(Value.number(42));
        assertThat(r.value().get("l").elements()).containsExactly(Value.string("x"), Value.string("1"));
        assertThat(r.value().get("o").attributes().get("b")).isEqualTo(Value.number(7));
        assertThat(r.value().get("s").isSensitive()).isTrue();
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
        Result<SortedMap<String, Value>> r = resolve(Map.of(), new Arg.Var("nope=1"), new Arg.Var("bad"));
        assertThat(brief(r.diagnostics())).containsExactly(
                "Invalid -var option",
                "Value for undeclared variable",
                "main.tf:2,1-15: No value for required variable",
                "terraform.tfvars:1,5-10: Invalid value for input variable",
                "warning: terraform.tfvars:2,1-11: Value for undeclared variable",
                "terraform.tfvars:3,6-10: Required variable not set");
        assertThat(r.diagnostics().asList().get(3).detail()).isEqualTo("The given value is not suitable for var.n "
                + "declared at main.tf:1,1-13: a number is required.");
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
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:4,21-36: Invalid value for variable");
        assertThat(r.diagnostics().asList().getFirst().detail()).isEqualTo("The port must be above 1024, got 80.\n\n"
                + "This was checked by the validation rule at main.tf:3,3-13.");
        assertThat(brief(resolve(Map.of(), new Arg.Var("port=8080")).diagnostics())).isEmpty();
    }
}
