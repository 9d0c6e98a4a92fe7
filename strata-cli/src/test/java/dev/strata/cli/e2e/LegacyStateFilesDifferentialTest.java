package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files a local state leaves, against the real terraform 1.11: {@code apply}, {@code plan} and
 * {@code output} with the legacy {@code -state}, {@code -state-out} and {@code -backup}
 * flags, and the {@code state} subcommands' timestamped backups ({@code terraform.tfstate.<unix>.backup},
 * {@code -backup=PATH}). Compared by file names (timestamps neutral), exit codes and
 * what each file holds. Skipped where terraform is not on the PATH.
 */
class LegacyStateFilesDifferentialTest {
    private static final String CONFIG = """
            resource "terraform_data" "a" {
              input = "x"
            }
            resource "terraform_data" "b" {
              input = "y"
            }
            output "o" {
              value = terraform_data.a.output
            }
            """;

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @Test
    void operationsAndStateSubcommandsKeepTheSameFiles() throws Exception {
        Terraform terraform = Terraform.in(tf);
        Files.writeString(tf.resolve("main.tf"), CONFIG);
        Files.writeString(st.resolve("main.tf"), CONFIG);
        terraform.ok("init", "-no-color");

        both(terraform, 0, "apply", "-auto-approve", "-state=s.tfstate", "-no-color");
        both(terraform, 0, "apply", "-auto-approve", "-state=s.tfstate", "-state-out=o.tfstate", "-no-color");
        both(terraform, 0, "plan", "-state=o.tfstate", "-detailed-exitcode", "-no-color");
        assertThat(both(terraform, 0, "output", "-state=o.tfstate", "-raw", "o"))
                .isEqualTo("x");
        both(terraform, 0, "state", "list", "-state=o.tfstate");

        // The state subcommands that edit: a timestamped backup each, unless told otherwise.
        both(terraform, 0, "state", "mv", "-state=o.tfstate", "terraform_data.b", "terraform_data.c");
        both(terraform, 0, "apply", "-auto-approve", "-no-color");
        both(terraform, 0, "state", "rm", "terraform_data.b");
        both(terraform, 0, "state", "mv", "terraform_data.a", "terraform_data.d");
        both(terraform, 0, "state", "rm", "-backup=rm.backup", "terraform_data.d");
        assertThat(Files.readString(st.resolve("rm.backup"))).contains("\"d\"");
    }

    /** The command on both sides: same exit code, same files afterwards; returns strata's stdout. */
    private String both(Terraform terraform, int exit, String... args) throws Exception {
        ProcessResult t = terraform.run(args);
        CliRunner.Result s = CliRunner.in(st).env("TF_IN_AUTOMATION", "1").run(args);
        String what = String.join(" ", args);
        assertThat(t.exitCode())
                .as("terraform " + what + "\n" + t.stdout() + t.stderr())
                .isEqualTo(exit);
        assertThat(s.exitCode()).as(what + "\n" + s).isEqualTo(exit);
        assertThat(names(st)).as(what).isEqualTo(names(tf));
        // Timestamped backups hold the state each edit replaced: the same resources on both sides.
        for (String n : names(tf)) {
            if (n.endsWith(".tfstate") || n.endsWith(".backup")) {
                assertThat(resources(st.resolve(n.contains("<unix>") ? latest(st, n) : n)))
                        .as(n + " after " + what)
                        .isEqualTo(resources(tf.resolve(n.contains("<unix>") ? latest(tf, n) : n)));
            }
        }
        assertThat(text(s.stdout())).as(what).isEqualTo(text(t.stdout()));
        return s.stdout();
    }

    /** Comparable lines, without the progress lines (their order varies) and with ids neutral. */
    private static List<String> text(String stdout) {
        return ExamplesPlanDifferentialIT.comparable(stdout).stream()
                .filter(l ->
                        !l.matches(".*(Refreshing state|Creating|Creation complete|Destroying|Destruction complete).*"))
                .map(l -> l.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>"))
                .toList();
    }

    /** Resource names a state file lists, in order. */
    private static List<String> resources(Path file) throws Exception {
        String text = Files.readString(file);
        return java.util.regex.Pattern.compile("\"name\": \"([^\"]+)\"")
                .matcher(text)
                .results()
                .map(m -> m.group(1))
                .toList();
    }

    /** The newest timestamped backup whose neutral name is {@code neutral}. */
    private static String latest(Path dir, String neutral) throws Exception {
        String prefix = neutral.substring(0, neutral.indexOf("<unix>"));
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n ->
                            n.startsWith(prefix) && n.substring(prefix.length()).matches("\\d+\\.backup"))
                    .sorted()
                    .reduce((a, b) -> b)
                    .orElseThrow();
        }
    }

    /** The file names, timestamps neutral, duplicates (one per second) folded. */
    private static List<String> names(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith("."))
                    .map(n -> n.replaceAll("\\.\\d{10}\\.backup$", ".<unix>.backup"))
                    .distinct()
                    .sorted()
                    .toList();
        }
    }
}
