package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.hcl.Nesting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input at the edges through the real CLI: configurations and values nested deeper than any limit,
 * and files that are missing, unreadable or damaged. Every case ends in a Terraform-style error with
 * exit code 1 and no Java wording.
 */
class EdgeInputTest {
    @TempDir
    Path dir;

    private CliRunner.Result run(String... args) {
        CliRunner.Result r = CliRunner.in(dir).run(args);
        for (String stream : List.of(r.stdout(), r.stderr())) {
            assertThat(stream)
                    .as(r.toString())
                    .doesNotContain("Exception")
                    .doesNotContain("java.")
                    .doesNotContain("at dev.strata")
                    .doesNotContain("Jackson")
                    .doesNotContain("Feature.");
        }
        return r;
    }

    private static String nestedUpper(int n) {
        return "upper(".repeat(n) + "\"a\"" + ")".repeat(n);
    }

    @Test
    void aConfigurationNestedAsDeepAsTerraformAcceptsValidatesAndPlans() throws IOException {
        // terraform validate accepts 60,000 nested calls (measured); the parser, the validator and
        // the plan all recurse per level.
        Files.writeString(dir.resolve("main.tf"), "output \"x\" {\n  value = " + nestedUpper(60_000) + "\n}\n");
        CliRunner.Result v = run("validate", "-no-color");
        assertThat(v.exitCode()).as(v.toString()).isZero();
        CliRunner.Result p = run("plan", "-no-color");
        assertThat(p.exitCode()).as(p.toString()).isZero();
        assertThat(p.stdout()).contains("+ x = \"A\"");
    }

    @Test
    void aConfigurationNestedBeyondTheLimitIsADiagnostic() throws IOException {
        Files.writeString(
                dir.resolve("main.tf"), "output \"x\" {\n  value = " + nestedUpper(Nesting.MAX_DEPTH + 1) + "\n}\n");
        CliRunner.Result r = run("validate", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Expression nested too deeply").contains("on main.tf line 2");
        assertThat(r.stderr().split("Error: ", -1)).hasSize(2);
    }

    @Test
    void consoleJsondecodeOfDeepInputFailsAsTerraformDoes() {
        String deep = "[".repeat(20_000) + "]".repeat(20_000);
        CliRunner.Result r = CliRunner.in(dir)
                .stdin("jsondecode(\"" + deep + "\")\nupper(\"still here\")\n")
                .run("console", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        // terraform console, same input: the same summary and message.
        assertThat(r.stderr()).contains("Error: Error in function call");
        assertThat(r.stderr().replaceAll("\\s+", " "))
                .contains("Call to function \"jsondecode\" failed: failed "
                        + "to read tuple value: invalid character '[' exceeded max depth.");
        assertThat(r.stdout()).contains("\"STILL HERE\"");
        assertThat(r.stdout() + r.stderr()).doesNotContain("Exception").doesNotContain("at dev.strata");
    }

    @Test
    void aMissingVarFileNamesThePath() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "variable \"a\" {\n  default = 1\n}\n");
        CliRunner.Result r = run("plan", "-no-color", "-var-file=nope.tfvars");
        assertThat(r.exitCode()).isEqualTo(1);
        // Terraform's text.
        assertThat(r.stderr())
                .contains("Error: Failed to read variables file")
                .contains("Given variables file nope.tfvars does not exist.");
    }

    @Test
    void aVarFileThatIsADirectoryGivesTheOsReason() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "variable \"a\" {\n  default = 1\n}\n");
        Files.createDirectory(dir.resolve("dir.tfvars"));
        CliRunner.Result r = run("plan", "-no-color", "-var-file=dir.tfvars");
        assertThat(r.exitCode()).isEqualTo(1);
        // Terraform: "Error while reading dir.tfvars: read dir.tfvars: is a directory."
        assertThat(r.stderr())
                .contains("Error: Failed to read variables file")
                .contains("Error while reading dir.tfvars: read dir.tfvars: is a directory.");
    }

    @Test
    void aCorruptPlanFileIsReportedWithoutParserWording() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "output \"x\" {\n  value = 1\n}\n");
        Files.writeString(dir.resolve("bad.tfplan"), "{\"magic\": \"strata-plan\", \"plan\": [1, 2,");
        for (String command : List.of("show", "apply")) {
            CliRunner.Result r = run(command, "-no-color", "bad.tfplan");
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.stderr().replaceAll("\\s+", " "))
                    .contains("Error: Failed to load \"bad.tfplan\" as a plan file")
                    .contains("not valid JSON: line 1, column 40: unexpected end-of-input")
                    .doesNotContain("Source:")
                    .doesNotContain("REDACTED");
        }
    }

    @Test
    void aMissingPlanFileNamesThePathAndTheReason() throws IOException {
        Files.writeString(dir.resolve("main.tf"), "output \"x\" {\n  value = 1\n}\n");
        CliRunner.Result r = run("apply", "-no-color", "gone.tfplan");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr().replaceAll("\\s+", " ")).contains("gone.tfplan: no such file or directory");
    }
}
