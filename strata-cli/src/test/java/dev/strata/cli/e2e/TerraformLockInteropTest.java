package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code terraform} and Strata against the same directory at the same time: each holds the
 * OS lock of {@code terraform.tfstate} while it works, so exactly one of them holds the lock and the
 * other is refused with "Error acquiring the state lock" naming the holder; a lock-info file left by
 * a killed Terraform does not block Strata. Skipped when {@code terraform} is not on the PATH.
 */
class TerraformLockInteropTest {
    @TempDir
    Path dir;

    Path terraform;

    @BeforeEach
    void needsTerraform() {
        terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
    }

    private Path info() {
        return dir.resolve(".terraform.tfstate.lock.info");
    }

    @Test
    void terraformHoldingTheLockRefusesStrataApplyAndStateRm() throws Exception {
        // The state file does not exist yet: Terraform creates it empty to lock it, and Strata must see that lock.
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" {
                  input = "x"
                  provisioner "local-exec" {
                    command = "sleep 4"
                  }
                }
                """);
        Process tf = start("apply", "-auto-approve", "-input=false", "-no-color");
        awaitLockInfo(tf);

        CliRunner.Result apply = CliRunner.in(dir).run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.stderr())
                .contains("Error acquiring the state lock")
                .containsIgnoringWhitespaces("Version: 1.11")
                .containsIgnoringWhitespaces("Operation: OperationTypeApply")
                .doesNotContain("Exception");
        CliRunner.Result rm = CliRunner.in(dir).run("state", "rm", "-no-color", "terraform_data.a");
        assertThat(rm.exitCode()).as(rm.toString()).isEqualTo(1);
        assertThat(rm.stderr()).contains("Error acquiring the state lock");

        assertThat(finish(tf)).as("terraform apply").isZero();
        assertThat(info()).doesNotExist();
        CliRunner.Result list = CliRunner.in(dir).run("state", "rm", "-no-color", "terraform_data.a");
        assertThat(list.exitCode())
                .as("the lock is free once terraform exits: " + list)
                .isZero();
    }

    @Test
    void strataHoldingTheLockRefusesTerraformStateRm() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "d" {
                  input = "x"
                }
                """);
        assertThat(CliRunner.in(dir).run("apply", "-auto-approve", "-no-color").exitCode())
                .isZero();
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "d" {
                  input = "x"
                }
                resource "time_sleep" "s" {
                  create_duration = "3s"
                }
                """);
        CompletableFuture<CliRunner.Result> strata =
                CompletableFuture.supplyAsync(() -> CliRunner.in(dir).run("apply", "-auto-approve", "-no-color"));
        for (int i = 0; i < 1000 && !Files.exists(info()) && !strata.isDone(); i++) {
            Thread.sleep(10);
        }
        assertThat(info()).as("strata holds the lock").exists();
        Run rm = run("state", "rm", "-no-color", "terraform_data.d");
        assertThat(rm.code()).as(rm.output()).isEqualTo(1);
        assertThat(rm.output())
                .contains("Error acquiring the state lock")
                .containsIgnoringWhitespaces("Operation: OperationTypeApply");

        CliRunner.Result done = strata.get(60, TimeUnit.SECONDS);
        assertThat(done.exitCode()).as(done.toString()).isZero();
        assertThat(done.stdout()).contains("1 added, 0 changed, 0 destroyed");
        Run after = run("state", "rm", "-no-color", "terraform_data.d");
        assertThat(after.code())
                .as("terraform can lock once strata is done: " + after.output())
                .isZero();
        assertThat(CliRunner.in(dir).run("state", "list").stdout()).isEqualTo("time_sleep.s\n");
    }

    @Test
    void lockInfoLeftByAKilledTerraformDoesNotBlockStrata() throws Exception {
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" {
                  input = "x"
                  provisioner "local-exec" {
                    command = "sleep 30"
                  }
                }
                """);
        Process tf = start("apply", "-auto-approve", "-input=false", "-no-color");
        awaitLockInfo(tf);
        tf.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        tf.descendants().forEach(ProcessHandle::destroyForcibly);
        assertThat(info()).as("kill -9 leaves terraform's lock info behind").exists();

        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" {
                  input = "x"
                }
                """);
        CliRunner.Result apply = CliRunner.in(dir).run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(apply.stdout() + apply.stderr())
                .contains("Took over a stale state lock")
                .containsIgnoringWhitespaces("no process holds the lock on the state file");
        assertThat(info()).doesNotExist();
    }

    private Process start(String... args) throws IOException {
        return builder(args).redirectOutput(dir.resolve("tf.out").toFile()).start();
    }

    private ProcessBuilder builder(String... args) {
        return Terraform.at(terraform, dir).mergeStderr().process(args);
    }

    private void awaitLockInfo(Process tf) throws Exception {
        for (int i = 0; i < 3000 && !Files.exists(info()) && tf.isAlive(); i++) {
            Thread.sleep(10);
        }
        assertThat(info())
                .as("terraform holds the lock: " + Files.readString(dir.resolve("tf.out")))
                .exists();
    }

    private int finish(Process p) throws Exception {
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    record Run(int code, String output) {}

    private Run run(String... args) throws Exception {
        ProcessResult r = Terraform.at(terraform, dir)
                .mergeStderr()
                .timeout(Duration.ofMinutes(1))
                .run(args);
        return new Run(r.exitCode(), r.stdout());
    }
}
