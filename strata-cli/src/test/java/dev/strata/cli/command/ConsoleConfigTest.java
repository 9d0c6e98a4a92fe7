package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata console} in a directory with a configuration: var.* and local.* from the root module. */
class ConsoleConfigTest {
    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }

    @Test
    void variablesAndLocalsEvaluate() throws IOException {
        write("main.tf", """
                variable "region" { default = "eu-west-1" }
                variable "sizes" { type = map(number) }
                variable "secret" {
                  default   = "hunter2"
                  sensitive = true
                }
                locals {
                  name  = "app-${var.region}"
                  total = sum(values(var.sizes))
                  both  = "${local.name}/${local.total}"
                }
                """);
        write("terraform.tfvars", "sizes = { a = 1, b = 2 }\n");
        CliRunner.Result r = CliRunner.in(dir)
                .env("TF_VAR_region", "us-east-1")
                .stdin("var.region\nlocal.both\nvar.secret\npath.module\nterraform.workspace\n")
                .run("console", "-var", "sizes={a = 10}");
        assertThat(r.stderr()).isEmpty();
        assertThat(r.stdout()).isEqualTo("""
                "us-east-1"
                "app-us-east-1/10"
                (sensitive value)
                "."
                "default"
                """);
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void localCyclesNameEveryStep() throws IOException {
        write("main.tf", """
                locals {
                  a = local.b
                  b = local.c
                  c = local.a
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).width(400).stdin("local.a\n").run("console");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Cycle in local values")
                .contains("local.a refers to local.b at main.tf:2,7-14, which refers to local.c at "
                        + "main.tf:3,7-14, which refers to local.a at")
                .contains("on main.tf line 4, in locals:");
    }

    @Test
    void undeclaredNamesAreReportedAndMissingVariablesAreUnknown() throws IOException {
        write("main.tf", "variable \"x\" { default = 1 }\n");
        CliRunner.Result r = CliRunner.in(dir).stdin("var.y\n").run("console");
        assertThat(r.stderr())
                .contains("Reference to undeclared input variable")
                .contains("Did you mean \"x\"?");
        // As terraform console: an unset required variable is unknown, not an error.
        write("main.tf", "variable \"required\" {}\n");
        r = CliRunner.in(dir).stdin("var.required\n").run("console");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("(known after apply)\n");
    }
}
