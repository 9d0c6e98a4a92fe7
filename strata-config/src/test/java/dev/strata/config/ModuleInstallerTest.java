package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.outputsOf;
import static dev.strata.config.Fixtures.write;
import static dev.strata.testing.GitRepos.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Module;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata init}'s module installation from sources on this machine, and loading through the manifest. */
class ModuleInstallerTest {
    @TempDir
    Path dir;

    @TempDir
    Path elsewhere;

    /** What {@code strata init} (with {@code -upgrade} or not) did with the first module of {@code dir}. */
    private ModuleInstaller.Action firstAction(boolean upgrade) {
        return ModuleInstaller.install(dir, Fixtures.OPTIONS, upgrade)
                .value()
                .steps()
                .getFirst()
                .action();
    }

    /** A repository whose tag v1 has output "version" = "v1" and whose main branch has moved on to "v2". */
    private Path repository() throws IOException, InterruptedException {
        Path repo = elsewhere.resolve("repo");
        write(repo, "modules/net/main.tf", """
                variable "cidr" { type = string }
                module "sub" { source = "../sub" }
                output "version" { value = "v1" }
                output "cidr" { value = var.cidr }
                """, "modules/sub/main.tf", "output \"x\" { value = 1 }\n");
        git(repo, "init", "--quiet");
        git(repo, "add", ".");
        git(repo, "commit", "--quiet", "-m", "v1");
        git(repo, "tag", "v1");
        write(repo, "modules/net/main.tf", """
                variable "cidr" { type = string }
                module "sub" { source = "../sub" }
                output "version" { value = "v2" }
                """);
        git(repo, "commit", "--quiet", "-am", "v2");
        return repo;
    }

    private String netVersion(ConfigTree t) {
        return outputsOf(t, "net").get("version").value().range().filename();
    }

