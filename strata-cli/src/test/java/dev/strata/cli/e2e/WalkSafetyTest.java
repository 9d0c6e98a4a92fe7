package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk at its edges, end to end through the CLI with the built-in providers: a failure stops
 * only what depends on it, a count that cannot be expanded is an error at plan (never a silent
 * drop), and a known count is decided at plan even inside a module whose instances are deferred.
 */
@Timeout(120)
class WalkSafetyTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        TestFiles.write(dir, name, text);
    }

    private CliRunner.Result run(String... args) {
        return CliRunner.in(dir).run(args);
    }

    private List<String> stateAddresses() throws IOException {
        Path state = dir.resolve("terraform.tfstate");
        List<String> out = new ArrayList<>();
        if (!Files.exists(state)) {
            return out;
        }
        for (JsonNode r : JSON.readTree(state.toFile()).get("resources")) {
            out.add(r.get("type").asText() + "." + r.get("name").asText());
        }
        return out;
    }

    private static String flat(String s) {
        return s.replaceAll("\\s+", " ");
    }

    /**
     * The repro: local_file.bad fails at once (its directory's parent is a file), time_sleep.slow
     * takes 3 s, and terraform_data.after_slow depends only on the sleep. Before, it was "Not started".
     */
    @Test
    void aFailureDoesNotStopAnIndependentSlowBranch() throws IOException {
        write("blocker", "a file where a directory is needed\n");
        write("main.tf", """
                resource "local_file" "bad" {
                  filename = "${path.module}/blocker/sub/f.txt"
                  content  = "x"
                }
                resource "terraform_data" "after_bad" {
                  input = local_file.bad.id
                }
                resource "time_sleep" "slow" {
                  create_duration = "3s"
                }
                resource "terraform_data" "after_slow" {
                  input = time_sleep.slow.id
                }
                """);
        CliRunner.Result r = run("apply", "-auto-approve", "-no-color");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        String out = r.stdout() + r.stderr();
        assertThat(out).contains("terraform_data.after_slow: Creation complete after");
        assertThat(out).contains("Failed: local_file.bad");
        assertThat(out).contains("Not started: terraform_data.after_bad");
        assertThat(out).doesNotContain("Not started: terraform_data.after_slow");
        assertThat(stateAddresses()).containsExactlyInAnyOrder("time_sleep.slow", "terraform_data.after_slow");
    }

    /** Before: the resource disappeared from the plan, "Plan: 1 to add", exit 0. Terraform runs out of memory. */
    @Test
    void aCountTooLargeToExpandIsAnErrorAtPlanAndAtValidate() throws IOException {
        write("main.tf", """
                resource "terraform_data" "a" {}
                resource "terraform_data" "many" {
                  count = 3000000000
                }
                """);
        String want = "The given \"count\" argument value is unsuitable: Strata supports at most 2147483647 instances "
                + "of one resource or module.";
        CliRunner.Result plan = run("plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(1);
        assertThat(flat(plan.stdout() + plan.stderr()))
                .contains("Error: Invalid count argument")
                .contains("on main.tf line 3, in resource \"terraform_data\" \"many\":")
                .contains(want)
                .doesNotContain("Plan:");
        CliRunner.Result validate = run("validate", "-no-color");
        assertThat(validate.exitCode()).as(validate.toString()).isEqualTo(1);
        assertThat(flat(validate.stdout() + validate.stderr())).contains(want);
        CliRunner.Result apply = run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(stateAddresses()).isEmpty();
    }

    /**
     * Before: module "m" waits for terraform_data.a's id, so everything inside was deferred, though the
     * inner count is known at plan time and negative; the apply created terraform_data.a, then failed.
     */
    @Test
    void aKnownNegativeCountInsideADeferredModuleIsAnErrorAtPlanAndNothingIsApplied() throws IOException {
        write("m/main.tf", """
                variable "names" { type = list(string) }
                locals { extra = length(var.names) - 5 }
                resource "terraform_data" "x" {
                  count = local.extra
                }
                """);
        write("main.tf", """
                resource "terraform_data" "a" {}
                module "m" {
                  source = "./m"
                  count  = length(terraform_data.a.id) > 0 ? 1 : 0
                  names  = ["a", "b"]
                }
                """);
        assertThat(run("init", "-no-color").exitCode()).isZero();
        String want = "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.";
        CliRunner.Result plan = run("plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(1);
        assertThat(flat(plan.stdout() + plan.stderr()))
                .contains("Error: Invalid count argument")
                .contains("on m/main.tf line 4, in resource \"terraform_data\" \"x\":")
                .contains(want);
        CliRunner.Result apply = run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
        assertThat(flat(apply.stdout() + apply.stderr())).contains(want).doesNotContain("Creating...");
        assertThat(stateAddresses()).isEmpty();
    }

    /** An invalid module count known only at plan (from a variable) is one error, not also an internal one. */
    @Test
    void anInvalidModuleCountIsOneErrorAtPlan() throws IOException {
        write("m/main.tf", "resource \"terraform_data\" \"x\" {}\n");
        write("main.tf", """
                variable "n" { default = -3 }
                module "m" {
                  source = "./m"
                  count  = var.n
                }
                """);
        assertThat(run("init", "-no-color").exitCode()).isZero();
        CliRunner.Result plan = run("plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(1);
        String out = flat(plan.stdout() + plan.stderr());
        assertThat(out)
                .contains("Error: Invalid count argument")
                .contains("on main.tf line 4, in module \"m\":")
                .doesNotContain("Internal error");
        assertThat(out.split("Error: ", -1)).hasSize(2);
    }

    /** The same value at the root, where Terraform decides it too: the same error, summary and detail. */
    @Test
    void aKnownNegativeCountIsRejectedAtPlanWithTerraformsText() throws Exception {
        String tf = """
                resource "terraform_data" "a" {}
                locals { known_tuple = [terraform_data.a.id, "b"] }
                resource "terraform_data" "x" {
                  count = length(local.known_tuple) - 5
                }
                """;
        write("main.tf", tf);
        CliRunner.Result plan = run("plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isEqualTo(1);
        String ours = flat(plan.stdout() + plan.stderr());
        String detail = "The given \"count\" argument value is unsuitable: must be greater than or equal to zero.";
        assertThat(ours).contains("Error: Invalid count argument").contains(detail);

        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        Path tfDir = Files.createDirectory(dir.resolve("tf"));
        Files.writeString(tfDir.resolve("main.tf"), tf);
        String theirs = flat(Terraform.at(terraform.get(), tfDir)
                .inAutomation(false)
                .mergeStderr()
                .timeout(Duration.ofMinutes(2))
                .expect(1, "plan", "-no-color", "-input=false"));
        assertThat(theirs).contains("Error: Invalid count argument").contains(detail);
    }
}
