package dev.strata.cli.command.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.tfplugin.install.Platform;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Stack's external providers: validate before init tells to run {@code strata stacks init}, which
 * installs them from the CLI configuration's mirror and writes the dependency lock file.
 */
class StacksInitProvidersTest {
    @TempDir
    Path dir;

    @Test
    void stacksInitInstallsTheProvidersItTellsToInstall() throws Exception {
        Path pkg = dir.resolve("mirror/registry.terraform.io/acme/thing/1.0.0/" + Platform.current());
        Files.createDirectories(pkg);
        Path exe = pkg.resolve("terraform-provider-thing_v1.0.0");
        Files.writeString(exe, "#!/bin/sh\nexit 1\n");
        assertThat(exe.toFile().setExecutable(true)).isTrue();
        Files.writeString(
                dir.resolve("cli.tfrc"),
                "provider_installation {\n  filesystem_mirror {\n    path = \"" + dir.resolve("mirror")
                        + "\"\n  }\n}\n");
        Path stack = dir.resolve("stack");
        Files.createDirectories(stack.resolve("net"));
        Files.writeString(stack.resolve("net/main.tf"), """
                terraform {
                  required_providers {
                    thing = { source = "acme/thing" }
                  }
                }
                resource "thing_widget" "w" {}
                """);
        Files.writeString(stack.resolve("main.tfcomponent.hcl"), """
                required_providers {
                  thing = {
                    source  = "acme/thing"
                    version = ">= 1.0"
                  }
                }
                provider "thing" "main" {}
                component "net" {
                  source    = "./net"
                  providers = { thing = provider.thing.main }
                }
                """);
        Files.writeString(stack.resolve("main.tfdeploy.hcl"), "deployment \"one\" {\n  inputs = {}\n}\n");
        CliRunner cli = CliRunner.in(stack)
                .env("TF_CLI_CONFIG_FILE", dir.resolve("cli.tfrc").toString())
                .env("HOME", dir.toString());

        for (String command : new String[] {"validate", "plan"}) {
            CliRunner.Result before = cli.run("stacks", command);
            assertThat(before.exitCode()).as(before.toString()).isEqualTo(1);
            assertThat(before.stderr())
                    .contains("No dependency lock file")
                    .contains("\"strata stacks init\"")
                    .doesNotContain("\"strata init\"");
        }

        CliRunner.Result init = cli.run("stacks", "init");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout()).contains("Installing providers...").contains("acme/thing");
        assertThat(stack.resolve(".terraform.lock.hcl")).content().contains("registry.terraform.io/acme/thing");
        assertThat(stack.resolve(".terraform/providers/registry.terraform.io/acme/thing/1.0.0"))
                .isDirectory();
    }
}
