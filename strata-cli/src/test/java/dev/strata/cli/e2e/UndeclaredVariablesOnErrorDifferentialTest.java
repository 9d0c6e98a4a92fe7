package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warnings about values for undeclared variables, which a plan shows after the plan, when the run stops
 * before planning, against the real terraform 1.11: an invalid configuration (found after the variables
 * were read) shows them before its errors; a configuration that does not parse and a state that cannot be
 * read stop before the variables are read, so neither tool shows them. Skipped without terraform.
 */
class UndeclaredVariablesOnErrorDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    @BeforeEach
    void setUp() {
        Terraform.assumeInstalled();
    }

    private void write(String name, String text) throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.writeString(d.resolve(name), text);
        }
    }

    private ProcessResult terraform(String... args) throws Exception {
        return Terraform.in(tf).timeout(Duration.ofMinutes(2)).run(args);
    }

    private static String neutral(String text) {
        return text.replaceAll("\\b(Terraform|Strata)\\b", "<tool>");
    }

    @Test
    void anInvalidConfigurationShowsTheWarningsBeforeItsErrors() throws Exception {
        write("main.tf", """
                variable "a" {}
                resource "terraform_data" "x" {
                  input = nope.x
                }
                """);
        write("terraform.tfvars", "a = 1\nundeclared = 2\n");
        ProcessResult theirs = terraform("plan", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("plan", "-no-color");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(theirs.stdout()).contains("Warning: Value for undeclared variable");
        assertThat(neutral(ours.stdout())).isEqualTo(neutral(theirs.stdout()));
        assertThat(ours.stderr()).contains("Error: Reference to undeclared resource");
        assertThat(ours.stderr()).doesNotContain("Warning");
    }

    @Test
    void aConfigurationThatDoesNotParseStopsBeforeTheVariablesAreRead() throws Exception {
        write("main.tf", "variable \"a\" {}\nresource \"terraform_data\" \"x\" {\n  input = \n}\n");
        write("terraform.tfvars", "a = 1\nundeclared = 2\n");
        ProcessResult theirs = terraform("plan", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("plan", "-no-color");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(theirs.stdout() + theirs.stderr()).doesNotContain("undeclared variable");
        assertThat(ours.stdout() + ours.stderr()).doesNotContain("undeclared variable");
    }
}
