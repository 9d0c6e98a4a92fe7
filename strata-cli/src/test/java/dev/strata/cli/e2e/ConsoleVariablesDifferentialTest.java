package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code console} against {@code terraform console} when the root variables' values are wrong: a value its
 * validation rule rejects, or one of the wrong type, is shown (errors on stderr, each followed by an empty
 * line as terraform console prints them) with the warning that results may be off, and the console still
 * evaluates (exit 0); a problem found reading the values (an undeclared {@code -var}) ends it (exit 1).
 * Compared byte for byte. Skipped when {@code terraform} is not on the PATH.
 */
class ConsoleVariablesDifferentialTest {
    private static final String CONFIG = """
            variable "name" {
              type    = string
              default = "ab"
              validation {
                condition     = length(var.name) > 3
                error_message = "Name must be longer than 3."
              }
            }
            variable "n" {
              type    = number
              default = 1
            }
            locals {
              x = 1
            }
            """;

    @TempDir
    Path theirs;

    @TempDir
    Path ours;

    private void files(String tfvars) throws Exception {
        for (Path d : new Path[] {theirs, ours}) {
            Files.writeString(d.resolve("main.tf"), CONFIG);
            Files.deleteIfExists(d.resolve("terraform.tfvars"));
            if (tfvars != null) {
                Files.writeString(d.resolve("terraform.tfvars"), tfvars);
            }
        }
    }

    private void same(String expr, int exit, String... args) {
        ProcessResult want;
        try {
            want = ConsoleComparison.terraform(theirs, expr, args);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of("console"));
        all.addAll(java.util.List.of(args));
        // The terminal's width terraform wraps at when it has none.
        CliRunner.Result got = CliRunner.in(ours).stdin(expr + "\n").run(all.toArray(String[]::new));
        assertThat(got.exitCode()).as(got.toString()).isEqualTo(want.exitCode()).isEqualTo(exit);
        assertThat(got.stdout()).isEqualTo(want.stdout());
        assertThat(got.stderr()).isEqualTo(want.stderr());
    }

    @Test
    void valuesTheRulesOrTheTypesRejectAreShownAndTheConsoleGoesOn() throws Exception {
        files(null);
        same("local.x", 0);
        same("local.x", 0, "-plan");
        same("local.x", 0, "-var=name=long enough");
        files("n = \"x\"\n");
        same("local.x", 0);
        same("local.x", 0, "-plan");
    }

    @Test
    void anUndeclaredVariableOnTheCommandLineEndsIt() throws Exception {
        files(null);
        same("local.x", 1, "-var=zzz=1");
    }
}
