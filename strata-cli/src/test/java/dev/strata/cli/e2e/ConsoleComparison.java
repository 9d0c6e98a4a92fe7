package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One input given to {@code terraform console} (in {@code theirs}) and to {@code strata console} (in
 * {@code ours}, often the same directory) with the same extra arguments, and their answers compared.
 * Skipped when {@code terraform} is not on the PATH.
 */
final class ConsoleComparison {
    private ConsoleComparison() {}

    /** Both print the same value and succeed. */
    static void sameValue(Path theirs, Path ours, String expr, String... args) throws Exception {
        ProcessResult want = terraform(theirs, expr, args);
        assertThat(want.exitCode()).as(want.stderr()).isZero();
        CliRunner.Result got = strata(ours, expr, args);
        assertThat(got.exitCode()).as(got.toString()).isZero();
        assertThat(got.stdout().strip()).isEqualTo(want.stdout().strip());
    }

    /** Both fail with exit status 1 and the same first error (summary and detail; the source excerpt differs). */
    static void sameError(Path theirs, Path ours, String expr, String... args) throws Exception {
        ProcessResult want = terraform(theirs, expr, args);
        CliRunner.Result got = strata(ours, expr, args);
        assertThat(got.exitCode()).as(got.toString()).isEqualTo(want.exitCode()).isEqualTo(1);
        assertThat(error(got.stderr())).isEqualTo(error(want.stderr()));
    }

    static ProcessResult terraform(Path dir, String expr, String... args) throws Exception {
        Optional<Path> exe = Terraform.find();
        assumeTrue(exe.isPresent(), "terraform is not on the PATH");
        List<String> all = new ArrayList<>(List.of("console", "-no-color"));
        all.addAll(List.of(args));
        return Terraform.at(exe.get(), dir)
                .stdin(expr + "\n")
                .timeout(Duration.ofMinutes(1))
                .run(all.toArray(String[]::new));
    }

    static CliRunner.Result strata(Path dir, String expr, String... args) {
        List<String> all = new ArrayList<>(List.of("console"));
        all.addAll(List.of(args));
        return CliRunner.in(dir).width(400).stdin(expr + "\n").run(all.toArray(String[]::new));
    }

    /**
     * The first error's "Error: summary" line and its detail with the wrapping undone, without the
     * source excerpt (indented lines) and without the CLI configuration warning Terraform may print first.
     */
    static String error(String stderr) {
        List<String> lines = stderr.lines().toList();
        int start = 0;
        while (start < lines.size() && !lines.get(start).startsWith("Error: ")) {
            start++;
        }
        assertThat(start).as(stderr).isLessThan(lines.size());
        StringBuilder detail = new StringBuilder();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("Error: ")) {
                break;
            }
            if (!line.isBlank() && !line.startsWith(" ") && !line.startsWith("\t")) {
                detail.append(detail.isEmpty() ? "" : " ").append(line.strip());
            }
        }
        return lines.get(start) + "\n" + detail;
    }
}
