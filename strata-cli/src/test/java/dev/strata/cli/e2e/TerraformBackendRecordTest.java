package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.S3Server;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strata and the real terraform 1.11 in one working directory: each accepts the backend record
 * ({@code .terraform/terraform.tfstate}) the other wrote at init, and still notices a changed block.
 * Skipped where terraform is not on the PATH.
 */
class TerraformBackendRecordTest {
    @TempDir
    Path dir;

    private static final String CONFIG = config("""
              backend "local" {
                path = "states/main.tfstate"
              }
            """);

    /** A configuration of one resource whose {@code terraform} block holds the backend block. */
    private static String config(String backend) {
        return "terraform {\n" + backend + "}\n" + """
                resource "terraform_data" "a" {
                  input = "x"
                }
                """;
    }

    @Test
    void strataUsesTheBackendTerraformInitialized() throws Exception {
        Files.writeString(dir.resolve("main.tf"), CONFIG);
        terraform().ok("init", "-no-color", "-input=false");
        CliRunner.Result plan = strata().run("plan", "-no-color", "-input=false");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout()).contains("1 to add");
        CliRunner.Result apply = strata().run("apply", "-auto-approve", "-no-color", "-input=false");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(dir.resolve("states/main.tfstate")).exists();
        // and terraform still accepts its own record after Strata used it
        ProcessResult t = terraform().run("plan", "-no-color", "-input=false", "-detailed-exitcode");
        assertThat(t.exitCode()).as(t.stdout() + t.stderr()).isZero();
    }

    @Test
    void terraformUsesTheBackendStrataInitialized() throws Exception {
        terraformPlansNoChangesAfterStrataInit(CONFIG, strata(), terraform());
    }

    @Test
    void aChangedBlockIsStillNoticedAfterTerraformInit() throws Exception {
        Files.writeString(dir.resolve("main.tf"), CONFIG);
        terraform().ok("init", "-no-color", "-input=false");
        Files.writeString(dir.resolve("main.tf"), CONFIG.replace("states/main", "states/other"));
        CliRunner.Result plan = strata().run("plan", "-no-color", "-input=false");
        ProcessResult t = terraform().run("plan", "-no-color", "-input=false");
        assertThat(plan.exitCode()).isEqualTo(t.exitCode()).isEqualTo(1);
        assertThat(t.stderr()).contains("Backend configuration block has changed");
        assertThat(plan.stderr()).contains("Backend configuration changed");
    }

    /** An s3 backend: Terraform's record (every setting listed, unset ones null, nested ones too) is accepted. */
    @Test
    void strataUsesTheS3BackendTerraformInitialized() throws Exception {
        Terraform.assumeInstalled();
        S3Server s3 = S3Server.shared();
        strataPlansNoChangesAfterTerraformInit(
                config(s3.backendBlock(s3.createBucket("rec"))), s3Strata(), s3Terraform());
    }

    private static String httpConfig(dev.strata.testing.HttpStateServer server) {
        return config("""
                  backend "http" {
                    address                = "%1$s"
                    lock_address           = "%1$s"
                    unlock_address         = "%1$s"
                    retry_max              = 3
                    skip_cert_verification = true
                  }
                """.formatted(server.address()));
    }

    /** An http backend with typed settings: Strata records Terraform's hash, so terraform sees no change. */
    @Test
    void terraformUsesTheHttpBackendStrataInitialized() throws Exception {
        Terraform.assumeInstalled();
        try (dev.strata.testing.HttpStateServer server = dev.strata.testing.HttpStateServer.start()) {
            terraformPlansNoChangesAfterStrataInit(httpConfig(server), strata(), terraform());
        }
    }

    @Test
    void strataUsesTheHttpBackendTerraformInitialized() throws Exception {
        Terraform.assumeInstalled();
        try (dev.strata.testing.HttpStateServer server = dev.strata.testing.HttpStateServer.start()) {
            strataPlansNoChangesAfterTerraformInit(httpConfig(server), strata(), terraform());
        }
    }

    /**
     * An s3 backend with nested, number and boolean settings: Strata records the hash Terraform computes
     * over its whole schema, so terraform plans in the directory Strata initialized without asking for
     * {@code terraform init}.
     */
    @Test
    void terraformUsesTheS3BackendStrataInitialized() throws Exception {
        Terraform.assumeInstalled();
        S3Server s3 = S3Server.shared();
        String config = config(s3.backendBlock(s3.createBucket("rec"), "use_lockfile = true", "max_retries = 2"));
        terraformPlansNoChangesAfterStrataInit(config, s3Strata(), s3Terraform());
    }

    private String pgConfig() {
        int port = dev.strata.testing.PostgresServer.trusting().port();
        return config("""
                  backend "pg" {
                    conn_str    = "postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable"
                    schema_name = "rec_%d_%d"
                  }
                """.formatted(port, ProcessHandle.current().pid(), System.nanoTime() % 1_000_000));
    }

    /** A pg backend: Strata's record carries Terraform's hash (the skip_* settings count, unset). */
    @Test
    void terraformUsesThePgBackendStrataInitialized() throws Exception {
        Terraform.assumeInstalled();
        terraformPlansNoChangesAfterStrataInit(pgConfig(), strata(), terraform());
    }

    @Test
    void strataUsesThePgBackendTerraformInitialized() throws Exception {
        Terraform.assumeInstalled();
        strataPlansNoChangesAfterTerraformInit(pgConfig(), strata(), terraform());
    }

    /** Strata inits and applies; terraform then plans with no changes, without asking for its own init. */
    private void terraformPlansNoChangesAfterStrataInit(String config, CliRunner strata, Terraform terraform)
            throws Exception {
        Files.writeString(dir.resolve("main.tf"), config);
        CliRunner.Result init = strata.run("init", "-no-color", "-input=false");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        CliRunner.Result apply = strata.run("apply", "-auto-approve", "-no-color", "-input=false");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        ProcessResult t = terraform.run("plan", "-no-color", "-input=false", "-detailed-exitcode");
        assertThat(t.exitCode()).as(t.stdout() + t.stderr()).isZero();
        assertThat(t.stdout()).contains("No changes.");
    }

    /** terraform inits and applies; Strata then plans with no changes in the directory terraform initialized. */
    private void strataPlansNoChangesAfterTerraformInit(String config, CliRunner strata, Terraform terraform)
            throws Exception {
        Files.writeString(dir.resolve("main.tf"), config);
        terraform.ok("init", "-no-color", "-input=false");
        terraform.ok("apply", "-auto-approve", "-no-color", "-input=false");
        CliRunner.Result plan = strata.run("plan", "-no-color", "-input=false", "-detailed-exitcode");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout()).contains("No changes.");
    }

    private Terraform terraform() {
        Terraform.assumeInstalled();
        return Terraform.in(dir);
    }

    private Terraform s3Terraform() {
        return terraform().env(S3Server.credentials()).env("AWS_EC2_METADATA_DISABLED", "true");
    }

    private CliRunner strata() {
        return CliRunner.in(dir).env("TF_IN_AUTOMATION", "1");
    }

    private CliRunner s3Strata() {
        return strata().env(S3Server.credentials());
    }
}
