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
 * {@code taint} and {@code untaint} against the real terraform 1.11, step by step on the same
 * configuration: exit codes, stdout and stderr (tool names neutral, paragraphs joined), the
 * {@code "status": "tainted"} they leave in the state, the backup, and the plan that follows a taint.
 * Skipped where terraform is not on the PATH.
 */
class TaintDifferentialTest {
    private static final String CONFIG = """
            resource "terraform_data" "a" {
              input = "x"
            }
            resource "terraform_data" "c" {
              count = 2
              input = count.index
            }
            """;

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @Test
    void taintAndUntaintMatchTerraform() throws Exception {
        Terraform terraform = Terraform.in(tf);
        Files.writeString(tf.resolve("main.tf"), CONFIG);
        Files.writeString(st.resolve("main.tf"), CONFIG);
        terraform.ok("init", "-no-color");

        // Nothing applied yet: no instances at all, -allow-missing only warns and writes nothing.
        step(terraform, "taint", "terraform_data.a");
        step(terraform, "taint", "-allow-missing", "terraform_data.a");
        assertThat(tf.resolve("terraform.tfstate")).doesNotExist();
        assertThat(st.resolve("terraform.tfstate")).doesNotExist();

        terraform.ok("apply", "-auto-approve", "-no-color");
        assertThat(strata().run("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();

        step(terraform, "taint", "terraform_data.a");
        assertThat(Files.readString(st.resolve("terraform.tfstate"))).contains("\"status\": \"tainted\"");
        assertThat(st.resolve("terraform.tfstate.backup")).exists();
        step(terraform, "taint", "terraform_data.c[1]");
        step(terraform, "taint", "terraform_data.b");
        step(terraform, "taint", "-allow-missing", "terraform_data.b");
        step(terraform, "taint", "terraform_data.c[5]");
        step(terraform, "taint", "data.x.y");
        step(terraform, "taint");
        step(terraform, "taint", "a", "b");
        step(terraform, "taint", "-lock-timeout=1s", "terraform_data.a");

        // The next plan replaces what is tainted.
        ProcessResult tfPlan = terraform.run("plan", "-no-color");
        CliRunner.Result stPlan = strata().run("plan", "-no-color");
        assertThat(stPlan.exitCode()).isEqualTo(tfPlan.exitCode()).isZero();
        assertThat(planText(stPlan.stdout())).isEqualTo(planText(tfPlan.stdout()));

        step(terraform, "untaint", "terraform_data.a");
        step(terraform, "untaint", "terraform_data.a");
        step(terraform, "untaint", "terraform_data.b");
        step(terraform, "untaint", "-allow-missing", "terraform_data.b");
        step(terraform, "untaint", "-lock=false", "terraform_data.c[1]");
        assertThat(Files.readString(st.resolve("terraform.tfstate"))).doesNotContain("tainted");
    }

    @Test
    void legacyStatePathsMatchTerraform() throws Exception {
        Terraform terraform = Terraform.in(tf);
        Files.writeString(tf.resolve("main.tf"), CONFIG);
        Files.writeString(st.resolve("main.tf"), CONFIG);
        terraform.ok("init", "-no-color");
        terraform.ok("apply", "-auto-approve", "-no-color");
        assertThat(strata().run("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        Files.move(tf.resolve("terraform.tfstate"), tf.resolve("s.tfstate"));
        Files.move(st.resolve("terraform.tfstate"), st.resolve("s.tfstate"));

        // -state: read and written there, backed up beside it.
        step(terraform, "taint", "-state=s.tfstate", "terraform_data.a");
        sameFiles();
        assertThat(Files.readString(st.resolve("s.tfstate"))).contains("tainted");
        // -state-out: the source stays as it was; the new file has no backup (nothing was overwritten).
        step(terraform, "untaint", "-state=s.tfstate", "-state-out=o.tfstate", "terraform_data.a");
        sameFiles();
        assertThat(Files.readString(st.resolve("s.tfstate"))).contains("tainted");
        assertThat(Files.readString(st.resolve("o.tfstate"))).doesNotContain("tainted");
        // -backup=-: no backup at all.
        step(terraform, "taint", "-state=o.tfstate", "-backup=-", "terraform_data.a");
        sameFiles();
        // -state-out over an existing file: that file is what gets backed up.
        step(terraform, "untaint", "-state=o.tfstate", "-state-out=s.tfstate", "terraform_data.a");
        sameFiles();
        assertThat(Files.readString(st.resolve("s.tfstate.backup"))).contains("tainted");
        // -backup=PATH.
        step(terraform, "taint", "-state=s.tfstate", "-backup=my.backup", "terraform_data.a");
        sameFiles();
        assertThat(Files.readString(st.resolve("my.backup"))).doesNotContain("tainted");
        // Nothing at the default path was ever written.
        assertThat(st.resolve("terraform.tfstate")).doesNotExist();
    }

    /** Both directories hold the same files (names), whatever their content. */
    private void sameFiles() throws Exception {
        assertThat(names(st)).isEqualTo(names(tf));
    }

    private static List<String> names(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith("."))
                    .sorted()
                    .toList();
        }
    }

    /** One command on both sides: same exit code and, where terraform says something, the same words. */
    private void step(Terraform terraform, String... args) throws Exception {
        String[] withNoColor = concat(args);
        ProcessResult t = terraform.run(withNoColor);
        CliRunner.Result s = strata().run(withNoColor);
        String what = String.join(" ", args);
        assertThat(s.exitCode())
                .as(what + "\n" + s + "\nterraform:\n" + t.stdout() + t.stderr())
                .isEqualTo(t.exitCode());
        assertThat(trimmed(s.stdout())).as(what).isEqualTo(trimmed(t.stdout()));
        if (t.exitCode() == 0 || t.stderr().contains("Error: ") && !t.stderr().contains("Invalid address")) {
            assertThat(trimmed(s.stderr())).as(what).isEqualTo(trimmed(t.stderr()));
        } else {
            // Usage errors and address syntax: Terraform prints its usage text; Strata names the problem and -help.
            assertThat(s.stderr()).as(what).isNotBlank();
        }
    }

    /** The plan's comparable lines, without the refresh lines (their order varies) and with ids neutral. */
    private static List<String> planText(String stdout) {
        return ExamplesPlanDifferentialIT.comparable(stdout).stream()
                .filter(l -> !l.contains("Refreshing state..."))
                .map(l -> l.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>"))
                .toList();
    }

    /** Comparable lines without the blank line terraform ends its diagnostics with. */
    private static List<String> trimmed(String text) {
        // Tool names again after joining: a wrapped "terraform\napply" is only whole now.
        List<String> l = new java.util.ArrayList<>(ExamplesPlanDifferentialIT.comparable(text).stream()
                .map(x -> x.replaceAll("\\b(terraform|strata) apply\\b", "<tool> apply"))
                .toList());
        while (!l.isEmpty() && l.getLast().isBlank()) {
            l.removeLast();
        }
        return l;
    }

    private static String[] concat(String[] args) {
        return java.util.stream.Stream.concat(
                        java.util.stream.Stream.of(args[0], "-no-color"),
                        List.of(args).stream().skip(1))
                .toArray(String[]::new);
    }

    private CliRunner strata() {
        return CliRunner.in(st).env("TF_IN_AUTOMATION", "1");
    }
}
