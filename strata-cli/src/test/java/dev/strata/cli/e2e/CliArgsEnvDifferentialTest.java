package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code TF_CLI_ARGS} and {@code TF_CLI_ARGS_<command>} against the real terraform 1.11: the words a
 * value splits into (seen through {@code console}, which prints the variable they set), which of two
 * settings wins, the command-specific variable of a subcommand, invalid strings, and
 * {@code TF_CLI_ARGS=-no-color}. The terraform half is skipped where terraform is not on the PATH.
 */
class CliArgsEnvDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    static List<String> values() {
        return List.of(
                "-var x=a\\ b",
                "-var 'x=a\\b'",
                "-var \"x=a\\\\b\\\"c\\$d\\\\e\"",
                "-var x=a\"b c\"d",
                "-var x=a;b",
                "-var x=a|b",
                "-var x=''",
                "-var x=$HOME",
                "-var x=a\\nb",
                "-var x=`a b`",
                "-var x=$(a b)",
                "  -var  x=1 ",
                "-var x=a -var x=b",
                "-var \"x=a\\qb\"",
                "-var x=a\\",
                "-var 'x=a",
                "-var x=(a)",
                "-var x=`a",
                "-var x=a\tb");
    }

    @ParameterizedTest
    @MethodSource("values")
    void consoleSeesTheSameArguments(String value) throws Exception {
        Files.writeString(tf.resolve("main.tf"), "variable \"x\" {}\n");
        Files.writeString(st.resolve("main.tf"), "variable \"x\" {}\n");
        ProcessResult t = Terraform.in(tf)
                .env("TF_CLI_ARGS_console", value)
                .stdin("jsonencode(var.x)\n")
                .run("console");
        CliRunner.Result s = CliRunner.in(st)
                .env("TF_CLI_ARGS_console", value)
                .stdin("jsonencode(var.x)\n")
                .run("console");
        assertThat(s.exitCode()).as(s.toString()).isEqualTo(t.exitCode());
        if (t.exitCode() == 0) {
            assertThat(s.stdout()).isEqualTo(t.stdout());
        } else if (t.stderr().contains("Error parsing extra CLI args")) {
            assertThat(s.stderr()).contains("Error parsing extra CLI args from TF_CLI_ARGS_console");
        }
    }

    @Test
    void theCommandsOwnVariableComesFirstSoTheGeneralOneWins() throws Exception {
        Files.writeString(tf.resolve("main.tf"), "variable \"x\" {}\n");
        Files.writeString(st.resolve("main.tf"), "variable \"x\" {}\n");
        Map<String, String> env = Map.of("TF_CLI_ARGS", "-var x=general", "TF_CLI_ARGS_console", "-var x=own");
        ProcessResult t = Terraform.in(tf).env(env).stdin("var.x\n").run("console");
        CliRunner st1 = CliRunner.in(st).stdin("var.x\n");
        env.forEach(st1::env);
        CliRunner.Result s = st1.run("console");
        assertThat(s.stdout()).isEqualTo(t.stdout()).isEqualTo("\"general\"\n");
        // ... and what is typed wins over both.
        CliRunner st2 = CliRunner.in(st).stdin("var.x\n");
        env.forEach(st2::env);
        assertThat(st2.run("console", "-var", "x=typed").stdout()).isEqualTo("\"typed\"\n");
    }

    @Test
    void subcommandsHaveTheirOwnVariable() throws Exception {
        // TF_CLI_ARGS_state does not reach "state list"; TF_CLI_ARGS_state_list and TF_CLI_ARGS do.
        ProcessResult t1 = Terraform.in(tf).env("TF_CLI_ARGS_state", "-bogus").run("state", "list");
        CliRunner.Result s1 =
                CliRunner.in(st).env("TF_CLI_ARGS_state", "-bogus").run("state", "list");
        assertThat(t1.stderr()).doesNotContain("-bogus");
        assertThat(s1.stderr()).doesNotContain("-bogus");
        for (String variable : List.of("TF_CLI_ARGS", "TF_CLI_ARGS_state_list")) {
            ProcessResult t = Terraform.in(tf).env(variable, "-bogus").run("state", "list");
            CliRunner.Result s = CliRunner.in(st).env(variable, "-bogus").run("state", "list");
            assertThat(t.exitCode()).isEqualTo(1);
            assertThat(t.stderr()).contains("-bogus");
            assertThat(s.exitCode()).isEqualTo(1);
            assertThat(s.stderr()).contains("Unknown option -bogus");
        }
    }

    @Test
    void noColorFromTheEnvironmentTurnsColourOff() {
        CliRunner.Result s =
                CliRunner.in(st).terminal(true).env("TF_CLI_ARGS", "-no-color").run("validate", "-bogus");
        assertThat(s.exitCode()).isEqualTo(1);
        assertThat(s.stderr()).contains("Unknown option -bogus").doesNotContain("\u001b[");
    }
}
