package dev.strata.tfplugin.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.Provider;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderInstallerTest {
    static final Platform LINUX = new Platform("linux", "amd64");
    static final Provider THING = new Provider("registry.terraform.io", "acme", "thing");

    @TempDir
    Path dir;

    /** A mirror with acme/thing 1.0.0 and 1.2.0 unpacked and 2.0.0 packed. */
    private Path mirror() throws IOException {
        Path base = dir.resolve("mirror/registry.terraform.io/acme/thing");
        for (String v : List.of("1.0.0", "1.2.0")) {
            Path p = Files.createDirectories(base.resolve(v).resolve("linux_amd64"));
            Path exe = p.resolve("terraform-provider-thing_v" + v);
            Files.writeString(exe, "#!/bin/sh\necho " + v + "\n");
            exe.toFile().setExecutable(true);
        }
        try (OutputStream o = Files.newOutputStream(base.resolve("terraform-provider-thing_2.0.0_linux_amd64.zip"));
                ZipOutputStream z = new ZipOutputStream(o)) {
            z.putNextEntry(new ZipEntry("terraform-provider-thing_v2.0.0"));
            z.write("#!/bin/sh\necho 2.0.0\n".getBytes(StandardCharsets.UTF_8));
        }
        return dir.resolve("mirror");
    }

    private Map<String, String> cliConfig(String text) throws IOException {
        Files.writeString(dir.resolve("cli.tfrc"), text);
        return Map.of("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString());
    }

    private Result<ProviderInstaller.Outcome> install(
            Map<String, String> env, LockFile lock, boolean upgrade, List<String> progress, String... constraints) {
        ProviderInstaller.Options o = new ProviderInstaller.Options(
                dir.resolve("work"), dir.resolve("work/.terraform"), env, dir.resolve("home"), LINUX, upgrade);
        return ProviderInstaller.install(
                o,
                List.of(new ProviderInstaller.Requirement(THING, List.of(constraints))),
                lock,
                step -> progress.add(step.line()));
    }

    /** The steps of an install as {@code init -json} words them. */
    private Result<ProviderInstaller.Outcome> installMessages(
            Map<String, String> env, LockFile lock, List<String> messages) {
        ProviderInstaller.Options o = new ProviderInstaller.Options(
                dir.resolve("work"), dir.resolve("work/.terraform"), env, dir.resolve("home"), LINUX, false);
        return ProviderInstaller.install(
                o,
                List.of(new ProviderInstaller.Requirement(THING, List.of(">= 1.0", "< 2.0"))),
                lock,
                step -> messages.add(step.message()));
    }

    @Test
    void selectsTheNewestAllowedVersionAndLocksIt() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        List<String> progress = new ArrayList<>();
        var r = install(env, LockFile.empty(), false, progress, ">= 1.0", "< 2.0");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        ProviderInstaller.Installed i = r.value().installed().get(0);
        assertThat(i.version()).isEqualTo("1.2.0");
        Path target = dir.resolve("work/.terraform/providers/registry.terraform.io/acme/thing/1.2.0/linux_amd64");
        assertThat(Files.isSymbolicLink(target)).isTrue();
        assertThat(target.resolve("terraform-provider-thing_v1.2.0")).exists();
        LockFile.Entry e = r.value().lock().entry(THING).orElseThrow();
        assertThat(e.constraints()).isEqualTo(">= 1.0.0, < 2.0.0");
        assertThat(e.hashes()).containsExactly(PackageHashes.h1OfDirectory(target));
        assertThat(r.value().lockChanged()).isTrue();
        assertThat(progress)
                .containsExactly(
                        "Finding acme/thing versions matching \">= 1.0.0, < 2.0.0\"...",
                        "Installing acme/thing v1.2.0...",
                        "Installed acme/thing v1.2.0 (unauthenticated)");

        // Again with the lock: the same version, nothing changes.
        progress.clear();
        var again = install(env, r.value().lock(), false, progress, ">= 1.0", "< 2.0");
        assertThat(again.diagnostics().hasErrors()).isFalse();
        assertThat(again.value().lockChanged()).isFalse();
        assertThat(progress)
                .containsExactly(
                        "Reusing previous version of acme/thing from the dependency lock file",
                        "Using previously-installed acme/thing v1.2.0");
    }

    @Test
    void aZipsExtractedFilesAreReusedWhileTheyKeepItsHash() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        List<String> progress = new ArrayList<>();
        var r = install(env, LockFile.empty(), false, progress, "2.0.0");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(progress).contains("Installed acme/thing v2.0.0 (unauthenticated)");
        progress.clear();
        install(env, r.value().lock(), false, progress, "2.0.0");
        assertThat(progress).endsWith("Using previously-installed acme/thing v2.0.0");
        // Files changed since: extracted again.
        Path exe = dir.resolve(
                "work/.terraform/providers/registry.terraform.io/acme/thing/2.0.0/linux_amd64/terraform-provider-thing_v2.0.0");
        Files.writeString(exe, "changed");
        progress.clear();
        install(env, r.value().lock(), false, progress, "2.0.0");
        assertThat(progress).endsWith("Installed acme/thing v2.0.0 (unauthenticated)");
        assertThat(Files.readString(exe)).isEqualTo("#!/bin/sh\necho 2.0.0\n");
    }

    @Test
    void eachStepHasTheWordsOfTerraformsJsonStream() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        List<String> messages = new ArrayList<>();
        var r = installMessages(env, LockFile.empty(), messages);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        String newest = r.value().installed().get(0).version();
        assertThat(messages)
                .containsExactly(
                        "Finding matching versions for provider: acme/thing, version_constraint: \">= 1.0.0, < 2.0.0\"",
                        "Installing provider version: acme/thing v" + newest + "...",
                        "Installed provider version: acme/thing v" + newest + " (unauthenticated)");
        messages.clear();
        installMessages(env, r.value().lock(), messages);
        assertThat(messages)
                .containsExactly(
                        "acme/thing: Reusing previous version from the dependency lock file",
                        "acme/thing v" + newest + ": Using previously-installed provider version");
        assertThat(new ProviderInstaller.Progress.FindingLatest(THING).message())
                .isEqualTo("acme/thing: Finding latest version...");
    }

    @Test
    void packageHashesAreRememberedUntilTheFilesChange() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        install(env, LockFile.empty(), false, new ArrayList<>(), "1.0.0");
        Path cache = dir.resolve("home/.cache/strata/package-hashes.json");
        Path pkg = dir.resolve("mirror/registry.terraform.io/acme/thing/1.0.0/linux_amd64")
                .toRealPath();
        String real = PackageHashes.h1OfDirectory(pkg);
        assertThat(Files.readString(cache)).contains(real);
        // A remembered hash is used as long as sizes and times match...
        Files.writeString(cache, Files.readString(cache).replace(real, "h1:remembered"));
        var cached = install(env, LockFile.empty(), false, new ArrayList<>(), "1.0.0");
        assertThat(cached.value().lock().entry(THING).orElseThrow().hashes()).containsExactly("h1:remembered");
        // ...in every working directory of the user (a fresh checkout does not hash it again)...
        var elsewhere = ProviderInstaller.install(
                new ProviderInstaller.Options(
                        dir.resolve("other"), dir.resolve("other/.terraform"), env, dir.resolve("home"), LINUX, false),
                List.of(new ProviderInstaller.Requirement(THING, List.of("1.0.0"))),
                LockFile.empty(),
                line -> {});
        assertThat(elsewhere.value().lock().entry(THING).orElseThrow().hashes()).containsExactly("h1:remembered");
        // ...and a changed file is hashed again.
        Path exe = pkg.resolve("terraform-provider-thing_v1.0.0");
        Files.setLastModifiedTime(
                exe,
                java.nio.file.attribute.FileTime.fromMillis(
                        Files.getLastModifiedTime(exe).toMillis() - 60_000));
        var fresh = install(env, LockFile.empty(), false, new ArrayList<>(), "1.0.0");
        assertThat(fresh.value().lock().entry(THING).orElseThrow().hashes()).containsExactly(real);
    }

    @Test
    void installTakesTheHashThatPrehashComputedInThisProcess() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        Path pkg = dir.resolve("mirror/registry.terraform.io/acme/thing/1.2.0/linux_amd64")
                .toRealPath();
        String real = PackageHashes.h1OfDirectory(pkg);
        // prehash selects as install does (the newest allowed version) and remembers the hash for the user.
        ProviderInstaller.prehash(
                new ProviderInstaller.Options(
                        dir.resolve("work"), dir.resolve("work/.terraform"), env, dir.resolve("home"), LINUX, false),
                List.of(new ProviderInstaller.Requirement(THING, List.of("< 2.0"))),
                LockFile.empty());
        Path cache = dir.resolve("home/.cache/strata/package-hashes.json");
        assertThat(Files.readString(cache)).contains(real);
        assertThat(dir.resolve("work/.terraform")).doesNotExist();
        // install then reuses the hash computed in this process, even without the user's cache: the same
        // content stamp (sizes and times), so the package is not read again...
        Files.delete(cache);
        Path exe = pkg.resolve("terraform-provider-thing_v1.2.0");
        java.nio.file.attribute.FileTime time = Files.getLastModifiedTime(exe);
        Files.writeString(exe, Files.readString(exe).replace("1.2.0", "9.9.9"));
        Files.setLastModifiedTime(exe, time);
        var r = install(env, LockFile.empty(), false, new ArrayList<>(), "< 2.0");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().lock().entry(THING).orElseThrow().hashes()).containsExactly(real);
        // ...and checks it against the lock file as ever.
        var refused = install(
                env,
                LockFile.empty().with(new LockFile.Entry(THING, "1.2.0", "< 2.0.0", List.of("h1:AAAA"))),
                false,
                new ArrayList<>(),
                "< 2.0");
        assertThat(refused.diagnostics().hasErrors()).isTrue();
        assertThat(refused.diagnostics().asList().get(0).detail()).contains("doesn't match any of the checksums");
    }

    @Test
    void installsAPackedPackageThroughThePluginCache() throws IOException {
        Map<String, String> env = new java.util.HashMap<>(cliConfig("provider_installation {\n  filesystem_mirror {\n"
                + "    path = \"" + mirror() + "\"\n    include = [\"acme/*\"]\n  }\n}\n"));
        env.put("TF_PLUGIN_CACHE_DIR", dir.resolve("cache").toString());
        var r = install(env, LockFile.empty(), false, new ArrayList<>(), "~> 2.0");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        Path cached =
                dir.resolve("cache/registry.terraform.io/acme/thing/2.0.0/linux_amd64/terraform-provider-thing_v2.0.0");
        assertThat(Files.isExecutable(cached)).isTrue();
        assertThat(r.value().lock().entry(THING).orElseThrow().hashes())
                .containsExactly(PackageHashes.h1OfZip(dir.resolve("mirror/registry.terraform.io/acme/thing/"
                        + "terraform-provider-thing_2.0.0_linux_amd64.zip")));
        assertThat(r.value().lock().entry(THING).orElseThrow().constraints()).isEqualTo("~> 2.0");

        // The cache alone now offers the package, even with nothing else configured.
        Files.writeString(dir.resolve("cli.tfrc"), "");
        var fromCache = install(env, LockFile.empty(), false, new ArrayList<>(), "2.0.0");
        assertThat(fromCache.diagnostics().hasErrors())
                .as(fromCache.diagnostics().toString())
                .isFalse();
    }

    @Test
    void refusesAPackageWhoseHashDoesNotMatchTheLock() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        LockFile lock = LockFile.empty().with(new LockFile.Entry(THING, "1.2.0", "", List.of("h1:AAAA")));
        var r = install(env, lock, false, new ArrayList<>());
        assertThat(r.diagnostics().hasErrors()).isTrue();
        assertThat(r.diagnostics().asList().get(0).detail()).contains("doesn't match any of the checksums");
        assertThat(r.value().lock().entry(THING).orElseThrow().hashes()).containsExactly("h1:AAAA");
        assertThat(dir.resolve("work/.terraform/providers/registry.terraform.io/acme/thing/1.2.0"))
                .doesNotExist();
    }

    @Test
    void lockedVersionMustSatisfyTheConstraintsUnlessUpgrading() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        LockFile lock = LockFile.empty().with(new LockFile.Entry(THING, "1.0.0", "", List.of("h1:x")));
        var r = install(env, lock, false, new ArrayList<>(), ">= 1.1");
        assertThat(r.diagnostics().asList().get(0).detail()).contains("does not match configured version constraint");
        var up = install(env, lock, true, new ArrayList<>(), ">= 1.1");
        assertThat(up.diagnostics().hasErrors()).as(up.diagnostics().toString()).isFalse();
        assertThat(up.value().installed().get(0).version()).isEqualTo("2.0.0");
    }

    @Test
    void directInstallationIsANoNetworkDiagnostic() throws IOException {
        Map<String, String> env = cliConfig(
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror()
                        + "\"\n    include = [\"example.com/*/*\"]\n  }\n  direct {\n    exclude = [\"example.com/*/*\"]\n  }\n}\n");
        var r = install(env, LockFile.empty(), false, new ArrayList<>());
        assertThat(r.diagnostics().hasErrors()).isTrue();
        assertThat(r.diagnostics().asList().get(0).summary()).isEqualTo("Provider not available offline");
        assertThat(r.diagnostics().asList().get(0).detail())
                .contains("no network access")
                .contains("acme/thing");
    }

    @Test
    void impliedLocalMirrorsAreSearchedWithoutAConfigFile() throws IOException {
        Path m = mirror();
        Path data = dir.resolve("xdg");
        Files.createDirectories(data.resolve("terraform"));
        Files.move(m, data.resolve("terraform/plugins"));
        Map<String, String> env =
                Map.of("TF_CLI_CONFIG_FILE", dir.resolve("missing.tfrc").toString(), "XDG_DATA_HOME", data.toString());
        var r = install(env, LockFile.empty(), false, new ArrayList<>(), "1.0.0");
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().installed().get(0).version()).isEqualTo("1.0.0");
        assertThat(r.value().lock().entry(THING).orElseThrow().constraints()).isEqualTo("1.0.0");
    }

    @Test
    void noMatchingVersionListsWhatIsThere() throws IOException {
        Map<String, String> env =
                cliConfig("provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror() + "\"\n  }\n}\n");
        var r = install(env, LockFile.empty(), false, new ArrayList<>(), "> 3.0");
        assertThat(r.diagnostics().asList().get(0).detail())
                .contains("no available releases match")
                .contains("1.0.0, 1.2.0, 2.0.0");
    }

    @Test
    void constraintsAreNormalisedAsTerraformWritesThem() {
        assertThat(Constraints.normalize(List.of("~> 5.0", ">= 4.0"))).hasValue(">= 4.0.0, ~> 5.0");
        assertThat(Constraints.normalize(List.of("= 5.100", ">= 4.0"))).hasValue(">= 4.0.0, 5.100.0");
        assertThat(Constraints.normalize(List.of(">=5.1,<6, != 5.2.0", ">= 4.0")))
                .hasValue(">= 4.0.0, >= 5.1.0, != 5.2.0, < 6.0.0");
        assertThat(Constraints.normalize(List.of("~> 5.100.0", ">= 4.0"))).hasValue(">= 4.0.0, ~> 5.100.0");
        assertThat(Constraints.normalize(List.of(">= 5.0", ">= 5.0.0"))).hasValue(">= 5.0.0");
        assertThat(Constraints.normalize(List.of())).hasValue("");
        assertThat(Constraints.normalize(List.of("banana"))).isEqualTo(Optional.empty());
        assertThat(Constraints.allows("~> 5.0", "5.100.0")).isTrue();
        assertThat(Constraints.allows("~> 5.100.0", "5.101.0")).isFalse();
    }

    @Test
    void cliConfigReportsProblemsAndReadsPatterns() {
        var r = CliConfig.parse(
                ("plugin_cache_dir = \"/tmp/c\"\ncredentials \"x\" { token = \"t\" }\n"
                                + "provider_installation {\n  filesystem_mirror {\n    path = \"/m\"\n    include = [\"hashicorp/*\"]\n  }\n"
                                + "  direct {\n    exclude = [\"*/aws\"]\n  }\n}\n")
                        .getBytes(StandardCharsets.UTF_8),
                "x.tfrc");
        assertThat(r.value().pluginCacheDir()).hasValue(Path.of("/tmp/c"));
        assertThat(r.value().methods()).hasSize(2);
        assertThat(r.diagnostics().asList()).extracting(d -> d.summary()).contains("Invalid provider address pattern");
        InstallationMethod m = r.value().methods().get(0);
        assertThat(m.appliesTo(new Provider("registry.terraform.io", "hashicorp", "aws")))
                .isTrue();
        assertThat(m.appliesTo(THING)).isFalse();
    }
}
