package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.HttpStateServer;
import dev.strata.testing.S3Server;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The s3 and http backends through the CLI: a partial backend block completed by a -backend-config file
 * (with the endpoints object) and KEY=VALUE, init -migrate-state from local state, -reconfigure to the
 * http backend, force-unlock, and settings errors at their place in the file.
 */
class RemoteBackendsCliTest {
    @TempDir
    Path dir;

    private CliRunner cli() {
        return CliRunner.in(dir).env(S3Server.credentials());
    }

    @Test
    void migrateLocalStateToS3ThenReconfigureToHttp() throws Exception {
        String bucket = S3Server.shared().createBucket("cli");
        try (InputStream in = StateCommandsTest.class.getResourceAsStream("sample.tfstate")) {
            Files.write(dir.resolve("terraform.tfstate"), in.readAllBytes());
        }
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  backend "s3" {
                    key          = "cli/terraform.tfstate"
                    use_lockfile = true
                  }
                }
                """);
        Files.writeString(dir.resolve("s3.tfbackend"), """
                bucket           = "%s"
                endpoints        = { s3 = "%s" }
                use_path_style   = true
                skip_s3_checksum = true
                """.formatted(
                        bucket, S3Server.shared().endpoint()));
        CliRunner.Result init = cli().run(
                        "init",
                        "-backend-config=s3.tfbackend",
                        "-backend-config=region=us-east-1",
                        "-migrate-state",
                        "-force-copy",
                        "-no-color");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout())
                .contains("copied workspace \"default\"")
                .contains("Successfully configured the backend \"s3\"!");
        assertThat(S3Server.shared().keys(bucket)).containsExactly("cli/terraform.tfstate");
        CliRunner.Result list = cli().run("state", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).startsWith("terraform_data.a\n");
        assertThat(cli().run("state", "rm", "terraform_data.a").exitCode()).isZero();
        assertThat(new String(S3Server.shared().object(bucket, "cli/terraform.tfstate"), StandardCharsets.UTF_8))
                .doesNotContain("\"name\": \"a\"");

        try (HttpStateServer http = HttpStateServer.start()) {
            Files.writeString(dir.resolve("main.tf"), """
                    terraform {
                      backend "http" {}
                    }
                    """);
            CliRunner.Result re = cli().run(
                            "init",
                            "-reconfigure",
                            "-backend-config=address=" + http.address(),
                            "-backend-config=lock_address=" + http.address(),
                            "-backend-config=unlock_address=" + http.address(),
                            "-no-color");
            assertThat(re.exitCode()).as(re.toString()).isZero();
            assertThat(re.stdout()).contains("Successfully configured the backend \"http\"!");
            assertThat(http.state()).as("-reconfigure copies nothing").isNull();
            CliRunner.Result push = cli().run("state", "push", "terraform.tfstate");
            assertThat(push.exitCode()).as(push.toString()).isZero();
            assertThat(new String(http.state(), StandardCharsets.UTF_8)).contains("terraform_data");
            assertThat(http.lockId()).as("unlocked after the push").isNull();
            CliRunner.Result ws = cli().run("workspace", "new", "x");
            assertThat(ws.exitCode()).isEqualTo(1);
            assertThat(ws.stderr()).contains("workspaces not supported");
        }
    }

    @Test
    void unknownAndUnsupportedSettingsAreErrorsAtTheirPlace() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  backend "s3" {
                    bucket  = "b"
                    key     = "k"
                    region  = "us-east-1"
                    bogus   = true
                  }
                }
                """);
        CliRunner.Result init = cli().run("init", "-no-color");
        assertThat(init.exitCode()).isEqualTo(1);
        assertThat(init.stderr())
                .contains("Error: Unsupported argument")
                .contains("on main.tf line 6")
                .contains("An argument named \"bogus\" is not expected here.");
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  backend "s3" {
                    bucket         = "b"
                    key            = "k"
                    region         = "us-east-1"
                    dynamodb_table = "locks"
                  }
                }
                """);
        CliRunner.Result dynamo = cli().run("init", "-no-color");
        assertThat(dynamo.exitCode()).isEqualTo(1);
        assertThat(dynamo.stderr())
                .contains("DynamoDB locking is not supported")
                .contains("use_lockfile = true");
    }
}
