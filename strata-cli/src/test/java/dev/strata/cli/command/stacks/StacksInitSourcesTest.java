package dev.strata.cli.command.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.GitRepos;
import dev.strata.testing.StackTexts;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata stacks init} installs a component's Git source; plan and apply use the installed copy. */
class StacksInitSourcesTest {
    @TempDir
    Path dir;

    @Test
    void aGitComponentSourceIsInstalledByInitThenPlannedAndApplied() throws Exception {
        Path repo = GitRepos.commit(dir.resolve("repo"), Map.of("main.tf", StackTexts.NAME_MODULE));
        Path stack = StackTexts.write(dir.resolve("stack"), """
                component "a" {
                  source    = "git::file://%s"
                  inputs    = { name = "hi" }
                  providers = { terraform = provider.terraform.main }
                }
                """.formatted(repo.toAbsolutePath()));
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
