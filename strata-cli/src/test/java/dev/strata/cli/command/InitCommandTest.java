package dev.strata.cli.command;

import static dev.strata.testing.GitRepos.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata init} end to end. */
class InitCommandTest {
    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        TestFiles.write(dir, name, text);
    }

    /** A filesystem mirror holding a fake hashicorp/aws 5.1.0 package, named by a CLI configuration. */
    private CliRunner withMirror() throws IOException {
        Path pkg = dir.resolve(
                "mirror/registry.terraform.io/hashicorp/aws/5.1.0/" + dev.strata.tfplugin.install.Platform.current());
        Files.createDirectories(pkg);
        Files.writeString(pkg.resolve("terraform-provider-aws_v5.1.0_x5"), "#!/bin/sh\nexit 1\n");
        pkg.resolve("terraform-provider-aws_v5.1.0_x5").toFile().setExecutable(true);
        write(
                "cli.tfrc",
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + dir.resolve("mirror")
                        + "\"\n  }\n  direct {}\n}\n");
        return CliRunner.in(dir)
                .env("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString());
    }

    @Test
    void recordsTheModuleTreeAndInstallsProviders() throws IOException {
        write("main.tf", """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                module "net" { source = "./modules/net" }
                resource "terraform_data" "t" {}
                """);
        write("modules/net/main.tf", """
                module "sub" { source = "../sub" }
                resource "aws_vpc" "v" {}
                """);
        write("modules/sub/main.tf", "resource \"random_id\" \"r\" {}\n");
        CliRunner.Result r = withMirror().run("init");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout())
                .contains("""
                Initializing modules...
                - net in modules/net
                - net.sub in modules/sub
                Initializing provider plugins...
                """)
                .contains("""
                - Finding hashicorp/aws versions matching "~> 5.0"...
                - Installing hashicorp/aws v5.1.0...
                - Installed hashicorp/aws v5.1.0 (unauthenticated)
                """)
                .contains("- terraform.io/builtin/terraform is built in to Strata\n")
                .containsPattern("- Using hashicorp/random v[0-9.]+, built in to Strata\n")
                .contains("Strata has created a lock file .terraform.lock.hcl")
                .contains("Strata has been successfully initialized!");
        assertThat(Files.readString(dir.resolve(".strata/modules/modules.json")))
                .isEqualTo("{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},"
                        + "{\"Key\":\"net\",\"Source\":\"./modules/net\",\"Dir\":\"modules/net\"},"
                        + "{\"Key\":\"net.sub\",\"Source\":\"../sub\",\"Dir\":\"modules/sub\"}]}\n");
        Path installed = dir.resolve(".terraform/providers/registry.terraform.io/hashicorp/aws/5.1.0/"
                + dev.strata.tfplugin.install.Platform.current());
        assertThat(Files.isSymbolicLink(installed)).isTrue();
        String lock = Files.readString(dir.resolve(".terraform.lock.hcl"));
        assertThat(lock).isEqualTo("""
                # This file is maintained automatically by "terraform init".
                # Manual edits may be lost in future updates.

                provider "registry.terraform.io/hashicorp/aws" {
                  version     = "5.1.0"
                  constraints = "~> 5.0"
                  hashes = [
                    "%s",
                  ]
                }
                """.formatted(dev.strata.tfplugin.install.PackageHashes.h1OfDirectory(installed)));

        // Again: the lock file's selection is reused and nothing is rewritten.
        CliRunner.Result again = withMirror().run("init");
        assertThat(again.exitCode()).as(again.stderr()).isZero();
        assertThat(again.stdout())
                .contains("- Reusing previous version of hashicorp/aws from the dependency lock file\n"
                        + "- Using previously-installed hashicorp/aws v5.1.0\n")
                .doesNotContain("created a lock file");
        assertThat(Files.readString(dir.resolve(".terraform.lock.hcl"))).isEqualTo(lock);

        // A package that does not match the locked hash is refused.
        Files.writeString(dir.resolve(".terraform.lock.hcl"), lock.replaceAll("h1:[^\"]+", "h1:bm90IHRoZSBoYXNo"));
        CliRunner.Result tampered = withMirror().run("init");
        assertThat(tampered.exitCode()).isEqualTo(1);
        assertThat(tampered.stderr())
                .contains("Error: Failed to install provider")
                .contains("doesn't match any of the checksums");
    }

    @Test
    void theRootModulesProvidersAreHashedAheadOfInstallation() throws IOException {
        write("main.tf", """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                provider "random" {}
                resource "terraform_data" "t" {}
                """);
        withMirror();
        Path cache = dir.resolve("user-cache");
        ProviderSetup.prehashRootRequirements(context(cache), false, this::rootModule);
        Path pkg = dir.resolve(
                "mirror/registry.terraform.io/hashicorp/aws/5.1.0/" + dev.strata.tfplugin.install.Platform.current());
        // The package init will select is hashed and remembered for the user; built-in providers (terraform,
        // random) are not looked for, and nothing is installed yet.
        assertThat(Files.readString(cache.resolve("package-hashes.json")))
                .contains(pkg.toRealPath().toString())
                .contains(dev.strata.tfplugin.install.PackageHashes.h1OfDirectory(pkg));
        assertThat(dir.resolve(".terraform")).doesNotExist();
        assertThat(dir.resolve(".terraform.lock.hcl")).doesNotExist();
    }

    /**
     * The background hashing init starts ends with init, also when init fails before installing providers:
     * run in-process (tests, embedding programs), the next command would otherwise run beside it.
     */
    @Test
    void theBackgroundHashingDoesNotOutliveAFailedInit() throws IOException {
        write("main.tf", """
                terraform {
                  backend "local" {
                    nope = "x"
                  }
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                """);
        CliRunner cli = withMirror();
        // A package large enough that hashing it takes far longer than the failing init.
        Path big = dir.resolve("mirror/registry.terraform.io/hashicorp/aws/5.1.0/"
                + dev.strata.tfplugin.install.Platform.current() + "/big.bin");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(400L << 20);
        }
        CliRunner.Result r = cli.env(
                        "STRATA_CACHE_DIR", dir.resolve("user-cache").toString())
                .run("init");
        assertThat(r.exitCode()).as(r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).contains("Unsupported argument");
        assertThat(Thread.getAllStackTraces().keySet().stream()
                        .filter(Thread::isAlive)
                        .map(Thread::getName))
                .doesNotContain("strata-prehash");
    }

    @Test
    void theLockedProvidersAreHashedAheadOfInstallation() throws IOException {
        // A fresh checkout with its lock file: the locked version is hashed even though the root module
        // itself does not name the provider (a child module does).
        write("main.tf", "module \"net\" { source = \"./net\" }\n");
        write("net/main.tf", "resource \"aws_vpc\" \"v\" {}\n");
        write(".terraform.lock.hcl", """
                provider "registry.terraform.io/hashicorp/aws" {
                  version     = "5.1.0"
                  constraints = "~> 5.0"
                  hashes = [
                    "h1:bm90IHRoZSBoYXNo",
                  ]
                }
                """);
        withMirror();
        Path cache = dir.resolve("user-cache");
        ProviderSetup.prehashRootRequirements(context(cache), false, this::rootModule);
        Path pkg = dir.resolve(
                "mirror/registry.terraform.io/hashicorp/aws/5.1.0/" + dev.strata.tfplugin.install.Platform.current());
        assertThat(Files.readString(cache.resolve("package-hashes.json")))
                .contains(dev.strata.tfplugin.install.PackageHashes.h1OfDirectory(pkg));
        // With -upgrade the lock file's selection does not count.
        Path other = dir.resolve("other-cache");
        ProviderSetup.prehashRootRequirements(context(other), true, this::rootModule);
        assertThat(other.resolve("package-hashes.json")).doesNotExist();
    }

    private dev.strata.config.ModuleConfig rootModule() {
        return dev.strata.config.ConfigLoader.loadModule(dir, dev.strata.config.ConfigLoader.Options.DEFAULT)
                .value();
    }

    private CommandContext context(Path userCache) {
        return new CommandContext(
                dir,
                java.io.InputStream.nullInputStream(),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                false,
                80,
                java.util.Map.of(
                        "TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString(),
                        "STRATA_CACHE_DIR", userCache.toString()),
                "test");
    }

    @Test
    void aProviderNoMirrorHasIsANoNetworkError() throws IOException {
        write("main.tf", "resource \"aws_vpc\" \"v\" {}\n");
        write("cli.tfrc", "");
        CliRunner.Result r = CliRunner.in(dir)
                .env("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString())
                .env("HOME", dir.resolve("home").toString())
                .env("XDG_DATA_DIRS", dir.resolve("none").toString())
                .run("init");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Provider not available offline")
                .contains("hashicorp/aws")
                .contains("no network access");
        assertThat(dir.resolve(".terraform.lock.hcl")).doesNotExist();
    }

    @Test
    void onlyBuiltInProvidersNeedNothing() throws IOException {
        write("main.tf", "resource \"terraform_data\" \"t\" {}\n");
        CliRunner.Result r = CliRunner.in(dir).run("init");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).doesNotContain("Warning").contains("You may now begin working with Strata.");
    }

    @Test
    void unsupportedModuleSourceFailsWithTheSourceNamed() throws IOException {
        write("main.tf", "module \"vpc\" { source = \"gcs::https://www.googleapis.com/storage/v1/bucket/vpc.zip\" }\n");
        CliRunner.Result r = CliRunner.in(dir).run("init");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Unsupported module source")
                .contains("gcs::https://www.googleapis.com/storage/v1/bucket/vpc.zip")
                // As Terraform 1.11: the errors end the output, with no closing line.
                .doesNotContain("could not be initialized");
        assertThat(dir.resolve(".strata/modules/vpc")).doesNotExist();
    }

    @Test
    void anS3SourceWithoutCredentialsSaysWhatToSet() throws IOException {
        // The AWS SDK reads the process's environment and ~/.aws, not the command's: only meaningful where
        // neither holds credentials (as on CI).
        org.junit.jupiter.api.Assumptions.assumeTrue(
                System.getenv("AWS_ACCESS_KEY_ID") == null
                        && System.getenv("AWS_PROFILE") == null
                        && System.getenv("AWS_CONTAINER_CREDENTIALS_FULL_URI") == null
                        && System.getenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") == null
                        && !Files.exists(Path.of(System.getProperty("user.home"), ".aws")),
                "AWS credentials are configured for this process");
        write("main.tf", "module \"vpc\" { source = \"s3::https://s3.amazonaws.com/bucket/vpc.zip\" }\n");
        // Tests stay off the network: the SDK's last resort, the EC2 instance metadata service, is not asked.
        System.setProperty("aws.disableEc2Metadata", "true");
        CliRunner.Result r;
        try {
            r = CliRunner.in(dir).run("init");
        } finally {
            System.clearProperty("aws.disableEc2Metadata");
        }
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr().replaceAll("\\s+", " "))
                .contains("Error: Failed to download module")
                .contains("no AWS credentials were found to")
                .contains("read s3://bucket/vpc.zip")
                .contains("AWS_ACCESS_KEY_ID")
                .doesNotContain("Provider(")
                .doesNotContain("Exception");
        assertThat(dir.resolve(".strata/modules/vpc")).doesNotExist();
    }

    @Test
    void installsAModuleFromALocalGitRepositoryThenValidateUsesIt(@TempDir Path elsewhere) throws Exception {
        Path repo = elsewhere.resolve("repo");
        Files.createDirectories(repo.resolve("net"));
        Files.writeString(
                repo.resolve("net/main.tf"),
                "variable \"cidr\" { type = string }\n" + "output \"cidr\" { value = var.cidr }\n");
        git(repo, "init", "--quiet");
        git(repo, "add", ".");
        git(repo, "commit", "--quiet", "-m", "net");
        git(repo, "tag", "v1");
        String source = "git::file://" + repo + "//net?ref=v1";
        write(
                "main.tf",
                "module \"net\" {\n  source = \"" + source + "\"\n  cidr   = \"10.0.0.0/16\"\n}\n"
                        + "output \"x\" { value = module.net.cidrr }\n");

        CliRunner.Result before = CliRunner.in(dir).run("validate");
        assertThat(before.exitCode()).isEqualTo(1);
        assertThat(before.stderr()).contains("Error: Module not installed").contains("Run \"strata init\"");

        CliRunner.Result init = CliRunner.in(dir).run("init");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout())
                .contains("Initializing modules...\nDownloading git::file://" + repo + "?ref=v1 for net...\n"
                        + "- net in .strata/modules/net/net\n");
        assertThat(Files.readString(dir.resolve(".strata/modules/net/net/main.tf")))
                .contains("var.cidr");

        CliRunner.Result after = CliRunner.in(dir).run("validate");
        assertThat(after.exitCode()).isEqualTo(1);
        assertThat(after.stderr()).contains("Error: Unsupported attribute").contains("Did you mean \"cidr\"?");

        CliRunner.Result again = CliRunner.in(dir).run("init");
        // As Terraform: a module kept from the earlier init is neither downloaded nor listed again.
        assertThat(again.stdout()).doesNotContain("Downloading").doesNotContain("- net in");
        assertThat(CliRunner.in(dir).run("init", "-upgrade").stdout())
                .contains("Downloading git::file://" + repo + "?ref=v1 for net...\n- net in .strata/modules/net/net");
    }
}
