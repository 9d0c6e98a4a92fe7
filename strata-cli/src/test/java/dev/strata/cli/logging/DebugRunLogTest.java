package dev.strata.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code STRATA_LOG=debug} tells why a run is slow or stuck: every provider call with its operation,
 * address and duration, the state lock taken and released, the state read and written with serial and
 * size. It never carries a value: a sensitive variable's value appears nowhere in the log.
 */
class DebugRunLogTest {
    private static final String SECRET = "hunter2-do-not-log-7f3a";

    @TempDir
    Path dir;

    @Test
    void aDebugApplyLogsProviderCallsLocksAndStateWritesButNoValue() throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                variable "password" {
                  type      = string
                  sensitive = true
                }
                resource "terraform_data" "a" {
                  input = var.password
                }
                resource "terraform_data" "b" {
                  input = "${terraform_data.a.id}-${var.password}"
                }
                output "pw" {
                  value     = var.password
                  sensitive = true
                }
                """);
        Path log = dir.resolve("debug.log");
        CliRunner cli = CliRunner.in(dir).env("STRATA_LOG", "debug").env("STRATA_LOG_PATH", log.toString());
        CliRunner.Result apply = cli.run("apply", "-auto-approve", "-no-color", "-var", "password=" + SECRET);
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        CliRunner.Result again = cli.run("apply", "-auto-approve", "-no-color", "-var", "password=" + SECRET);
        assertThat(again.exitCode()).as(again.toString()).isZero();

        String text = Files.readString(log);
        List<String> lines = text.lines().toList();
        assertThat(text).doesNotContain(SECRET);
        assertThat(lines)
                .anyMatch(
                        matches(
                                "provider\\[\"terraform.io/builtin/terraform\"\\]: PlanResourceChange terraform_data\\.a succeeded in [0-9.]+ ms \\(attempt 1\\)"))
                .anyMatch(
                        matches(
                                "provider\\[\"terraform.io/builtin/terraform\"\\]: ApplyResourceChange terraform_data\\.b succeeded in [0-9.]+ ms \\(attempt 1\\)"))
                // The second run refreshes what the first created.
                .anyMatch(
                        matches(
                                "provider\\[\"terraform.io/builtin/terraform\"\\]: ReadResource terraform_data\\.a succeeded in [0-9.]+ ms"))
                .anyMatch(matches("lock \\S+ on .*terraform\\.tfstate acquired for OperationTypeApply in \\d+ ms"))
                .anyMatch(matches("lock \\S+ on .*released after"))
                .anyMatch(matches("state written to terraform\\.tfstate: serial \\d+, \\d+ bytes, in \\d+ ms"))
                .anyMatch(matches("state read from terraform\\.tfstate: \\d+ bytes, serial \\d+"));
        assertThat(lines).allMatch(l -> l.contains("run=")).hasSizeGreaterThan(15);
        assertThat(apply.stdout() + apply.stderr() + again.stdout() + again.stderr())
                .doesNotContain(SECRET);
    }

    private static java.util.function.Predicate<String> matches(String regex) {
        Pattern p = Pattern.compile(regex);
        return l -> p.matcher(l).find();
    }
}
