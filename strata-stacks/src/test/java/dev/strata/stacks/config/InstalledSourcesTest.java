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
        Result<StackConfig> loaded = StackLoader.load(stack, installing.installing(false, s -> {}));
        // Told once, by the loader, at the component's source: not as "Source not installed" besides.
        assertThat(loaded.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Failed to download module");
        Diagnostic d = loaded.diagnostics().asList().get(0);
        assertThat(d.detail())
                .contains("missing")
                .startsWith("Could not download the source from")
                .doesNotContain("module \"source\"");
        assertThat(d.subject().filename()).isEqualTo("main.tfcomponent.hcl");
        assertThat(d.subject().start().line()).isEqualTo(2);
        assertThat(installing.diagnostics().asList()).isEmpty();
    }

    @Test
    void theGeneratedCallIsNamedAsTheSource() {
        assertThat(InstalledSources.ofTheSource(
                        "Failed to retrieve available versions for module \"source\" (main.tf:1) from example.com."))
                .isEqualTo("Failed to retrieve available versions for the source from example.com.");
        assertThat(InstalledSources.ofTheSource(
                        "Module \"source\" (from main.tf:1) cannot be found in the module registry at example.com."))
                .isEqualTo("The source cannot be found in the module registry at example.com.");
        assertThat(InstalledSources.ofTheSource("Could not install the module \"source\" from \"git::x\"."))
                .isEqualTo("Could not install the source from \"git::x\".");
        assertThat(InstalledSources.ofTheSource(
                        "Could not download module \"source\" (main.tf:1) source code from \"git::x\": error"))
                .isEqualTo("Could not download the source from \"git::x\": error");
        assertThat(InstalledSources.ofTheSource("Module \"sources\" at main.tf:1"))
                .isEqualTo("Module \"sources\" at main.tf:1");
    }

    @Test
    void aRegistryComponentWithAVersionIsInstalledAtTheNewestAllowedVersion() throws Exception {
        java.util.Map<String, String> files = java.util.Map.of("main.tf", """
                variable "name" {
                  type = string
                }
                output "greeting" {
                  value = "hello ${var.name}"
                }
                """);
        try (dev.strata.testing.ModuleRegistryServer registry = dev.strata.testing.ModuleRegistryServer.start()) {
            registry.publish("acme/net/aws", "1.0.0", files, dev.strata.testing.ModuleRegistryServer.Archive.TAR_GZ)
                    .publish("acme/net/aws", "1.4.0", files, dev.strata.testing.ModuleRegistryServer.Archive.ZIP)
                    .publish(
                            "acme/net/aws",
                            "2.0.0",
                            java.util.Map.of("main.tf", ""),
                            dev.strata.testing.ModuleRegistryServer.Archive.ZIP);
            Path stack = dir.resolve("stack");
            Files.createDirectories(stack);
            Files.writeString(stack.resolve("main.tfcomponent.hcl"), """
                    component "net" {
                      source  = "example.com/acme/net/aws"
                      version = "~> 1.0"
                      inputs  = { name = "x" }
                    }
                    """);
            dev.strata.config.RemoteAccess access = dev.strata.config.RemoteAccess.of(java.util.Map.of())
                    .withConfig(
                            java.util.Map.of("example.com", java.util.Map.of("modules.v1", registry.servicesUrl())),
                            java.util.Map.of());
            InstalledSources installing = InstalledSources.of(stack);
            List<String> progress = new ArrayList<>();
            Result<StackConfig> init = StackLoader.load(stack, installing.installing(false, progress::add, access));
            assertThat(init.hasErrors()).as(init.diagnostics().toString()).isFalse();
            assertThat(installing.diagnostics().asList()).isEmpty();
            assertThat(installing.save().asList()).isEmpty();
            assertThat(progress)
                    .singleElement()
                    .asString()
                    .contains("\"example.com/acme/net/aws\" version \"~> 1.0\" installed in");
            // Plan and apply read the installed copy: 1.4.0, which declares the variable (2.0.0 does not).
            Result<StackConfig> after =
                    StackLoader.load(stack, InstalledSources.of(stack).reading());
            assertThat(after.hasErrors()).as(after.diagnostics().toString()).isFalse();
            assertThat(after.value().components().get("net").module().variables())
                    .containsKey("name");
            assertThat(registry.requests()).anyMatch(r -> r.contains("/v1/modules/acme/net/aws/1.4.0/download"));

            // A constraint no version meets is the registry's error, naming the package.
            Files.writeString(stack.resolve("main.tfcomponent.hcl"), """
                    component "net" {
                      source  = "example.com/acme/net/aws"
                      version = ">= 3.0"
                    }
                    """);
            InstalledSources failing = InstalledSources.of(stack);
            Result<StackConfig> failed = StackLoader.load(stack, failing.installing(false, s -> {}, access));
            assertThat(failed.diagnostics().asList())
                    .extracting(Diagnostic::summary)
                    .containsExactly("Unresolvable module version constraint");
            assertThat(failed.diagnostics().asList().get(0).subject().start().line())
                    .isEqualTo(2);
            assertThat(failed.diagnostics().asList().get(0).detail())
                    .contains("\"example.com/acme/net/aws\"")
                    .contains("The newest available version is 2.0.0.");
        }
    }
}
