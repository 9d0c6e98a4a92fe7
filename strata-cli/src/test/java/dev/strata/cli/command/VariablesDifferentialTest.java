package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where input variable values come from, {@code strata console} against {@code terraform console}
 * (which resolves the root module's variables as plan does): undeclared names in variables files warn
 * (two warnings, then one counting the rest), on the command line they are errors, in the environment
 * they are ignored. Compared: exit status, the printed value, and each diagnostic's severity and
 * summary with how often it occurs. Skipped when no {@code terraform} binary is on the PATH.
 */
class VariablesDifferentialTest {
    private static final Pattern DIAG = Pattern.compile("^(Warning|Error): (.+)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    private record Run(int exit, String value, Map<String, Integer> diagnostics, String text) {}

    private void files(String... pathsAndContents) throws IOException {
        for (int i = 0; i < pathsAndContents.length; i += 2) {
            Files.writeString(dir.resolve(pathsAndContents[i]), pathsAndContents[i + 1]);
        }
    }

    private Run terraform(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("console", "-no-color"));
        all.addAll(List.of(args));
        ProcessResult r = Terraform.in(dir)
                .env(env)
                .stdin("var.a\n")
                .mergeStderr()
                .timeout(Duration.ofMinutes(2))
                .run(all.toArray(String[]::new));
        return run(r.exitCode(), r.stdout());
    }

    private Run strata(Map<String, String> env, String... args) {
        CliRunner runner = CliRunner.in(dir).stdin("var.a\n");
        env.forEach(runner::env);
        List<String> all = new ArrayList<>(List.of("console"));
        all.addAll(List.of(args));
        CliRunner.Result r = runner.run(all.toArray(String[]::new));
        return run(r.exitCode(), r.stdout() + r.stderr());
    }

    private static Run run(int exit, String text) {
        Map<String, Integer> diags = new TreeMap<>();
        Matcher m = DIAG.matcher(text);
        while (m.find()) {
            diags.merge(m.group(1) + ": " + m.group(2).strip(), 1, Integer::sum);
        }
        // The value is printed after the diagnostics, whose wrapped lines may also start with a quote.
        String value =
                text.lines().filter(l -> l.startsWith("\"")).reduce((a, b) -> b).orElse(null);
        return new Run(exit, value, diags, text);
    }

    private void same(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Run theirs = terraform(env, args);
        Run ours = strata(env, args);
        assertThat(ours.exit()).as(ours.text()).isEqualTo(theirs.exit());
        assertThat(ours.value()).as(ours.text()).isEqualTo(theirs.value());
        assertThat(ours.diagnostics())
                .as("ours:\n" + ours.text() + "\ntheirs:\n" + theirs.text())
                .isEqualTo(theirs.diagnostics());
    }

    @Test
    void undeclaredInFilesWarnTwiceThenCount() throws IOException, InterruptedException {
        files(
                "main.tf",
                "variable \"a\" { default = \"x\" }\n",
                "terraform.tfvars",
                "a = \"1\"\nzz = 1\nyy = 2\nxx = 3\n",
                "b.auto.tfvars",
                "ww = 1\n",
                "c.auto.tfvars.json",
                "{\"vv\": 1, \"uu\": 2}");
        same(Map.of("TF_VAR_nope", "1"));
        Run ours = strata(Map.of());
        assertThat(ours.text()).contains("4 other variable(s) defined");
    }

    /** A JSON variables file holds literal strings: "${...}" there is text, as Terraform reads it without a context. */
    @Test
    void jsonVariableFilesHoldLiteralStrings() throws IOException, InterruptedException {
        files("main.tf", "variable \"a\" {}\n", "terraform.tfvars.json", "{\"a\": \"${upper(var.x)}\"}");
        same(Map.of());
        assertThat(strata(Map.of()).value()).isEqualTo("\"${upper(var.x)}\"");
    }

    /** Function calls and references in a .tfvars file: each its own error, arguments not looked at. */
    @Test
    void constantsInVariableFiles() throws IOException, InterruptedException {
        files("main.tf", "variable \"a\" {}\n", "terraform.tfvars", "a = [upper(var.x), var.y, var.z]\n");
        same(Map.of());
    }

    @Test
    void oneUndeclaredInANamedFile() throws IOException, InterruptedException {
        files("main.tf", "variable \"a\" { default = \"x\" }\n", "extra.tfvars", "a = \"2\"\nb = 1\n");
        same(Map.of(), "-var-file=extra.tfvars");
    }

    @Test
    void undeclaredOnTheCommandLineIsAnError() throws IOException, InterruptedException {
        files("main.tf", "variable \"a\" { default = \"x\" }\n");
        same(Map.of(), "-var", "nope=1", "-var", "a=3");
    }

    @Test
    void undeclaredInTheEnvironmentIsIgnored() throws IOException, InterruptedException {
        files("main.tf", "variable \"a\" { default = \"x\" }\n");
        same(Map.of("TF_VAR_b", "1", "TF_VAR_a", "env"));
    }

    @Test
    void anUnsetRequiredVariableIsUnknownInTheConsole() throws IOException, InterruptedException {
        files("main.tf", "variable \"a\" {}\n");
        Run theirs = terraform(Map.of());
        Run ours = strata(Map.of());
        assertThat(ours.exit()).isEqualTo(theirs.exit());
        assertThat(ours.text().strip()).isEqualTo(theirs.text().strip()).isEqualTo("(known after apply)");
    }
}
