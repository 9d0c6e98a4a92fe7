package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI configuration's {@code dev_overrides}: a provider runs from a build directory without
 * {@code strata init} or a lock file entry, and every command says so, as Terraform does. Uses the
 * real AWS provider's directory as the "build"; skipped without it.
 */
class DevOverridesTest {
    private static final Path BUILD =
            Path.of("/opt/tf-plugins/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64");

    @TempDir
    Path dir;

    @Test
    void anOverriddenProviderIsUsedWithoutInitAndWarnedAbout() throws IOException {
        assumeTrue(Files.isDirectory(BUILD), "no AWS provider at " + BUILD);
        Path cli = dir.resolve("dev.tfrc");
        Files.writeString(
                cli, "provider_installation {\n  dev_overrides {\n    \"hashicorp/aws\" = \"" + BUILD + "\"\n  }\n}\n");
        Files.writeString(dir.resolve("main.tf"), """
                resource "aws_ssm_parameter" "p" {
                  name  = "/x"
                  type  = "String"
                  value = "v"
                  bogus = true
                }
                """);
        CliRunner.Result r = CliRunner.in(dir)
                .env("TF_CLI_CONFIG_FILE", cli.toString())
                .width(200)
                .run("validate");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        // The provider ran (its schema found the bad argument) although nothing was installed.
        assertThat(r.stderr())
                .contains("Error: Unsupported argument")
                .contains("bogus = true")
                .doesNotContain("Missing required provider");
        assertThat(r.stdout() + r.stderr())
                .contains("Warning: Provider development overrides are in effect")
                .contains(" - hashicorp/aws in " + BUILD);
        assertThat(dir.resolve(".terraform.lock.hcl")).doesNotExist();
    }
}
