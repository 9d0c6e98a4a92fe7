package dev.strata.stacks.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.testing.GitRepos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Component sources from a Git repository, installed into the Stack's directory and loaded from there. */
class InstalledSourcesTest {
    @TempDir
    Path dir;

    private Path repository() throws Exception {
        return GitRepos.commit(dir.resolve("repo"), Map.of("net/main.tf", """
                variable "name" {
                  type = string
                }
                output "greeting" {
                  value = "hello ${var.name}"
                }
                """), "v1");
    }

    @Test
    void aGitSourceIsAnErrorUntilInitInstallsItThenLoadsFromTheStack() throws Exception {
        Path repo = repository();
        Path stack = dir.resolve("stack");
        Files.createDirectories(stack);
        String source = "git::file://" + repo.toAbsolutePath() + "//net?ref=v1";
        Files.writeString(stack.resolve("main.tfcomponent.hcl"), """
                component "net" {
                  source = "%s"
                  inputs = { name = "x" }
                }
                """.formatted(source));

        Result<StackConfig> before =
                StackLoader.load(stack, InstalledSources.of(stack).reading());
        assertThat(before.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Source not installed");
        assertThat(before.diagnostics().asList().get(0).detail()).contains("strata stacks init");

        InstalledSources installing = InstalledSources.of(stack);
        List<String> progress = new ArrayList<>();
        Result<StackConfig> init = StackLoader.load(stack, installing.installing(false, progress::add));
        assertThat(init.hasErrors()).as(init.diagnostics().toString()).isFalse();
        assertThat(installing.diagnostics().asList()).isEmpty();
        assertThat(installing.save().asList()).isEmpty();
        assertThat(progress).singleElement().asString().contains("installed in .strata/stacks/.modules/");

        // The repository may go away: the installed copy is what plan and apply read.
        Files.walk(repo)
                .sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        Result<StackConfig> after =
                StackLoader.load(stack, InstalledSources.of(stack).reading());
        assertThat(after.hasErrors()).as(after.diagnostics().toString()).isFalse();
        Path moduleDir = after.value().components().get("net").moduleDir();
        assertThat(moduleDir).startsWith(stack.toAbsolutePath().resolve(InstalledSources.DIR));
        assertThat(moduleDir.resolve("main.tf")).exists();
        assertThat(after.value().components().get("net").module().variables()).containsKey("name");

        // Running init again keeps what is installed.
        List<String> again = new ArrayList<>();
        StackLoader.load(stack, InstalledSources.of(stack).installing(false, again::add));
        assertThat(again).singleElement().asString().contains("already installed");
    }

    @Test
    void aSourceThatCannotBeInstalledSaysWhy() throws Exception {
        Path stack = dir.resolve("stack");
        Files.createDirectories(stack);
        Files.writeString(stack.resolve("main.tfcomponent.hcl"), """
                component "net" {
                  source = "git::file://%s"
                }
                """.formatted(
                        dir.resolve("missing").toAbsolutePath()));
        InstalledSources installing = InstalledSources.of(stack);
        StackLoader.load(stack, installing.installing(false, s -> {}));
        assertThat(installing.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Failed to install module");
        assertThat(installing.diagnostics().asList().get(0).detail()).contains("missing");
    }
}
