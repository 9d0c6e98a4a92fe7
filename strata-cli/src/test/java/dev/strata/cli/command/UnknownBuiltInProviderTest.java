package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code terraform.io/builtin/...} source other than {@code terraform} loads (as in Terraform) and is
 * reported as missing when the providers are resolved.
 */
class UnknownBuiltInProviderTest {
    @TempDir
    Path dir;

    @Test
    void initAndValidateReportTheMissingBuiltInProvider() throws IOException {
        TestFiles.write(dir, "main.tf", """
                terraform {
                  required_providers {
                    testing = {
                      source = "terraform.io/builtin/testing"
                    }
                  }
                }
                """);
        String detail = "This configuration requires built-in provider terraform.io/builtin/testing, but that "
                + "provider isn't available in this Strata version.";
        CliRunner.Result init = CliRunner.in(dir).width(200).run("init");
        assertThat(init.exitCode()).as(init.toString()).isEqualTo(1);
        assertThat(init.stderr()).contains("Error: Missing required provider").contains(detail);
        CliRunner.Result validate = CliRunner.in(dir).width(200).run("validate");
        assertThat(validate.exitCode()).as(validate.toString()).isEqualTo(1);
        assertThat(validate.stderr())
                .contains("Error: Missing required provider")
                .contains(detail);
        assertThat(validate.stderr()).doesNotContain("Invalid provider source address");
    }
}
