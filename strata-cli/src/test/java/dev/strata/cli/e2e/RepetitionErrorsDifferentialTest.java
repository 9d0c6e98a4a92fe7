package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code count} or {@code for_each} value that cannot be used: the error {@code plan} prints, compared
 * with terraform's whole: summary, snippet, the lines under it (what the references hold, where Terraform
 * shows them: for a count that is no number and for every for_each problem, a sensitive value named as
 * such) and detail. Skipped when {@code terraform} is not on the PATH.
 */
class RepetitionErrorsDifferentialTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "count|\"x\"",
                "count|-1",
                "count|1.5",
                "count|null",
                "for_each|\"s\"",
                "for_each|null",
                "for_each|toset([1, 2])",
                "for_each|sensitive({ a = 1 })",
                "for_each|[\"a\"]",
                "for_each|toset([null])",
                "for_each|toset([\"a\", null])",
                "for_each|toset([true])"
            })
    void sameErrorAsTerraform(String argument, String value) throws Exception {
        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        Files.writeString(dir.resolve("main.tf"), """
                locals {
                  d = %s
                }
                resource "terraform_data" "a" {
                  %s = local.d
                }
                """.formatted(value, argument));
        ProcessResult theirs = Terraform.at(terraform.get(), dir)
                .timeout(Duration.ofMinutes(1))
                .run("plan", "-no-color", "-input=false");
        CliRunner.Result ours = CliRunner.in(dir).run("plan", "-no-color", "-input=false");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(ours.stderr().strip()).isEqualTo(theirs.stderr().strip());
    }
}
