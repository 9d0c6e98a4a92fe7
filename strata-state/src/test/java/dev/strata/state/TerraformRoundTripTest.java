package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** States written by the real Terraform read and write back byte for byte, and Terraform accepts ours. */
class TerraformRoundTripTest {
    @TempDir
    Path dir;

    /** terraform in {@code dir}, offline, stderr with stdout, bounded to two minutes. */
    private ProcessResult terraform(String... args) throws Exception {
        return Terraform.in(dir)
                .env("NO_COLOR", "1")
                .mergeStderr()
                .timeout(Duration.ofMinutes(2))
                .run(args);
    }

    @Test
    void terraformStatesRoundTripAndTerraformReadsOurs() throws Exception {
        Terraform.assumeInstalled();
        Files.writeString(dir.resolve("main.tf"), """
                resource "terraform_data" "a" {
                  input = { name = "x <&> \\u00e9", n = 12345678901234567890.5 }
                }
                resource "terraform_data" "b" {
                  count = 3
                  input = terraform_data.a.output
                  lifecycle { create_before_destroy = true }
                }
                resource "terraform_data" "c" {
                  for_each = toset(["k1", "k2"])
                  input    = sensitive({ secret = each.key, list = [1, 2] })
                }
                module "m" {
                  source = "./m"
                }
                output "o" { value = terraform_data.a.output }
                output "s" {
                  value     = "shh"
                  sensitive = true
                }
                check "ck" {
                  assert {
                    condition     = terraform_data.a.output.name != ""
                    error_message = "x"
                  }
                }
                """);
        Files.createDirectories(dir.resolve("m"));
        Files.writeString(dir.resolve("m/main.tf"), """
                resource "terraform_data" "z" {
                  count = 1
                  input = "z"
                }
                """);
        assertThat(terraform("init", "-input=false").exitCode()).isZero();
        ProcessResult apply = terraform("apply", "-auto-approve", "-input=false");
        assertThat(apply.exitCode()).as(apply.stdout()).isZero();
        assertThat(terraform("taint", "terraform_data.b[1]").exitCode()).isZero();

        Path file = dir.resolve("terraform.tfstate");
        byte[] written = Files.readAllBytes(file);
        Result<StateSnapshot> r = StateCodec.read(written, "terraform.tfstate", "");
        assertThat(r.diagnostics().asList()).isEmpty();
        StateSnapshot s = r.value();
        assertThat(new String(StateCodec.write(s), StandardCharsets.UTF_8))
                .isEqualTo(new String(written, StandardCharsets.UTF_8));
        assertThat(s.instanceAddresses()).hasSize(7);

        // Terraform accepts a state Strata wrote (new serial, Strata's version) and sees no changes
        // except the tainted instance it must replace.
        Files.write(file, StateCodec.write(s.withSerial(s.serial() + 1).withTerraformVersion("1.11.4")));
        ProcessResult list = terraform("state", "list");
        assertThat(list.exitCode()).as(list.stdout()).isZero();
        assertThat(list.stdout()).contains("terraform_data.c[\"k2\"]").contains("module.m.terraform_data.z[0]");
        ProcessResult plan = terraform("plan", "-detailed-exitcode", "-input=false");
        assertThat(plan.stdout()).contains("1 to add, 0 to change, 1 to destroy");
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
    void terraformHoldingTheStateLockIsRespected() throws Exception {
        Terraform.assumeInstalled();
        Files.writeString(dir.resolve("main.tf"), "resource \"terraform_data\" \"a\" {}\n");
        assertThat(terraform("init", "-input=false").exitCode()).isZero();
        assertThat(terraform("apply", "-auto-approve", "-input=false").exitCode())
                .isZero();
        // terraform console holds the state lock while it waits for input.
        Process console = Terraform.in(dir)
                .mergeStderr()
                .process("console")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            Path info = dir.resolve(".terraform.tfstate.lock.info");
            for (int i = 0; i < 600 && !Files.exists(info); i++) { // bounded wait for terraform to lock
                Thread.sleep(50);
            }
            assertThat(info).exists();
            // Even when Terraform's lock looks old, it is held, so it is not taken over.
            LockTiming later = LockTiming.DEFAULT.withClock(
                    java.time.Clock.offset(java.time.Clock.systemUTC(), java.time.Duration.ofHours(1)));
            Result<StateManager> r = LocalBackend.in(dir, "0.1.0")
                    .withTiming(later)
                    .open("default", LockRequest.of("OperationTypeApply", java.time.Duration.ZERO));
            assertThat(r.value()).isNull();
            assertThat(r.diagnostics().asList().get(0).detail())
                    .contains("Version:   1.11")
                    .contains("Who:       ");
        } finally {
            console.getOutputStream().close();
            console.destroy();
            console.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        Result<StateManager> after = LocalBackend.in(dir, "0.1.0")
                .open("default", LockRequest.of("apply", java.time.Duration.ofSeconds(10)));
        assertThat(after.value()).as(after.diagnostics().toString()).isNotNull();
        after.value().close();
    }
}
