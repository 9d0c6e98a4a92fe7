package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import dev.strata.testing.TestFiles;
import dev.strata.tfplugin.install.PackageHashes;
import dev.strata.tfplugin.install.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata providers}, {@code providers schema -json}, {@code providers lock} and {@code providers mirror}. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ProvidersCommandTest {
    static final Path AWS_MIRROR = Path.of(System.getProperty("strata.test.pluginMirror", "/opt/tf-plugins"));

    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        TestFiles.write(dir, name, text);
    }

    /** A mirror with a fake acme/thing 1.0.0 for this platform and for darwin_arm64. */
    private CliRunner withMirror() throws IOException {
        for (String platform : List.of(Platform.current().toString(), "darwin_arm64")) {
            Path pkg = dir.resolve("mirror/registry.terraform.io/acme/thing/1.0.0/" + platform);
            Files.createDirectories(pkg);
            Files.writeString(pkg.resolve("terraform-provider-thing_v1.0.0"), "#!/bin/sh\n# " + platform + "\n");
            pkg.resolve("terraform-provider-thing_v1.0.0").toFile().setExecutable(true);
        }
        write(
                "cli.tfrc",
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + dir.resolve("mirror")
                        + "\"\n  }\n}\n");
        write("main.tf", """
                terraform {
                  required_providers {
                    thing = { source = "acme/thing", version = ">= 1.0" }
                  }
                }
                resource "thing_widget" "w" {}
                """);
        return CliRunner.in(dir)
                .env("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString());
    }

    @Test
    void printsTheRequirementsTreeAsTerraformDoes() throws IOException {
        write("main.tf", """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = ">= 5.0" }
                  }
                }
                module "m" { source = "./m" }
                module "z" {
                  source    = "./m/n"
                  providers = { aws = aws }
                }
                resource "terraform_data" "x" {}
                """);
        write("m/main.tf", """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "< 6.0" }
                  }
                }
                module "n" { source = "./n" }
                resource "aws_vpc" "v" {}
                """);
        write("m/n/main.tf", "resource \"aws_vpc\" \"v\" {}\n");
        CliRunner.Result r = CliRunner.in(dir).run("providers");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("""

                Providers required by configuration:
                .
                ├── provider[registry.terraform.io/hashicorp/aws] >= 5.0.0
                ├── provider[terraform.io/builtin/terraform]
                ├── module.m
                │\u00a0\u00a0 ├── provider[registry.terraform.io/hashicorp/aws] < 6.0.0
                │\u00a0\u00a0 └── module.n
                │\u00a0\u00a0     └── provider[registry.terraform.io/hashicorp/aws]
                └── module.z
                    └── provider[registry.terraform.io/hashicorp/aws]


                Warning: Reference to undefined provider

                  on main.tf line 9, in module "z":
                   9:   providers = { aws = aws }

                There is no explicit declaration for local provider name "aws" in module.z,
                so Strata is assuming you mean to pass a configuration for "hashicorp/aws".

                If you also control the child module, add a required_providers entry named
                "aws" with the source address "hashicorp/aws".
                """);
    }

    @Test
    void providersTheStateNamesAreListedAfterTheTree() throws IOException {
        write("main.tf", "resource \"terraform_data\" \"a\" { input = 1 }\n");
        assertThat(CliRunner.in(dir).run("apply", "-auto-approve").exitCode()).isZero();
        // A state written elsewhere can name providers the configuration no longer does (with aliases
        // and module paths, which the listing leaves out, as Terraform's does).
        String state = Files.readString(dir.resolve("terraform.tfstate"));
        String extra = state.replace(
                "\"resources\": [",
                "\"resources\": [\n"
                        + "{\"mode\":\"managed\",\"type\":\"random_id\",\"name\":\"x\",\"module\":\"module.m\","
                        + "\"provider\":\"module.m.provider[\\\"registry.terraform.io/hashicorp/random\\\"].alt\","
                        + "\"instances\":[]},");
        Files.writeString(dir.resolve("terraform.tfstate"), extra);
        CliRunner.Result r = CliRunner.in(dir).run("providers");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("""

                Providers required by configuration:
                .
                └── provider[terraform.io/builtin/terraform]

                Providers required by state:

                    provider[registry.terraform.io/hashicorp/random]

                    provider[terraform.io/builtin/terraform]

                """);
    }

    @Test
    void lockRecordsHashesForEveryPlatform() throws IOException {
        CliRunner cli = withMirror();
        CliRunner.Result r = cli.run("providers", "lock", "-platform=" + Platform.current(), "-platform=darwin_arm64");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout())
                .contains("- Fetching acme/thing 1.0.0 for darwin_arm64...")
                .contains("Success! Strata has updated the lock file.");
        String lock = Files.readString(dir.resolve(".terraform.lock.hcl"));
        for (String platform : List.of(Platform.current().toString(), "darwin_arm64")) {
            assertThat(lock)
                    .contains(PackageHashes.h1OfDirectory(
                            dir.resolve("mirror/registry.terraform.io/acme/thing/1.0.0/" + platform)));
        }
        assertThat(lock).contains("constraints = \">= 1.0.0\"");
        assertThat(dir.resolve(".terraform/providers")).doesNotExist();

        CliRunner.Result again =
                cli.run("providers", "lock", "-platform=" + Platform.current(), "-platform=darwin_arm64");
        assertThat(again.stdout()).contains("found no need for changes");
        // init accepts a package matching any of the recorded hashes.
        CliRunner.Result init = cli.run("init");
        assertThat(init.exitCode()).as(init.stderr()).isZero();
        assertThat(Files.readString(dir.resolve(".terraform.lock.hcl"))).isEqualTo(lock);
        // version reports the lock file's selections, as terraform version does.
        assertThat(cli.run("version", "-json").stdout()).contains("\"registry.terraform.io/acme/thing\": \"1.0.0\"");
        assertThat(cli.run("version").stdout()).contains("+ provider registry.terraform.io/acme/thing v1.0.0");
    }

    /** The per-user caches of in-process runs are the test JVM's home's, never the developer's own. */
    @Test
    void packageHashesAreCachedInTheTestsOwnHome() throws IOException {
        CliRunner.Result r = withMirror().run("providers", "lock");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Path cache = dev.strata.testing.TestHome.cacheDir().resolve("package-hashes.json");
        assertThat(cache).isRegularFile();
        assertThat(Files.readString(cache))
                .contains(dir.resolve("mirror/registry.terraform.io/acme/thing/1.0.0/" + Platform.current())
                        .toRealPath()
                        .toString());
        assertThat(dev.strata.testing.TestHome.dir()).isNotEqualTo(Path.of(System.getProperty("user.home")));
    }

    @Test
    void mirrorWritesAPackedMirrorThatInitCanUse() throws IOException {
        CliRunner cli = withMirror();
        CliRunner.Result r = cli.run("providers", "mirror", "out");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Path base = dir.resolve("out/registry.terraform.io/acme/thing");
        Path zip = base.resolve("terraform-provider-thing_1.0.0_" + Platform.current() + ".zip");
        assertThat(zip).exists();
        assertThat(PackageHashes.h1OfZip(zip))
                .isEqualTo(PackageHashes.h1OfDirectory(
                        dir.resolve("mirror/registry.terraform.io/acme/thing/1.0.0/" + Platform.current())));
        JsonNode index = new ObjectMapper().readTree(base.resolve("index.json").toFile());
        assertThat(index.get("versions").has("1.0.0")).isTrue();
        JsonNode version =
                new ObjectMapper().readTree(base.resolve("1.0.0.json").toFile());
        assertThat(version.get("archives")
                        .get(Platform.current().toString())
                        .get("url")
                        .asText())
                .isEqualTo(zip.getFileName().toString());

        // The new mirror serves init in place of the original one.
        write(
                "cli.tfrc",
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + dir.resolve("out") + "\"\n  }\n}\n");
        CliRunner.Result init = cli.run("init");
        assertThat(init.exitCode()).as(init.stderr()).isZero();
        assertThat(dir.resolve(".terraform/providers/registry.terraform.io/acme/thing/1.0.0/" + Platform.current()
                        + "/terraform-provider-thing_v1.0.0"))
                .isExecutable();
    }

    @Test
    void schemaNeedsTheJsonFlagAndAnInstalledProvider() throws IOException {
        CliRunner cli = withMirror();
        CliRunner.Result noFlag = cli.run("providers", "schema");
        assertThat(noFlag.exitCode()).isEqualTo(1);
        assertThat(noFlag.stderr()).contains("requires the `-json` flag");
        CliRunner.Result notInit = cli.run("providers", "schema", "-json");
        assertThat(notInit.exitCode()).isEqualTo(1);
        assertThat(notInit.stderr()).contains("strata init");
    }

    /** The AWS provider's schema as {@code terraform providers schema -json} prints it, cold and then from the cache. */
    @Test
    void awsSchemaJsonEqualsTerraforms() throws Exception {
        assumeTrue(
                Files.isDirectory(AWS_MIRROR.resolve("registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64"))
                        && Platform.current().toString().equals("linux_amd64"),
                "AWS provider not in " + AWS_MIRROR);
        write(
                "cli.tfrc",
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + AWS_MIRROR + "\"\n  }\n}\n");
        write("main.tf", """
                terraform {
                  required_providers {
                    aws = { source = "hashicorp/aws", version = "~> 5.0" }
                  }
                }
                resource "terraform_data" "t" {}
                """);
        CliRunner cli = CliRunner.in(dir)
                .env("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString());
        CliRunner.Result init = cli.run("init");
        assertThat(init.exitCode()).as(init.stderr()).isZero();
        long t0 = System.nanoTime();
        CliRunner.Result cold = cli.run("providers", "schema", "-json");
        long t1 = System.nanoTime();
        CliRunner.Result warm = cli.run("providers", "schema", "-json");
        long t2 = System.nanoTime();
        System.out.printf(
                "strata providers schema -json (AWS): cold %d ms, warm %d ms%n",
                (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
        assertThat(cold.exitCode()).as(cold.stderr()).isZero();
        assertThat(warm.stdout()).isEqualTo(cold.stdout());
        JsonNode ours = new ObjectMapper().readTree(cold.stdout());
        assertThat(ours.get("provider_schemas")
                        .get("registry.terraform.io/hashicorp/aws")
                        .get("resource_schemas")
                        .size())
                .isGreaterThan(1000);

        Terraform.assumeInstalled();
        Path tf = Files.createDirectories(dir.resolve("tf"));
        Files.copy(dir.resolve("main.tf"), tf.resolve("main.tf"));
        terraform(tf, "init", "-input=false", "-no-color");
        JsonNode theirs = new ObjectMapper().readTree(terraform(tf, "providers", "schema", "-json"));
        assertThat(ours.get("format_version")).isEqualTo(theirs.get("format_version"));
        assertThat(ours.get("provider_schemas").get("registry.terraform.io/hashicorp/aws"))
                .as("AWS schema JSON differs from terraform's")
                .isEqualTo(theirs.get("provider_schemas").get("registry.terraform.io/hashicorp/aws"));
    }

    /**
     * The built-in provider's functions are in its schema with the signatures terraform lists (names,
     * return types, parameters); their descriptions are Strata's own words.
     */
    @Test
    void builtinProviderSchemaListsItsFunctionsAsTerraformDoes() throws Exception {
        write("main.tf", """
                terraform {
                  required_providers {
                    terraform = { source = "terraform.io/builtin/terraform" }
                  }
                }
                """);
        CliRunner.Result ours = CliRunner.in(dir).run("providers", "schema", "-json");
        assertThat(ours.exitCode()).as(ours.stderr()).isZero();
        JsonNode ourProvider = new ObjectMapper()
                .readTree(ours.stdout())
                .get("provider_schemas")
                .get("terraform.io/builtin/terraform");
        JsonNode fns = ourProvider.get("functions");
        assertThat(fns.get("decode_tfvars").get("return_type").asText()).isEqualTo("dynamic");
        assertThat(fns.get("encode_expr").get("parameters").get(0).get("name").asText())
                .isEqualTo("value");

        Terraform.assumeInstalled();
        write("cli.tfrc", "");
        Path tf = Files.createDirectories(dir.resolve("tf"));
        Files.copy(dir.resolve("main.tf"), tf.resolve("main.tf"));
        JsonNode theirProvider = new ObjectMapper()
                .readTree(terraform(tf, "providers", "schema", "-json"))
                .get("provider_schemas")
                .get("terraform.io/builtin/terraform");
        JsonNode theirs = theirProvider.get("functions");
        assertThat(signatures(fns)).isEqualTo(signatures(theirs)).hasSize(3);
        // Nothing to configure: no block, as Terraform shows its built-in provider.
        assertThat(ourProvider.get("provider")).isEqualTo(theirProvider.get("provider"));
    }

    /** Each function's return type and parameters, without the descriptions. */
    private static java.util.Map<String, String> signatures(JsonNode functions) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        functions.properties().forEach(e -> {
            com.fasterxml.jackson.databind.node.ObjectNode f = e.getValue().deepCopy();
            f.remove(java.util.List.of("description", "summary"));
            out.put(e.getKey(), f.toString());
        });
        return out;
    }

    private String terraform(Path wd, String... args) throws IOException, InterruptedException {
        return Terraform.in(wd)
                .cliConfig(dir.resolve("cli.tfrc"))
                .timeout(Duration.ofMinutes(2))
                .ok(args);
    }
}
