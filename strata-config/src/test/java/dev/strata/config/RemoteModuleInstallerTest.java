package dev.strata.config;

import static dev.strata.config.Fixtures.brief;
import static dev.strata.config.Fixtures.outputsOf;
import static dev.strata.config.Fixtures.write;
import static dev.strata.testing.GitRepos.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.testing.ModuleRegistryServer;
import dev.strata.testing.ModuleRegistryServer.Archive;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Installing registry and HTTP module sources from a loopback registry the CLI configuration points at. */
class RemoteModuleInstallerTest {
    private static final Map<String, String> WEB = Map.of(
            "main.tf", "variable \"n\" {\n  default = \"x\"\n}\noutput \"v\" {\n  value = \"hello-${var.n}\"\n}\n",
            "modules/sub/main.tf", "output \"s\" {\n  value = 1\n}\n");

    @TempDir
    Path dir;

    private ModuleRegistryServer registry;

    @BeforeEach
    void start() throws IOException {
        registry = ModuleRegistryServer.start();
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    private RemoteAccess access(Map<String, String> env, Map<String, String> credentials) {
        return new RemoteAccess(new TreeMap<>(), new TreeMap<>(), env, Duration.ofSeconds(10))
                .withConfig(Map.of("example.com", Map.of("modules.v1", registry.servicesUrl())), credentials);
    }

    private Result<ModuleInstaller.Installation> install(boolean upgrade) {
        return ModuleInstaller.install(dir, Fixtures.OPTIONS, upgrade, access(Map.of(), Map.of()));
    }

    private String manifest() throws IOException {
        return Files.readString(dir.resolve(ModuleManifest.FILE), StandardCharsets.UTF_8);
    }

    private void web(String constraint) {
        write(
                dir,
                "main.tf",
                "module \"web\" {\n  source  = \"example.com/acme/web/aws\"\n  version = \"" + constraint + "\"\n}\n");
    }

    /**
     * As terraform 1.11: a registry package is installed, listed and recorded whole, and a subdirectory its
     * address names that the package lacks (not a pattern there) is "Unreadable module subdirectory", without
     * a source location, naming the directory.
     */
    @Test
    void aRegistrySubdirectoryThePackageLacksIsUnreadable() throws IOException {
        registry.publish("acme/web/aws", "1.0.0", WEB, Archive.TAR_GZ);
        write(dir, "main.tf", "module \"web\" {\n  source = \"example.com/acme/web/aws//modules/s*\"\n}\n");
        Result<ModuleInstaller.Installation> r = install(false);
        assertThat(r.diagnostics().asList()).hasSize(1);
        Diagnostic d = r.diagnostics().asList().getFirst();
        assertThat(d.summary()).isEqualTo("Unreadable module subdirectory");
        assertThat(d.detail())
                .isEqualTo("The directory .strata/modules/web/modules/s* does not exist: the package of module "
                        + "\"web\" has no subdirectory \"modules/s*\".");
        assertThat(d.subject()).isNull();
        assertThat(r.value().listing())
                .extracting(
                        ModuleInstaller.Step::key,
                        ModuleInstaller.Step::action,
                        ModuleInstaller.Step::dir,
                        ModuleInstaller.Step::label)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "web",
                        ModuleInstaller.Action.INSTALLED,
                        ".strata/modules/web/modules/s*",
                        "example.com/acme/web/aws 1.0.0"));
        assertThat(dir.resolve(".strata/modules/web/modules/sub/main.tf")).exists();
        assertThat(manifest())
                .contains("{\"Key\":\"web\",\"Source\":\"example.com/acme/web/aws//modules/s*\","
                        + "\"Version\":\"1.0.0\",\"Dir\":\".strata/modules/web/modules/s*\"}");
    }

    @Test
    void registryModuleIsInstalledAtTheNewestAllowedVersionWithTheTokenAndRecordedWithItsVersion() throws IOException {
        registry.publish("acme/web/aws", "1.0.0", WEB, Archive.TAR_GZ)
                .publish("acme/web/aws", "1.2.0", WEB, Archive.TAR_GZ)
                .publish("acme/web/aws", "2.0.0", WEB, Archive.ZIP)
                .requireToken("s3cr3t");
        write(dir, "main.tf", """
                module "web" {
                  source  = "example.com/acme/web/aws"
                  version = "~> 1.0"
                }
                module "sub" {
                  source  = "example.com/acme/web/aws//modules/sub"
                  version = "2.0.0"
                }
                """);
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(
                dir, Fixtures.OPTIONS, false, access(Map.of(), Map.of("example.com", "s3cr3t")));
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(r.value().steps())
                .extracting(s -> s.key() + " " + s.action() + " " + s.label() + " " + s.dir())
                .containsExactly(
                        "sub INSTALLED example.com/acme/web/aws 2.0.0 .strata/modules/sub/modules/sub",
                        "web INSTALLED example.com/acme/web/aws 1.2.0 .strata/modules/web");
        assertThat(manifest())
                .isEqualTo("{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},"
                        + "{\"Key\":\"sub\",\"Source\":\"example.com/acme/web/aws//modules/sub\",\"Version\":\"2.0.0\","
                        + "\"Dir\":\".strata/modules/sub/modules/sub\"},"
                        + "{\"Key\":\"web\",\"Source\":\"example.com/acme/web/aws\",\"Version\":\"1.2.0\","
                        + "\"Dir\":\".strata/modules/web\"}]}\n");
        assertThat(ModuleInstaller.installedVersions(dir, null)).isEqualTo(Map.of("sub", "2.0.0", "web", "1.2.0"));
        // API calls carry the token; the archive download (another service) does not.
        assertThat(registry.requests())
                .filteredOn(q -> q.contains("/v1/modules/"))
                .allMatch(q -> q.endsWith(" auth=Bearer s3cr3t"));
        assertThat(registry.requests()).filteredOn(q -> q.contains("/files/")).noneMatch(q -> q.contains("auth="));
        Result<ConfigTree> t = ConfigLoader.loadTree(dir, Fixtures.OPTIONS);
        assertThat(brief(t.diagnostics())).isEmpty();
        assertThat(outputsOf(t.value(), "web")).containsKey("v");
        assertThat(outputsOf(t.value(), "sub")).containsKey("s");
    }

    @Test
    void tfTokenVariableWinsOverTheCredentialsBlock() {
        registry.publish("acme/web/aws", "1.0.0", WEB, Archive.TAR_GZ).requireToken("from-env");
        web("1.0.0");
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(
                dir,
                Fixtures.OPTIONS,
                false,
                access(Map.of("TF_TOKEN_example_com", "from-env"), Map.of("example.com", "from-file")));
        assertThat(brief(r.diagnostics())).isEmpty();
        assertThat(RemoteAccess.of(Map.of("TF_TOKEN_my__reg_example_com", "t")).token("my-reg.example.com"))
                .contains("t");
        assertThat(access(Map.of(), Map.of("example.com", "secret")).toString()).doesNotContain("secret");
    }

    @Test
    void reinitKeepsTheVersionUpgradeTakesANewerOneAndAChangedConstraintReinstalls() throws IOException {
        registry.publish("acme/web/aws", "1.0.0", WEB, Archive.TAR_GZ);
        web(">= 1.0");
        assertThat(brief(install(false).diagnostics())).isEmpty();
        assertThat(manifest()).contains("\"Version\":\"1.0.0\"");
        registry.publish("acme/web/aws", "1.1.0", WEB, Archive.TAR_GZ);
        int before = registry.requests().size();
        Result<ModuleInstaller.Installation> again = install(false);
        assertThat(again.value().steps())
                .extracting(ModuleInstaller.Step::action)
                .containsExactly(ModuleInstaller.Action.REUSED);
        assertThat(registry.requests()).hasSize(before);
        assertThat(manifest()).contains("\"Version\":\"1.0.0\"");
        assertThat(install(true).value().steps())
                .extracting(ModuleInstaller.Step::version)
                .containsExactly("1.1.0");
        assertThat(manifest()).contains("\"Version\":\"1.1.0\"");
        // A constraint the installed version no longer meets: loading says so, init installs again.
        web("1.0.0");
        assertThat(ConfigLoader.loadTree(dir, Fixtures.OPTIONS).diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Module version requirements have changed");
        assertThat(install(false).value().steps())
                .extracting(ModuleInstaller.Step::version)
                .containsExactly("1.0.0");
    }

    @Test
    void aConstraintNothingMeetsIsTerraformsError() {
        registry.publish("acme/web/aws", "1.0.0", WEB, Archive.TAR_GZ)
                .publish("acme/web/aws", "2.0.0", WEB, Archive.TAR_GZ);
        web(">= 3.0");
        Result<ModuleInstaller.Installation> r = install(false);
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:1,1-13: Unresolvable module version constraint");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("There is no available version of module \"example.com/acme/web/aws\" (main.tf:1) which "
                        + "matches the given version constraint. The newest available version is 2.0.0.");
        assertThat(dir.resolve(".strata/modules/web")).doesNotExist();
    }

    @Test
    void anUnknownPackageIsModuleNotFound() {
        write(dir, "main.tf", "\n\nmodule \"none\" {\n  source  = \"example.com/acme/missing/aws\"\n}\n");
        Result<ModuleInstaller.Installation> r = install(false);
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:3,1-14: Module not found");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("Module \"none\" (from main.tf:3) cannot be found in the module registry at example.com.");
    }

    @Test
    void anUnreachableRegistryNamesTheUrlAndTheReason() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        web("1.0.0");
        RemoteAccess access = RemoteAccess.of(Map.of())
                .withConfig(
                        Map.of("example.com", Map.of("modules.v1", "http://127.0.0.1:" + port + "/v1/modules/")),
                        Map.of());
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false, access);
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:1,1-13: Error accessing remote module registry");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("Failed to retrieve available versions for module \"web\" (main.tf:1) from example.com: "
                        + "Get \"http://127.0.0.1:" + port + "/v1/modules/acme/web/aws/versions\": connect: "
                        + "connection refused (giving up after 3 attempts).");
    }

    @Test
    void downloadLocationInJsonAndAMissingArchiveLeavesNothingBehind() throws IOException {
        registry.publish("acme/web/aws", "1.0.0", WEB, Archive.ZIP).answerWithJson();
        web("1.0.0");
        assertThat(brief(install(false).diagnostics())).isEmpty();
        assertThat(dir.resolve(".strata/modules/web/main.tf")).exists();

        registry.publishAt("acme/web/aws", "1.1.0", "/files/gone.tar.gz");
        web("1.1.0");
        Result<ModuleInstaller.Installation> r = install(false);
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:1,1-13: Failed to download module");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("Could not download module \"web\" (main.tf:1) source code from \"" + registry.url()
                        + "/files/gone.tar.gz\": bad response code: 404.");
        // The failed attempt left the earlier installation as it was and no temporary directory.
        assertThat(dir.resolve(".strata/modules/web/main.tf")).exists();
        try (Stream<Path> s = Files.list(dir.resolve(".strata/modules"))) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly("modules.json", "web");
        }
    }

    @Test
    void httpArchivesAndXTerraformGetRedirectsAreInstalled() {
        String zip = registry.file("/pkg/net.zip", Map.of("main.tf", "output \"z\" {\n  value = 1\n}\n"), Archive.ZIP);
        String tgz =
                registry.file("/pkg/net", Map.of("inner/main.tf", "output \"t\" {\n  value = 1\n}\n"), Archive.TAR_GZ);
        registry.redirect("/get/app", "/pkg/net.zip");
        write(
                dir,
                "main.tf",
                "module \"zip\" {\n  source = \"" + zip + "\"\n}\n"
                        + "module \"tgz\" {\n  source = \"" + tgz + "//inner?archive=tar.gz\"\n}\n"
                        + "module \"redir\" {\n  source = \"" + registry.url() + "/get/app\"\n}\n"
                        + "module \"missing\" {\n  source = \"" + registry.url() + "/nothing.zip\"\n}\n"
                        + "module \"plain\" {\n  source = \"" + registry.url() + "/pkg/net.zip/x\"\n}\n");
        Result<ModuleInstaller.Installation> r = install(false);
        assertThat(brief(r.diagnostics()))
                .containsExactly(
                        "main.tf:10,1-17: Failed to download module", "main.tf:13,1-15: Failed to download module");
        assertThat(r.diagnostics().asList().get(0).detail()).endsWith("/nothing.zip\": bad response code: 404.");
        assertThat(r.diagnostics().asList().get(1).detail()).endsWith(": bad response code: 404.");
        assertThat(r.value().steps())
                .extracting(s -> s.key() + " " + s.action() + " " + s.dir())
                .containsExactly(
                        "redir INSTALLED .strata/modules/redir",
                        "tgz INSTALLED .strata/modules/tgz/inner",
                        "zip INSTALLED .strata/modules/zip");
        assertThat(dir.resolve(".strata/modules/redir/main.tf")).exists();
        assertThat(dir.resolve(".strata/modules/missing")).doesNotExist();
        // A URL that is no archive and names no source is go-getter's error.
        write(dir, "main.tf", "module \"x\" {\n  source = \"" + registry.url() + "/pkg/nothing-here\"\n}\n");
        assertThat(install(false).diagnostics().asList().getFirst().detail()).endsWith("bad response code: 404.");
        registry.redirect("/get/none", "");
        write(dir, "main.tf", "module \"x\" {\n  source = \"" + registry.url() + "/get/none\"\n}\n");
        assertThat(install(false).diagnostics().asList().getFirst().detail()).endsWith(": no source URL was returned.");
    }

    /**
     * As terraform (go-getter): a location with a {@code //subdir} of its own installs only that directory, as
     * the module's directory; the module source's own {@code //subdir} applies within it; a location's
     * subdirectory the package lacks fails the download.
     */
    @Test
    void anXTerraformGetLocationsOwnSubdirIsAllThatIsInstalled() {
        String tgz = registry.file(
                "/pkg/both",
                Map.of(
                        "inner/main.tf", "output \"t\" {\n  value = 1\n}\n",
                        "inner/deeper/main.tf", "output \"d\" {\n  value = 2\n}\n",
                        "outside.tf", "output \"o\" {\n  value = 3\n}\n"),
                Archive.TAR_GZ);
        registry.redirect("/get/sub", tgz + "//inner?archive=tar.gz");
        registry.redirect("/get/nope", tgz + "//absent?archive=tar.gz");
        write(
                dir,
                "main.tf",
                "module \"sub\" {\n  source = \"" + registry.url() + "/get/sub\"\n}\n"
                        + "module \"deeper\" {\n  source = \"" + registry.url() + "/get/sub//deeper\"\n}\n");
        Result<ModuleInstaller.Installation> r = install(false);
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value().steps())
                .extracting(s -> s.key() + " " + s.action() + " " + s.dir())
                .containsExactly("deeper INSTALLED .strata/modules/deeper/deeper", "sub INSTALLED .strata/modules/sub");
        assertThat(dir.resolve(".strata/modules/sub/main.tf")).exists();
        assertThat(dir.resolve(".strata/modules/sub/outside.tf")).doesNotExist();
        write(dir, "main.tf", "module \"x\" {\n  source = \"" + registry.url() + "/get/nope\"\n}\n");
        Result<ModuleInstaller.Installation> missing = install(false);
        assertThat(brief(missing.diagnostics())).containsExactly("main.tf:1,1-11: Failed to download module");
        assertThat(dir.resolve(".strata/modules/x")).doesNotExist();
        try (var left = java.nio.file.Files.list(dir.resolve(".strata/modules"))) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("."));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void versionOnANonRegistrySourceIsAnError() {
        write(dir, "main.tf", "module \"x\" {\n  source  = \"https://example.com/x.zip\"\n  version = \"1.0.0\"\n}\n");
        assertThat(install(false).diagnostics().asList())
                .extracting(Diagnostic::summary)
                .contains("Invalid version constraint");
    }

    @Test
    void sourceAddressesAreClassifiedAsTerraformReadsThem() {
        assertThat(ModuleSource.parse("hashicorp/consul/aws//modules/x"))
                .isEqualTo(
                        new ModuleSource.Registry("registry.terraform.io", "hashicorp", "consul", "aws", "modules/x"));
        assertThat(ModuleSource.parse("github.com/org/repo//sub?ref=v1"))
                .isEqualTo(new ModuleSource.Git("https://github.com/org/repo.git", "v1", "sub", 0));
        assertThat(ModuleSource.parse("git@github.com:org/repo.git?ref=v2&depth=1"))
                .isEqualTo(new ModuleSource.Git("ssh://git@github.com/org/repo.git", "v2", "", 1));
        assertThat(ModuleSource.parse("git::ssh://git@example.com/repo.git//m"))
                .isEqualTo(new ModuleSource.Git("ssh://git@example.com/repo.git", null, "m", 0));
        assertThat(ModuleSource.parse("https://example.com/m.zip//sub?archive=zip"))
                .isEqualTo(new ModuleSource.Http("https://example.com/m.zip?archive=zip", "sub"));
        assertThat(ModuleSource.parse("s3::https://bucket.s3.amazonaws.com/m.zip"))
                .isEqualTo(new ModuleSource.S3(null, "us-east-1", "bucket", "m.zip", null, ""));
        assertThat(List.of(ModuleSource.parse("bitbucket.org/org/repo"))).allMatch(s -> !s.installable());
    }

    @Test
    void gitOverHttpDirectlyAndThroughARegistryDownloadLocation() throws Exception {
        Path repo = dir.resolve("src");
        write(repo, "net/main.tf", "output \"g\" {\n  value = \"v1\"\n}\n");
        git(repo, "init", "--quiet");
        git(repo, "add", "-A");
        git(repo, "commit", "--quiet", "-m", "v1");
        git(repo, "tag", "v1");
        write(repo, "net/main.tf", "output \"g\" {\n  value = \"v2\"\n}\n");
        git(repo, "commit", "--quiet", "-am", "v2");
        Path served = dir.resolve("served");
        Files.createDirectories(served);
        git(served, "clone", "--quiet", "--bare", repo.toString(), "repo.git");
        git(served.resolve("repo.git"), "update-server-info");
        registry.serveDirectory("/git/", served);
        String url = registry.url() + "/git/repo.git";
        registry.publishAt("acme/net/aws", "1.0.0", "git::" + url + "//net?ref=v1");
        write(
                dir,
                "main.tf",
                "module \"direct\" {\n  source = \"git::" + url + "//net?ref=v1\"\n}\n"
                        + "module \"reg\" {\n  source  = \"example.com/acme/net/aws\"\n  version = \"1.0.0\"\n}\n"
                        + "module \"gone\" {\n  source = \"git::" + registry.url() + "/git/nothing.git\"\n}\n");
        Result<ModuleInstaller.Installation> r = install(false);
        assertThat(brief(r.diagnostics())).containsExactly("main.tf:8,1-14: Failed to download module");
        assertThat(r.diagnostics().asList().getFirst().detail())
                .startsWith("Could not download module \"gone\" (main.tf:8) source code from \"git::" + registry.url()
                        + "/git/nothing.git\": error downloading '" + registry.url() + "/git/nothing.git': ")
                .contains("git exited with 128: Cloning into '.strata/modules/gone'...\n");
        assertThat(r.value().steps())
                .extracting(s -> s.key() + " " + s.dir() + " " + s.version())
                .containsExactly("direct .strata/modules/direct/net null", "reg .strata/modules/reg/net 1.0.0");
        assertThat(Files.readString(dir.resolve(".strata/modules/reg/net/main.tf")))
                .contains("\"v1\"");
        assertThat(Files.readString(dir.resolve(".strata/modules/direct/net/main.tf")))
                .contains("\"v1\"");
        assertThat(dir.resolve(".strata/modules/gone")).doesNotExist();
    }

    @Test
    void aHostBlockWithoutModulesServiceAndALocalDownloadLocationAreRefused() throws IOException {
        web("1.0.0");
        RemoteAccess providersOnly = RemoteAccess.of(Map.of())
                .withConfig(Map.of("example.com", Map.of("providers.v1", registry.url() + "/v1/providers/")), Map.of());
        Result<ModuleInstaller.Installation> r = ModuleInstaller.install(dir, Fixtures.OPTIONS, false, providersOnly);
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("Failed to retrieve available versions for module \"web\" (main.tf:1) from example.com: "
                        + "host example.com does not provide a modules service.");
        assertThat(registry.requests()).isEmpty();

        Path secret = dir.resolve("elsewhere");
        write(secret, "main.tf", "");
        registry.publishAt("acme/web/aws", "1.0.0", "file://" + secret.toAbsolutePath());
        Result<ModuleInstaller.Installation> local = install(false);
        assertThat(brief(local.diagnostics())).containsExactly("main.tf:1,1-13: Failed to download module");
        assertThat(local.diagnostics().asList().getFirst().detail()).contains("a path on this machine");
        assertThat(dir.resolve(".strata/modules/web")).doesNotExist();
    }
}
