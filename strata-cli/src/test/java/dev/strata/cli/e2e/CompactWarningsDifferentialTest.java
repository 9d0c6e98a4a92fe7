package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -compact-warnings} against the real terraform 1.11: failing check assertions (warnings with a
 * place) listed by summary on plan and apply, the same exit codes, and errors still printed in full.
 * Skipped where terraform is not on the PATH.
 */
class CompactWarningsDifferentialTest {
    private static final String CONFIG = """
            resource "terraform_data" "a" {
              input = "x"
            }
            check "one" {
              assert {
                condition     = terraform_data.a.input == "y"
                error_message = "not y"
              }
            }
            check "two" {
              assert {
                condition     = terraform_data.a.input == "z"
                error_message = "never"
              }
              assert {
                condition     = terraform_data.a.input == "w"
                error_message = "never2"
              }
            }
            """;

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @BeforeEach
    void write() throws Exception {
        Files.writeString(tf.resolve("main.tf"), CONFIG);
        Files.writeString(st.resolve("main.tf"), CONFIG);
    }

    @Test
    void planAndApplyListWarningsCompactly() throws Exception {
        Terraform terraform = Terraform.in(tf);
        terraform.ok("init", "-no-color");
        CliRunner.Result plan = same(terraform, "plan", "-no-color", "-compact-warnings");
        assertThat(plan.stdout())
                .contains("\nWarnings:\n\n- Check block assertion failed\n  on main.tf line 6\n")
                .contains("To see the full warning notes, run Strata without -compact-warnings.")
                .doesNotContain("Warning: ");
        CliRunner.Result apply = same(terraform, "apply", "-no-color", "-auto-approve", "-compact-warnings");
        assertThat(apply.stdout()).contains("- Check block assertion failed\n  on main.tf line 16\n");
    }

    @Test
    void withoutTheFlagWarningsAreFull() throws Exception {
        CliRunner.Result plan = CliRunner.in(st).run("plan", "-no-color");
        assertThat(plan.stdout())
                .contains("Warning: Check block assertion failed")
                .doesNotContain("Warnings:");
    }

    @Test
    void machineReadableOutputIsNotCompacted() {
        CliRunner.Result plan = CliRunner.in(st).run("plan", "-json", "-compact-warnings");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout())
                .contains("\"@level\":\"warn\"")
                .contains("Check block assertion failed")
                .doesNotContain("Warnings:");
    }

    @Test
    void destroyAndRefreshTakeTheFlag() {
        CliRunner strata = CliRunner.in(st).env("TF_IN_AUTOMATION", "1");
        assertThat(strata.run("apply", "-auto-approve", "-no-color").exitCode()).isZero();
        CliRunner.Result refresh = strata.run("refresh", "-no-color", "-compact-warnings");
        assertThat(refresh.exitCode()).as(refresh.toString()).isZero();
        assertThat(refresh.stdout()).contains("Warnings:\n\n- Check block assertion failed\n  on main.tf line 6\n");
        CliRunner.Result destroy = strata.run("destroy", "-auto-approve", "-no-color", "-compact-warnings");
        assertThat(destroy.exitCode()).as(destroy.toString()).isZero();
        assertThat(destroy.stdout()).doesNotContain("Warning: ");
    }

    @Test
    void errorsStayFull() throws Exception {
        Terraform terraform = Terraform.in(tf);
        terraform.ok("init", "-no-color");
        Files.writeString(tf.resolve("bad.tf"), "output \"o\" {\n  value = var.nope\n}\n");
        Files.writeString(st.resolve("bad.tf"), "output \"o\" {\n  value = var.nope\n}\n");
        ProcessResult t = terraform.run("plan", "-no-color", "-compact-warnings");
        CliRunner.Result s = CliRunner.in(st).run("plan", "-no-color", "-compact-warnings");
        assertThat(s.exitCode()).isEqualTo(t.exitCode()).isEqualTo(1);
        assertThat(s.stderr())
                .contains("Error: Reference to undeclared input variable")
                .contains("on bad.tf line 2");
        assertThat(s.stdout()).doesNotContain("Warnings:");
    }

    /** One command on both sides: the same exit code and the same stdout, ids and tool names aside. */
    private CliRunner.Result same(Terraform terraform, String... args) throws Exception {
        ProcessResult t = terraform.run(args);
        CliRunner.Result s = CliRunner.in(st).env("TF_IN_AUTOMATION", "1").run(args);
        String what = String.join(" ", args);
        assertThat(s.exitCode())
                .as(what + "\n" + s + "\nterraform:\n" + t.stdout() + t.stderr())
                .isEqualTo(t.exitCode())
                .isZero();
        assertThat(comparable(s.stdout())).as(what).isEqualTo(comparable(t.stdout()));
        return s;
    }

    private static List<String> comparable(String stdout) {
        return ExamplesPlanDifferentialIT.comparable(stdout).stream()
                .map(l -> l.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>"))
                .map(l -> l.replaceAll("\\[[0-9]+s elapsed]", ""))
                .toList();
    }
}