    @Test
    void gitRepositoryOnThisMachineIsClonedAtTheRefAndLoadedThroughTheManifest() throws Exception {
        Path repo = repository();
        String source = "git::file://" + repo + "//modules/net?ref=v1";
        write(
                dir,
                "main.tf",
                "module \"net\" {\n  source = \"" + source + "\"\n  cidr = \"10.0.0.0/16\"\n}\n"
                        + "output \"v\" { value = module.net.cidr }\n");

        Result<ConfigTree> before = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        // As Terraform, at the module block's header.
        assertThat(brief(before.diagnostics())).containsExactly("main.tf:1,1-13: Module not installed");
        assertThat(before.diagnostics().asList().getFirst().detail()).contains("Run \"strata init\"");

        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false);
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value().steps())
                .containsExactly(
                        new ModuleInstaller.Step(
                                "net", source, ".strata/modules/net/modules/net", ModuleInstaller.Action.INSTALLED),
                        new ModuleInstaller.Step(
                                "net.sub", "../sub", ".strata/modules/net/modules/sub", ModuleInstaller.Action.LOCAL));
        assertThat(Files.readString(dir.resolve(".strata/modules/net/modules/net/main.tf")))
                .contains("\"v1\"");
        assertThat(Files.readString(dir.resolve(".strata/modules/modules.json")))
                .isEqualTo("{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},"
                        + "{\"Key\":\"net\",\"Source\":\"" + source + "\",\"Dir\":\".strata/modules/net/modules/net\"},"
                        + "{\"Key\":\"net.sub\",\"Source\":\"../sub\","
                        + "\"Dir\":\".strata/modules/net/modules/sub\"}]}\n");

        Result<ConfigTree> after = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        assertThat(brief(after.diagnostics())).isEmpty();
        assertThat(brief(Validator.validate(after.value()))).isEmpty();
        assertThat(netVersion(after.value())).isEqualTo(".strata/modules/net/modules/net/main.tf");
        assertThat(after.value().node(Module.ROOT.child("net").child("sub"))).isPresent();
    }

    @Test
    void anInstalledModuleIsKeptUntilItsSourceChangesOrUpgradeIsAsked() throws Exception {
        Path repo = repository();
        write(dir, "main.tf", "module \"net\" {\n  source = \"git::" + repo + "//modules/net\"\n  cidr = \"x\"\n}\n");
        assertThat(firstAction(false)).isEqualTo(ModuleInstaller.Action.INSTALLED);
        Path main = dir.resolve(".strata/modules/net/modules/net/main.tf");
        assertThat(Files.readString(main)).contains("\"v2\"");
        Files.writeString(main, Files.readString(main).replace("\"v2\"", "\"edited\""));
        assertThat(firstAction(false)).isEqualTo(ModuleInstaller.Action.REUSED);
        assertThat(Files.readString(main)).contains("\"edited\"");
        assertThat(firstAction(true)).isEqualTo(ModuleInstaller.Action.INSTALLED);
        assertThat(Files.readString(main)).contains("\"v2\"");
    }

    /** As Terraform: a local module the manifest records is kept (init lists it again only with -upgrade). */
    @Test
    void theRootModuleIsHandedOverAsSoonAsItIsReadAndOnlyOnce() throws Exception {
        write(dir, "main.tf", "module \"l\" { source = \"./l\" }\n");
        write(dir, "l/main.tf", "output \"y\" { value = 1 }\n");
        java.util.List<Result<ModuleConfig>> seen = new java.util.ArrayList<>();
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(
                dir, ConfigLoader.Options.DEFAULT, false, RemoteAccess.of(java.util.Map.of()), seen::add);
        assertThat(r.hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).value()).isSameAs(r.value().tree().root().module());
        assertThat(seen.get(0).diagnostics().isEmpty()).isTrue();
    }

    @Test
    void aLocalModuleRecordedByAnEarlierInitIsReused() throws Exception {
        write(dir, "main.tf", "module \"l\" { source = \"./l\" }\n");
        write(dir, "l/main.tf", "output \"y\" { value = 1 }\n");
        assertThat(action(false)).isEqualTo(ModuleInstaller.Action.LOCAL);
        assertThat(action(false)).isEqualTo(ModuleInstaller.Action.REUSED);
        assertThat(action(true)).isEqualTo(ModuleInstaller.Action.LOCAL);
        write(dir, "main.tf", "module \"l\" { source = \"./m\" }\n");
        write(dir, "m/main.tf", "output \"y\" { value = 1 }\n");
        assertThat(action(false)).as("another source").isEqualTo(ModuleInstaller.Action.LOCAL);
    }

    private ModuleInstaller.Action action(boolean upgrade) {
        return ModuleInstaller.install(dir, Fixtures.OPTIONS, upgrade)
                .value()
                .steps()
                .getFirst()
                .action();
    }

    @Test
    void aMissingRefOrSubdirectoryIsReportedWithGitsReason() throws Exception {
        Path repo = repository();
        write(
                dir,
                "main.tf",
                "module \"a\" { source = \"git::file://" + repo + "?ref=nope\" }\n"
                        + "module \"b\" { source = \"git::file://" + repo + "//nowhere\" }\n");
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false);
        // The subdirectory's problem has no source location (so it comes first), as terraform 1.11 has it.
        assertThat(r.diagnostics().asList())
                .extracting(d -> d.summary())
                .containsExactly("Failed to expand subdir globs", "Failed to download module");
        assertThat(r.diagnostics().asList().getFirst().detail()).isEqualTo("subdir \"nowhere\" not found");
        assertThat(r.diagnostics().asList().getFirst().subject()).isNull();
        // As terraform 1.11 words it: go-getter's "error downloading", git's path, exit code and own output.
        assertThat(r.diagnostics().asList().get(1).detail())
                .startsWith("Could not download module \"a\" (main.tf:1) source code from \"git::file://" + repo
                        + "?ref=nope\": error downloading 'file://" + repo + "?ref=nope': ")
                .matches(
                        "(?s).*/git exited with 1: error: pathspec 'nope' did not match any file\\(s\\) known to git\n");
        assertThat(r.diagnostics().asList().get(1).subject().start().column()).isEqualTo(1);
        assertThat(r.value().listing())
                .extracting(ModuleInstaller.Step::key, ModuleInstaller.Step::action)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("a", ModuleInstaller.Action.FAILED),
                        org.assertj.core.groups.Tuple.tuple("b", ModuleInstaller.Action.FAILED));
    }

    /**
     * As terraform 1.11: a package's subdirectory is a pattern that must match one path ("modules/n*" installs
     * modules/net; "modules/*" matches two), and the manifest records the source as the URL it stands for.
     */
    @Test
    void aSubdirectoryPatternSelectsTheOnePathItMatches() throws Exception {
        Path repo = repository();
        write(
                dir,
                "main.tf",
                "module \"one\" {\n  source = \"git::" + repo + "//modules/n*?ref=v1\"\n  cidr = \"x\"\n}\n"
                        + "module \"two\" { source = \"" + repo + "//modules/*\" }\n");
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false);
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary, Diagnostic::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "Failed to expand subdir globs", "subdir \"modules/*\" matches multiple paths"));
        assertThat(r.value().listing())
                .extracting(ModuleInstaller.Step::key, ModuleInstaller.Step::action, ModuleInstaller.Step::dir)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "one", ModuleInstaller.Action.INSTALLED, ".strata/modules/one/modules/net"),
                        org.assertj.core.groups.Tuple.tuple(
                                "one.sub", ModuleInstaller.Action.LOCAL, ".strata/modules/one/modules/sub"),
                        org.assertj.core.groups.Tuple.tuple("two", ModuleInstaller.Action.FAILED, ""));
        assertThat(outputsOf(r.value().tree(), "one")).containsKey("version");
        assertThat(Files.readString(dir.resolve(ModuleManifest.FILE)))
                .contains("\"Source\":\"git::file://" + repo + "//modules/n*?ref=v1\"");
    }

    @Test
    void directoriesAndZipArchivesAtAbsolutePaths() throws IOException {
        Path module = elsewhere.resolve("pkg");
        write(module, "main.tf", "output \"o\" { value = \"copied\" }\n");
        Path zip = elsewhere.resolve("mod.zip");
        try (OutputStream out = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(out)) {
            z.putNextEntry(new ZipEntry("inner/main.tf"));
            z.write("output \"o\" { value = \"zipped\" }\n".getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        write(
                dir,
                "main.tf",
                "module \"copy\" { source = \"" + module + "\" }\n" + "module \"zip\" { source = \"file://" + zip
                        + "//inner\" }\n");
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false);
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value().steps())
                .extracting(ModuleInstaller.Step::dir)
                .containsExactly(".strata/modules/copy", ".strata/modules/zip/inner");
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        assertThat(brief(t.diagnostics())).isEmpty();
        assertThat(outputsOf(t.value(), "zip")).containsKey("o");
    }

    /**
     * A directory or archive path that is not there: "Failed to download module" at the block's header, with
     * the words terraform 1.11 gives (a directory's with "error downloading", an archive's without).
     */
    @Test
    void missingPackagesOnThisMachineAreReportedAsTerraformReportsThem() {
        Path gone = elsewhere.resolve("gone");
        write(
                dir,
                "main.tf",
                "module \"d\" {\n  source = \"" + gone + "//x\"\n}\nmodule \"z\" {\n  source = \"file://" + gone
                        + ".zip\"\n}\n");
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:1,1-11: Failed to download module", "main.tf:4,1-11: Failed to download module");
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::detail)
                .containsExactly(
                        "Could not download module \"d\" (main.tf:1) source code from \"file://" + gone
                                + "\": error downloading 'file://" + gone + "': source path error: stat " + gone
                                + ": no such file or directory",
                        "Could not download module \"z\" (main.tf:4) source code from \"file://" + gone
                                + ".zip\": source path error: stat " + gone + ".zip: no such file or directory");
    }

    @Test
    void anAddressNoInstallationMethodRecognisesIsInvalidWhereverTheConfigurationIsRead() {
        write(dir, "main.tf", """
                module "vpc" {
                  source = "modules/vpc"
                }
                """, "modules/vpc/main.tf", "");
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false);
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:2,12-25: Invalid module source address");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .contains("\"modules/vpc\"")
                .contains("write \"./modules/vpc\"");
        // Not installed, and a command that only reads the configuration says the same, not "not installed".
        assertThat(dir.resolve(".strata/modules/vpc")).doesNotExist();
        Result<ConfigTree> read = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        assertThat(brief(read.diagnostics())).containsExactly("main.tf:2,12-25: Invalid module source address");
    }

    @Test
    void sourcesStrataCannotFetchAreNamedAndNotInstalled() {
        write(dir, "main.tf", """
                module "gcs" { source = "gcs::https://www.googleapis.com/storage/v1/bucket/vpc.zip" }
                module "hg" { source = "hg::http://example.com/vpc.hg" }
                module "local" { source = "./local" }
                """, "local/main.tf", "");
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:1,25-84: Unsupported module source", "main.tf:2,24-55: Unsupported module source");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .contains("\"gcs::https://www.googleapis.com/storage/v1/bucket/vpc.zip\"")
                .contains("Strata cannot install modules from Google Cloud Storage sources");
        assertThat(r.diagnostics().asList().get(1).detail()).contains("Mercurial");
        assertThat(r.value().steps()).extracting(ModuleInstaller.Step::key).containsExactly("local");
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        assertThat(t.diagnostics().asList()).extracting(d -> d.summary()).containsOnly("Module not installed");
        assertThat(t.diagnostics().asList().getFirst().detail()).contains("cannot install modules from");
    }

    @Test
    void modulesTerraformInstalledAreFoundThroughItsManifest() {
        write(
                dir,
                "main.tf",
                "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n" + "  version = \"5.0.0\"\n}\n",
                ".terraform/modules/vpc/main.tf",
                "output \"vpc_id\" { value = \"v\" }\n",
                ".terraform/modules/modules.json",
                "{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},"
                        + "{\"Key\":\"vpc\",\"Source\":\"registry.terraform.io/terraform-aws-modules/vpc/aws\","
                        + "\"Version\":\"5.0.0\",\"Dir\":\".terraform/modules/vpc\"}]}");
        // Terraform records the registry source fully qualified; the call says it short.
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        assertThat(brief(t.diagnostics())).isEmpty();
        assertThat(outputsOf(t.value(), "vpc")).containsKey("vpc_id");
    }

    @Test
    void terraformsManifestIsReadFromTheDataDirectoryTfDataDirNames() {
        write(
                dir,
                "main.tf",
                "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n" + "  version = \"5.0.0\"\n}\n",
                "tfdata/modules/vpc/main.tf",
                "output \"vpc_id\" { value = \"v\" }\n",
                "tfdata/modules/modules.json",
                "{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},"
                        + "{\"Key\":\"vpc\",\"Source\":\"registry.terraform.io/terraform-aws-modules/vpc/aws\","
                        + "\"Version\":\"5.0.0\",\"Dir\":\"tfdata/modules/vpc\"}]}");
        Result<ConfigTree> t =
                ConfigLoader.loadTree(dir, Fixtures.OPTIONS.withEnvironment(java.util.Map.of("TF_DATA_DIR", "tfdata")));
        assertThat(brief(t.diagnostics())).isEmpty();
        assertThat(outputsOf(t.value(), "vpc")).containsKey("vpc_id");
        // Without TF_DATA_DIR only .terraform is looked in, where nothing was installed.
        assertThat(ConfigLoader.loadTree(dir, Fixtures.OPTIONS).diagnostics().asList())
                .extracting(d -> d.summary())
                .containsOnly("Module not installed");
        // An absolute TF_DATA_DIR is taken as it is.
        Result<ConfigTree> absolute = ConfigLoader.loadTree(
                dir,
                Fixtures.OPTIONS.withEnvironment(java.util.Map.of(
                        "TF_DATA_DIR", dir.resolve("tfdata").toAbsolutePath().toString())));
        assertThat(brief(absolute.diagnostics())).isEmpty();
    }

    @Test
    void sourceAddressesAreClassifiedAsTerraformReadsThem() {
        assertThat(ModuleSource.parse("./a")).isEqualTo(new ModuleSource.Local("./a"));
        assertThat(ModuleSource.parse("git::file:///r//m/n?ref=v1"))
                .isEqualTo(new ModuleSource.Git("file:///r", "v1", "m/n"));
        assertThat(ModuleSource.parse("git::/r")).isEqualTo(new ModuleSource.Git("/r", null, ""));
        assertThat(ModuleSource.parse("/abs/x.zip"))
                .isEqualTo(new ModuleSource.LocalPackage(Path.of("/abs/x.zip"), ""));
        assertThat(ModuleSource.parse("file:///abs/x.tgz//sub"))
                .isEqualTo(new ModuleSource.LocalPackage(Path.of("/abs/x.tgz"), "sub"));
        assertThat(ModuleSource.parse("hashicorp/consul/aws"))
                .isEqualTo(new ModuleSource.Registry("registry.terraform.io", "hashicorp", "consul", "aws", ""));
        assertThat(ModuleSource.parse("app.terraform.io/org/vpc/aws//modules/x"))
                .isEqualTo(new ModuleSource.Registry("app.terraform.io", "org", "vpc", "aws", "modules/x"));
        assertThat(ModuleSource.parse("git@github.com:org/repo.git"))
                .isEqualTo(new ModuleSource.Git("ssh://git@github.com/org/repo.git", null, ""));
        assertThat(ModuleSource.parse("git::ssh://git@example.com/r.git"))
                .isEqualTo(new ModuleSource.Git("ssh://git@example.com/r.git", null, ""));
        assertThat(ModuleSource.parse("https://example.com/m.zip"))
                .isEqualTo(new ModuleSource.Http("https://example.com/m.zip", ""));
        assertThat(ModuleSource.parse("gcs::https://www.googleapis.com/storage/v1/b/m.zip"))
                .isEqualTo(new ModuleSource.Remote("Google Cloud Storage"));
        assertThat(ModuleSource.parse("hg::http://example.com/r")).isEqualTo(new ModuleSource.Remote("Mercurial"));
        // What no installation method recognises, as terraform 1.11 rejects it: a directory without its "./",
        // a host and path without a scheme, a registry-like address with too many parts, and any of those or
        // a user other than git@ after git::.
        assertThat(ModuleSource.parse("modules/vpc")).isEqualTo(new ModuleSource.Undetected("modules/vpc"));
        assertThat(ModuleSource.parse("example.com/org/repo.git"))
                .isEqualTo(new ModuleSource.Undetected("example.com/org/repo.git"));
        assertThat(ModuleSource.parse("hashicorp/consul/aws/extra/x"))
                .isEqualTo(new ModuleSource.Undetected("hashicorp/consul/aws/extra/x"));
        assertThat(ModuleSource.parse("me@example.com:org/repo.git"))
                .isEqualTo(new ModuleSource.Undetected("me@example.com:org/repo.git"));
        assertThat(ModuleSource.parse("git::example.com/org/repo.git"))
                .isEqualTo(new ModuleSource.Undetected("example.com/org/repo.git"));
        assertThat(ModuleSource.parse("git::me@example.com:org/repo.git"))
                .isEqualTo(new ModuleSource.Undetected("me@example.com:org/repo.git"));
        // git:: before the GitHub shorthand, a URL or a path names a repository.
        assertThat(ModuleSource.parse("git::github.com/org/repo"))
                .isEqualTo(new ModuleSource.Git("https://github.com/org/repo.git", null, ""));
        assertThat(ModuleSource.parse("git::ftp://example.com/r")).isInstanceOf(ModuleSource.Git.class);
        assertThat(ModuleSource.parse("git::/srv/repo")).isInstanceOf(ModuleSource.Git.class);
        assertThat(ModuleSource.same("registry.terraform.io/hashicorp/consul/aws", "hashicorp/consul/aws"))
                .isTrue();
        assertThat(ModuleSource.same("git::https://github.com/org/repo.git?ref=v1", "github.com/org/repo?ref=v1"))
                .isTrue();
        assertThat(ModuleSource.same("hashicorp/consul/aws", "hashicorp/consul/azurerm"))
                .isFalse();
    }
}
