package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code path.cwd} is the directory the command was started in, before {@code -chdir} applies, as in
 * Terraform (issue Q9 item 6); {@code path.root}, {@code path.module} and relative file paths follow
 * the {@code -chdir} target.
 */
class PathCwdTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @BeforeEach
    void config() throws Exception {
        Files.createDirectories(dir.resolve("sub/mod"));
        Files.writeString(dir.resolve("sub/main.tf"), """
                module "m" {
                  source = "./mod"
                }
                output "cwd" { value = path.cwd }
                output "root" { value = path.root }
                output "mod" { value = module.m.mod }
                output "here" { value = fileexists("main.tf") }
                resource "terraform_data" "x" {
                  input = basename(path.cwd)
                }
                """);
        Files.writeString(dir.resolve("sub/mod/main.tf"), "output \"mod\" { value = path.module }\n");
    }

    @Test
    void planAndApplyUnderChdirSeeTheStartingDirectory() throws Exception {
        CliRunner.Result plan = CliRunner.in(dir).run("-chdir=sub", "plan");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout())
                .contains("+ input  = \"" + dir.getFileName() + "\"")
                .contains("+ cwd  = \"" + dir + "\"")
                .contains("+ root = \".\"")
                .contains("+ mod  = \"mod\"")
                .contains("+ here = true");
        CliRunner.Result apply = CliRunner.in(dir).run("-chdir=sub", "apply", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        JsonNode state = JSON.readTree(dir.resolve("sub/terraform.tfstate").toFile());
        assertThat(state.at("/outputs/cwd/value").asText()).isEqualTo(dir.toString());
        assertThat(state.at("/resources/0/instances/0/attributes/input/value").asText())
                .isEqualTo(dir.getFileName().toString());
        // Without -chdir, path.cwd is the configuration's own directory.
        CliRunner.Result inside = CliRunner.in(dir.resolve("sub")).run("plan", "-detailed-exitcode");
        assertThat(inside.exitCode()).as(inside.toString()).isEqualTo(2);
        assertThat(inside.stdout()).contains("~ input  = \"" + dir.getFileName() + "\" -> \"sub\"");
    }

    @Test
    void consoleWithoutConfigurationKnowsPathCwdToo() throws Exception {
        Files.createDirectories(dir.resolve("empty"));
        CliRunner.Result r = CliRunner.in(dir).stdin("path.cwd\npath.root\n").run("-chdir=empty", "console");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).isEqualTo("\"" + dir + "\"\n\".\"\n");
    }

    @Test
    void consoleUnderChdirMatchesTerraform() throws Exception {
        CliRunner.Result ours = CliRunner.in(dir).stdin("path.cwd\n").run("-chdir=sub", "console");
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(ours.stdout().strip()).isEqualTo("\"" + dir + "\"");

        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        // A local module and the built-in provider only: init works offline.
        ProcessResult init = Terraform.at(terraform.get(), dir)
                .timeout(Duration.ofMinutes(2))
                .run("-chdir=sub", "init", "-input=false", "-no-color");
        assumeTrue(init.exitCode() == 0, "terraform init failed here");
        String theirs = Terraform.at(terraform.get(), dir)
                .stdin("path.cwd\n")
                .timeout(Duration.ofMinutes(1))
                .ok("-chdir=sub", "console");
        assertThat(ours.stdout().strip()).isEqualTo(theirs.strip());
    }
}
