package dev.strata.cli.command.stacks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.strata.cli.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata stacks init} installs a component's Git source; plan and apply use the installed copy. */
class StacksInitSourcesTest {
    @TempDir
    Path dir;

    private void git(Path in, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@example.com"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd)
                    .directory(in.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (java.io.IOException e) {
            assumeThat(e).as("git is needed").isNull();
            return;
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    @Test
    void aGitComponentSourceIsInstalledByInitThenPlannedAndApplied() throws Exception {
        Path repo = dir.resolve("repo");
        Files.createDirectories(repo);
        Files.writeString(repo.resolve("main.tf"), """
                variable "name" {
                  type = string
                }
                resource "terraform_data" "this" {
                  input = var.name
                }
                output "name" {
                  value = terraform_data.this.output
                }
                """);
        git(repo, "init", "--quiet");
        git(repo, "add", "-A");
        git(repo, "commit", "--quiet", "-m", "module");
        Path stack = dir.resolve("stack");
        Files.createDirectories(stack);
        Files.writeString(stack.resolve("main.tfcomponent.hcl"), """
                required_providers {
                  terraform = {
                    source = "terraform.io/builtin/terraform"
                  }
                }
                provider "terraform" "main" {}
                component "a" {
                  source    = "git::file://%s"
                  inputs    = { name = "hi" }
                  providers = { terraform = provider.terraform.main }
                }
                """.formatted(repo.toAbsolutePath()));
        Files.writeString(stack.resolve("main.tfdeploy.hcl"), "deployment \"one\" {\n  inputs = {}\n}\n");
        CliRunner cli = CliRunner.in(stack);

        CliRunner.Result before = cli.run("stacks", "plan");
        assertThat(before.exitCode()).as(before.toString()).isEqualTo(1);
        assertThat(before.stderr()).contains("Source not installed").contains("strata stacks init");

        CliRunner.Result init = cli.run("stacks", "init");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout()).contains("installed in .strata/stacks/.modules/");

        CliRunner.Result apply = cli.run("stacks", "apply", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout()).contains("1 added");
    }
}
