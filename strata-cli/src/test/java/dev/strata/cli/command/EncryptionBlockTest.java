package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The terraform { encryption { ... } } block, end to end through the state commands. */
class EncryptionBlockTest {
    static final String PASS = "correct-horse-battery-staple";

    @TempDir
    Path dir;

    CliRunner cli;

    @BeforeEach
    void setUp() throws IOException {
        try (InputStream in = StateCommandsTest.class.getResourceAsStream("sample.tfstate")) {
            Files.write(dir.resolve("terraform.tfstate"), in.readAllBytes());
        }
        cli = CliRunner.in(dir);
    }

    void config(String passphrase, String stateBlock) throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  encryption {
                    key_provider "pbkdf2" "main" {
                      passphrase = "%s"
                    }
                    method "aes_gcm" "main" {
                      keys = key_provider.pbkdf2.main
                    }
                    method "unencrypted" "plain" {}
                %s
                  }
                }
                """.formatted(passphrase, stateBlock));
    }

    String stateFile() throws IOException {
        return Files.readString(dir.resolve("terraform.tfstate"));
    }

    @Test
    void theBlockAndTheStateModuleRefuseTheSameIterationCounts() {
        // The block is decoded in strata-config and keyed in strata-state: the floor must be the same on both
        // sides, or a block accepted here would fail when the state is opened.
        assertThat(dev.strata.config.EncryptionSettings.MIN_PBKDF2_ITERATIONS)
                .isEqualTo(dev.strata.state.Encryption.Key.Passphrase.MIN_ITERATIONS);
    }

    @Test
    void migratesToEncryptedWithAFallbackAndBackWithTheOtherFallback() throws IOException {
        config(PASS, "    state {\n      method = method.aes_gcm.main\n    }");
        CliRunner.Result plain = cli.run("state", "list", "-no-color");
        assertThat(plain.exitCode()).isEqualTo(1);
        assertThat(plain.stderr()).contains("Error: State is not encrypted").contains("method.unencrypted");

        config(
                PASS,
                "    state {\n      method = method.aes_gcm.main\n      fallback {\n"
                        + "        method = method.unencrypted.plain\n      }\n    }");
        assertThat(cli.run("state", "list").stdout()).startsWith("terraform_data.a\n");
        CliRunner.Result rm = cli.run("state", "rm", "terraform_data.a");
        assertThat(rm.exitCode()).as(rm.toString()).isZero();
        assertThat(stateFile())
                .contains("\"strata_encrypted_state\"")
                .contains("\"key_id\": \"main\"")
                .doesNotContain("terraform_data")
                .doesNotContain(PASS);

        // Without the fallback the encrypted state still reads; state pull shows it decrypted.
        config(PASS, "    state {\n      method = method.aes_gcm.main\n      enforced = true\n    }");
        CliRunner.Result list = cli.run("state", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).doesNotContain("terraform_data.a\n").contains("terraform_data.b[0]");
        assertThat(cli.run("state", "pull").stdout()).contains("\"lineage\"");

        // A wrong passphrase is a clear error and leaves the state as it was.
        String before = stateFile();
        config("a-different-passphrase!", "    state {\n      method = method.aes_gcm.main\n    }");
        CliRunner.Result wrong = cli.run("state", "rm", "-no-color", "terraform_data.b");
        assertThat(wrong.exitCode()).isEqualTo(1);
        assertThat(wrong.stderr())
                .contains("Error: Wrong state encryption key")
                .contains("could not be decrypted")
                .doesNotContain("a-different-passphrase!")
                .doesNotContain(PASS);
        assertThat(stateFile()).isEqualTo(before);

        // Back to plain JSON: unencrypted method, the old key as fallback.
        config(
                PASS,
                "    state {\n      method = method.unencrypted.plain\n      fallback {\n"
                        + "        method = method.aes_gcm.main\n      }\n    }");
        CliRunner.Result rm2 = cli.run("state", "rm", "terraform_data.b");
        assertThat(rm2.exitCode()).as(rm2.toString()).isZero();
        assertThat(stateFile()).doesNotContain("strata_encrypted_state").contains("\"lineage\"");
    }

    @Test
    void configurationMistakesAreDiagnosticsAtTheirPlace() throws IOException {
        config(PASS, "    state {\n      method = method.unencrypted.plain\n      enforced = true\n    }");
        CliRunner.Result enforced = cli.run("state", "list", "-no-color");
        assertThat(enforced.exitCode()).isEqualTo(1);
        assertThat(enforced.stderr())
                .contains("Error: Unencrypted state is not allowed")
                .contains("on main.tf line 11");

        config("short", "    state {\n      method = method.aes_gcm.main\n    }");
        CliRunner.Result shortPass = cli.run("state", "list", "-no-color");
        assertThat(shortPass.stderr()).contains("Error: Passphrase too short").contains("on main.tf line 4");

        config(PASS, "    state {\n      method = method.aes_gcm.missing\n    }");
        CliRunner.Result undeclared = cli.run("state", "list", "-no-color");
        assertThat(undeclared.stderr())
                .contains("Error: Reference to undeclared method")
                .contains("There is no method.aes_gcm.missing");

        config(
                PASS,
                "    state {\n      method = method.aes_gcm.missing\n    }\n    plan {\n"
                        + "      method = method.aes_gcm.main\n    }");
        CliRunner.Result two = cli.run("state", "list", "-no-color");
        assertThat(two.stderr())
                .contains("Error: Unsupported encryption target")
                .contains("saved plan files");

        Files.writeString(dir.resolve("main.tf"), """
                variable "p" {
                  sensitive = true
                }
                locals {
                  l = "x"
                }
                terraform {
                  encryption {
                    key_provider "pbkdf2" "main" {
                      passphrase = var.p
                    }
                    key_provider "pbkdf2" "other" {
                      passphrase = local.l
                    }
                  }
                }
                """);
        CliRunner.Result vars = cli.run("state", "list", "-no-color");
        assertThat(vars.stderr())
                .contains("Error: No value for required variable")
                .contains("TF_VAR_p")
                .contains("Error: Invalid reference in the encryption block")
                .contains("on main.tf line 13");
        assertThat(cli.run("validate").exitCode())
                .as("the block is part of the language")
                .isZero();
    }

    @Test
    void thePassphraseMayComeFromAnInputVariable() throws IOException {
        Files.writeString(dir.resolve("main.tf"), """
                variable "passphrase" {
                  type      = string
                  sensitive = true
                }
                terraform {
                  encryption {
                    key_provider "pbkdf2" "main" {
                      passphrase = var.passphrase
                    }
                    method "aes_gcm" "main" {
                      keys = key_provider.pbkdf2.main
                    }
                    method "unencrypted" "plain" {}
                    state {
                      method = method.aes_gcm.main
                      fallback {
                        method = method.unencrypted.plain
                      }
                    }
                  }
                }
                """);
        CliRunner.Result rm = cli.env("TF_VAR_passphrase", PASS).run("state", "rm", "terraform_data.a");
        assertThat(rm.exitCode()).as(rm.toString()).isZero();
        assertThat(stateFile()).contains("\"strata_encrypted_state\"").doesNotContain(PASS);
        Files.writeString(dir.resolve("terraform.tfvars"), "passphrase = \"a-different-passphrase!\"\n");
        CliRunner.Result wrong = CliRunner.in(dir).run("state", "list", "-no-color");
        assertThat(wrong.exitCode()).isEqualTo(1);
        assertThat(wrong.stderr())
                .contains("Error: Wrong state encryption key")
                .doesNotContain("a-different-passphrase!");
    }

    @Test
    void aBlockWinsOverTheEnvironmentWithAWarning() throws IOException {
        config(PASS, "    state {\n      method = method.unencrypted.plain\n    }");
        CliRunner.Result r =
                cli.env("STRATA_STATE_PASSPHRASE", "another-long-passphrase").run("state", "list", "-no-color");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout())
                .contains("Warning: State encryption configured twice")
                .contains("terraform_data.a");
    }
}
