package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
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
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    @Test
    void recordsTheModuleTreeAndListsProviders() throws IOException {
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
        CliRunner.Result r = CliRunner.in(dir).run("init");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("""
                Initializing modules...
                - net in modules/net
                - net.sub in modules/sub

                Initializing provider plugins...
                - hashicorp/aws (~> 5.0): required, not installed
                - hashicorp/random (any version): required, not installed
                - terraform.io/builtin/terraform is built in to Strata
                """).contains("Warning: Providers not installed")
                .contains("Strata has been successfully initialized!");
        assertThat(Files.readString(dir.resolve(".terraform/modules/modules.json"))).isEqualTo(
                "{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},"
                        + "{\"Key\":\"net\",\"Source\":\"./modules/net\",\"Dir\":\"modules/net\"},"
                        + "{\"Key\":\"net.sub\",\"Source\":\"../sub\",\"Dir\":\"modules/sub\"}]}\n");
    }

    @Test
    void onlyBuiltInProvidersNeedNothing() throws IOException {
        write("main.tf", "resource \"terraform_data\" \"t\" {}\n");
        CliRunner.Result r = CliRunner.in(dir).run("init");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).doesNotContain("Warning").contains("You may now begin working with Strata.");
    }

    @Test
    void remoteModuleFailsWithTheSourceNamed() throws IOException {
        write("main.tf", "module \"vpc\" { source = \"git::https://example.com/vpc.git\" }\n");
        CliRunner.Result r = CliRunner.in(dir).run("init");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Module not installed").contains("git::https://example.com/vpc.git")
                .contains("Strata could not be initialized");
        assertThat(dir.resolve(".terraform")).doesNotExist();
    }
}
