package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
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
        assertThat(plan.stdout()).contains("+ input  = \"" + dir.getFileName() + "\"")
                .contains("+ cwd  = \"" + dir + "\"").contains("+ root = \".\"").contains("+ mod  = \"mod\"")
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

        Optional<Path> terraform = PlanJsonDifferentialTest.terraform();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        // A local module and the built-in provider only: init works offline.
        Process init = terraform(terraform.get(), "-chdir=sub", "init", "-input=false", "-no-color").start();
        init.getOutputStream().close();
        init.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        assertThat(init.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assumeTrue(init.exitValue() == 0, "terraform init failed here");
        Process p = terraform(terraform.get(), "-chdir=sub", "console").start();
        p.getOutputStream().write("path.cwd\n".getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String theirs = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(ours.stdout().strip()).isEqualTo(theirs.strip());
    }

    private ProcessBuilder terraform(Path exe, String... args) {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(exe.toString()));
        cmd.addAll(java.util.List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("CHECKPOINT_DISABLE", "1");
        pb.environment().put("TF_CLI_CONFIG_FILE", "/dev/null");
        return pb;
    }
}
