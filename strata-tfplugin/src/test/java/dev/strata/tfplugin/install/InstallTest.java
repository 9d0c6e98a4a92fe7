package dev.strata.tfplugin.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.addr.Provider;
import dev.strata.hcl.Result;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InstallTest {
    static final Path MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));
    static final Provider AWS = Provider.lookup("hashicorp/aws").orElseThrow();
    static final Platform LINUX_AMD64 = new Platform("linux", "amd64");

    @TempDir
    Path dir;

    private Path mirrorWithPackages() throws IOException {
        Path base = dir.resolve("mirror/example.com/acme/thing");
        Path unpacked = base.resolve("1.10.0/linux_amd64");
        Files.createDirectories(unpacked.resolve("docs"));
        Files.writeString(unpacked.resolve("terraform-provider-thing_v1.10.0"), "#!/bin/sh\n");
        unpacked.resolve("terraform-provider-thing_v1.10.0").toFile().setExecutable(true);
        Files.writeString(unpacked.resolve("docs/README"), "hello\n");
        try (OutputStream o = Files.newOutputStream(base.resolve("terraform-provider-thing_1.9.0_linux_amd64.zip"));
                ZipOutputStream z = new ZipOutputStream(o)) {
            z.putNextEntry(new ZipEntry("terraform-provider-thing_v1.10.0"));
            z.write("#!/bin/sh\n".getBytes(StandardCharsets.UTF_8));
            z.putNextEntry(new ZipEntry("docs/README"));
            z.write("hello\n".getBytes(StandardCharsets.UTF_8));
        }
        Files.createDirectories(base.resolve("2.0.0/darwin_arm64"));
        return dir.resolve("mirror");
    }

    @Test
    void devOverridesAreReadAndBadAddressesAreDiagnosed() {
        Result<CliConfig> r = CliConfig.parse("""
            provider_installation {
              dev_overrides {
                "hashicorp/aws"          = "/home/dev/go/bin"
                "example.com/acme/thing" = "/builds/thing"
                "not a provider!"        = "/x"
              }
              direct {}
            }
            """.getBytes(StandardCharsets.UTF_8), "dev.tfrc");
        assertThat(r.value().devOverrides())
                .containsExactly(
                        Map.entry(Provider.lookup("example.com/acme/thing").orElseThrow(), Path.of("/builds/thing")),
                        Map.entry(AWS, Path.of("/home/dev/go/bin")));
        assertThat(r.value().methods()).hasSize(1);
        assertThat(r.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Invalid provider address");
            assertThat(d.subject().start().line()).isEqualTo(5);
        });
    }

    @Test
    void findsUnpackedAndPackedPackagesInVersionOrder() throws IOException {
        FilesystemMirror m = new FilesystemMirror(mirrorWithPackages());
        Provider thing = Provider.lookup("example.com/acme/thing").orElseThrow();
        List<FilesystemMirror.Package> pkgs = m.packages(thing, LINUX_AMD64);
        assertThat(pkgs).extracting(FilesystemMirror.Package::version).containsExactly("1.9.0", "1.10.0");
        assertThat(pkgs.get(0).packed()).isTrue();
        assertThat(pkgs.get(1).executable())
                .hasValueSatisfying(
                        p -> assertThat(p.getFileName().toString()).isEqualTo("terraform-provider-thing_v1.10.0"));
        assertThat(m.packages(thing, new Platform("darwin", "arm64")))
                .extracting(FilesystemMirror.Package::version)
                .containsExactly("2.0.0");
        assertThat(m.find(AWS, "1.0.0", LINUX_AMD64)).isEmpty();
    }

    @Test
    void h1IsTheSameForADirectoryAndTheZipOfItsFiles() throws Exception {
        FilesystemMirror m = new FilesystemMirror(mirrorWithPackages());
        Provider thing = Provider.lookup("example.com/acme/thing").orElseThrow();
        List<FilesystemMirror.Package> pkgs = m.packages(thing, LINUX_AMD64);
        assertThat(pkgs.get(0).h1()).startsWith("h1:").isEqualTo(pkgs.get(1).h1());
        byte[] zip = Files.readAllBytes(pkgs.get(0).location());
        assertThat(PackageHashes.zh(pkgs.get(0).location()))
                .isEqualTo("zh:"
                        + HexFormat.of()
                                .formatHex(MessageDigest.getInstance("SHA-256").digest(zip)));
    }

    @Test
    void versionsCompareSemantically() {
        assertThat(FilesystemMirror.compareVersions("5.9.0", "5.10.0")).isNegative();
        assertThat(FilesystemMirror.compareVersions("1.0.0-beta1", "1.0.0")).isNegative();
        assertThat(FilesystemMirror.compareVersions("1.0.0", "1.0.0")).isZero();
    }

    @Test
    void lockFileRoundTripsAndReportsProblems() {
        String text = """
            # This file is maintained automatically by "terraform init".
            # Manual edits may be lost in future updates.

            provider "registry.terraform.io/hashicorp/aws" {
              version     = "5.100.0"
              constraints = ">= 5.0.0, < 6.0.0"
              hashes = [
                "h1:edXOJWE4ORX8Fm+dpVpICzMZJat4AX0VRCAy/xkcOc0=",
                "zh:0123",
              ]
            }

            provider "registry.terraform.io/hashicorp/null" {
              version = "3.2.4"
            }
            """;
        Result<LockFile> r = LockFile.parse(text.getBytes(StandardCharsets.UTF_8), LockFile.FILENAME);
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().render()).isEqualTo(text);
        assertThat(r.value().entry(AWS).orElseThrow().matches("zh:0123")).isTrue();

        Result<LockFile> bad = LockFile.parse(
                "provider \"aws\" {\n  version = \"1\"\n}\nprovider \"a/b/c\" {\n  hashes = 3\n}\n"
                        .getBytes(StandardCharsets.UTF_8),
                LockFile.FILENAME);
        assertThat(bad.diagnostics().asList())
                .extracting(d -> d.summary())
                .contains("Invalid provider source address", "Missing required argument", "Invalid provider hash set");
    }

    /** The real AWS package: same h1 as terraform records, and the same lock file bytes. */
    @Test
    void matchesTerraformForTheAwsProvider() throws Exception {
        FilesystemMirror m = new FilesystemMirror(MIRROR);
        var pkg = m.find(AWS, "5.100.0", LINUX_AMD64);
        assumeTrue(pkg.isPresent() && Platform.current().equals(LINUX_AMD64), "AWS provider not in " + MIRROR);
        assertThat(pkg.get().executable()).isPresent();
        String h1 = pkg.get().h1();
        Path terraform = Terraform.assumeInstalled();
        Files.writeString(
                dir.resolve("cli.tfrc"),
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + MIRROR + "\"\n  }\n}\n");
        Files.writeString(
                dir.resolve("main.tf"),
                "terraform {\n  required_providers {\n"
                        + "    aws = { source = \"hashicorp/aws\", version = \">= 5.0.0, < 6.0.0\" }\n  }\n}\n");
        Terraform.at(terraform, dir)
                .cliConfig(dir.resolve("cli.tfrc"))
                .mergeStderr()
                .timeout(Duration.ofMinutes(2))
                .ok("init", "-input=false", "-no-color");
        byte[] tfLock = Files.readAllBytes(dir.resolve(LockFile.FILENAME));
        Result<LockFile> parsed = LockFile.parse(tfLock, LockFile.FILENAME);
        assertThat(parsed.diagnostics().hasErrors()).isFalse();
        assertThat(parsed.value().entry(AWS).orElseThrow().hashes()).containsExactly(h1);
        LockFile ours = LockFile.empty().with(new LockFile.Entry(AWS, "5.100.0", ">= 5.0.0, < 6.0.0", List.of(h1)));
        assertThat(ours.render()).isEqualTo(new String(tfLock, StandardCharsets.UTF_8));
    }
}
