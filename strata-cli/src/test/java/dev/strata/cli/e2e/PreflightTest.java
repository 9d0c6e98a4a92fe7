package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks a command makes before it changes anything (issue Q1 items 1, 6, 8): configuration
 * present, a saved plan consistent with the command line, the state location writable. Each refusal
 * is exit 1 with Terraform's text where Terraform has one, and nothing changed.
 */
class PreflightTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }

    /** Wide enough that no message wraps, so texts can be matched whole. */
    private CliRunner.Result run(String... args) {
        return CliRunner.in(dir).width(10_000).run(args);
    }

    private CliRunner.Result expect(int code, String... args) {
        CliRunner.Result r = run(args);
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(code);
        return r;
    }

    /** Instance ids of every resource in the state file, in order. */
    private List<String> stateIds() throws IOException {
        List<String> out = new ArrayList<>();
        Path f = dir.resolve("terraform.tfstate");
        if (!Files.exists(f)) {
            return out;
        }
        JsonNode s = JSON.readTree(f.toFile());
        for (JsonNode r : s.path("resources")) {
            for (JsonNode i : r.path("instances")) {
                out.add(r.path("type").asText() + "." + r.path("name").asText() + ":"
                        + i.path("attributes").path("id").asText());
            }
        }
        return out;
    }

    private List<String> threeObjectsThenNoConfiguration() throws IOException {
        write("main.tf", """
                resource "terraform_data" "x" {
                  count = 3
                  input = "v${count.index}"
                }
                """);
        expect(0, "apply", "-auto-approve");
        List<String> before = stateIds();
        assertThat(before).hasSize(3);
        Files.move(dir.resolve("main.tf"), dir.resolve("main.tf.bak"));
        return before;
    }

    @Test
    void withoutConfigurationPlanApplyAndImportRefuseAndNothingIsDestroyed() throws IOException {
        List<String> before = threeObjectsThenNoConfiguration();

        CliRunner.Result plan = expect(1, "plan");
        assertThat(plan.stderr())
                .contains("Error: No configuration files")
                .contains("Plan requires configuration to be present. Planning without a configuration")
                .contains("run plan with the -destroy option");
        CliRunner.Result apply = expect(1, "apply", "-auto-approve");
        assertThat(apply.stderr())
                .contains("Error: No configuration files")
                .contains("Apply requires configuration to be present.")
                .contains("run 'strata destroy' instead");
        assertThat(apply.stdout()).doesNotContain("destroy");
        assertThat(stateIds()).isEqualTo(before);
        CliRunner.Result imp = expect(1, "import", "terraform_data.x[0]", "abc");
        assertThat(imp.stderr()).contains("No configuration files").contains(dir.toString());

        // As Terraform: refresh works without configuration and keeps every object; destroy mode is allowed.
        expect(0, "refresh");
        assertThat(stateIds()).isEqualTo(before);
        assertThat(expect(0, "plan", "-destroy").stdout()).contains("Plan: 0 to add, 0 to change, 3 to destroy.");
        assertThat(expect(0, "destroy", "-auto-approve").stdout()).contains("3 destroyed");
        assertThat(stateIds()).isEmpty();
    }

    @Test
    void anEmptyDirectoryIsAnErrorForPlanAndApply() {
        assertThat(expect(1, "plan").stderr()).contains("No configuration files");
        assertThat(expect(1, "apply", "-auto-approve").stderr()).contains("No configuration files");
        assertThat(dir.resolve("terraform.tfstate")).doesNotExist();
    }

    @Test
    void refreshOnlyNeverDeletesObjectsThatLeftTheConfiguration() throws IOException {
        write("main.tf", """
                resource "terraform_data" "x" {
                  count = 3
                }
                resource "terraform_data" "gone" {}
                """);
        expect(0, "apply", "-auto-approve");
        List<String> before = stateIds();
        write("main.tf", """
                resource "terraform_data" "x" {
                  count = 1
                }
                """);
        CliRunner.Result r = expect(0, "refresh");
        assertThat(r.stdout()).doesNotContain("Destroying");
        assertThat(stateIds()).isEqualTo(before);
    }

    private void plannedWithVariable() throws IOException {
        write("main.tf", """
                variable "v" {
                  type = string
                }
                variable "secret" {
                  type      = string
                  sensitive = true
                  default   = "s3cr3t-one"
                }
                resource "terraform_data" "x" {
                  input = var.v
                }
                """);
        expect(0, "plan", "-var", "v=aaa", "-out", "p.bin");
    }

    @Test
    void savedPlanRefusesAVariableThatDiffersAndAcceptsAnEqualOne() throws IOException {
        plannedWithVariable();
        CliRunner.Result r = expect(1, "apply", "-var", "v=zzz", "p.bin");
        assertThat(r.stderr())
                .contains("Error: Can't change variable when applying a saved plan")
                .contains("The saved plan specifies \"aaa\" as the value whereas during apply the value \"zzz\" was "
                        + "set by a CLI argument.");
        assertThat(stateIds()).isEmpty();

        write("f.tfvars", "v = \"zzz\"\n");
        r = expect(1, "apply", "-var-file", "f.tfvars", "p.bin");
        assertThat(r.stderr())
                .contains("Can't change variable when applying a saved plan")
                .contains("on f.tfvars line 1:")
                .contains("was set by a .tfvars file passed through -var-file argument");

        // The last option wins, as for planning: ending on the planned value is no change.
        expect(1, "apply", "-var", "v=aaa", "-var", "v=zzz", "p.bin");
        r = expect(0, "apply", "-var", "v=zzz", "-var", "v=aaa", "p.bin");
        assertThat(r.stdout()).contains("Apply complete! Resources: 1 added");
    }

    @Test
    void savedPlanNeverPrintsASensitiveVariable() throws IOException {
        plannedWithVariable();
        CliRunner.Result r = expect(1, "apply", "-var", "secret=s3cr3t-two", "p.bin");
        assertThat(r.stderr())
                .contains("Can't change variable when applying a saved plan")
                .contains("(sensitive value)");
        assertThat(r.stdout() + r.stderr()).doesNotContain("s3cr3t");
    }

    @Test
    void savedPlanIgnoresAnEnvironmentValueWithAWarningAndNeedsNoRequiredValue() throws IOException {
        plannedWithVariable();
        // v is required and set by nothing now: the plan holds its value.
        CliRunner.Result r =
                CliRunner.in(dir).width(10_000).env("TF_VAR_v", "zzz").run("apply", "p.bin");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout() + r.stderr())
                .contains("Warning: Ignoring variable when applying a saved plan")
                .contains("was set by an environment variable");
        JsonNode s = JSON.readTree(dir.resolve("terraform.tfstate").toFile());
        assertThat(s.at("/resources/0/instances/0/attributes/input/value").asText())
                .isEqualTo("aaa");
    }

    @Test
    void savedPlanRefusesPlanningOptionsThatDifferFromThePlan() throws IOException {
        plannedWithVariable();
        for (String[] args : List.of(
                new String[] {"-target=terraform_data.x"},
                new String[] {"-replace=terraform_data.x"},
                new String[] {"-destroy"},
                new String[] {"-refresh=false"})) {
            List<String> cmd = new ArrayList<>(List.of("apply"));
            cmd.addAll(List.of(args));
            cmd.add("p.bin");
            CliRunner.Result r = expect(1, cmd.toArray(String[]::new));
            assertThat(r.stderr())
                    .as(String.join(" ", args))
                    .contains("Error: Option conflicts with the saved plan")
                    .contains(args[0])
                    .contains("p.bin");
            assertThat(stateIds()).isEmpty();
        }
        // Options equal to the plan's, and -parallelism (how to apply, not what), are accepted.
        expect(0, "apply", "-refresh=true", "-destroy=false", "-parallelism=2", "p.bin");
    }

    private static boolean chattr(String flag, Path p) {
        try {
            Process pr = new ProcessBuilder("chattr", flag, p.toString())
                    .redirectErrorStream(true)
                    .start();
            return pr.waitFor(10, TimeUnit.SECONDS) && pr.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * An unwritable state file, as root (tests run as root, for whom permission bits do not count): the
     * immutable attribute makes the OS refuse the write to anyone. Skips where chattr is unavailable.
     */
    @Test
    void anUnwritableStateIsRefusedBeforeAnyChange() throws Exception {
        write("main.tf", """
                resource "terraform_data" "x" {
                  count = 2
                }
                """);
        expect(0, "apply", "-auto-approve");
        write("main.tf", Files.readString(dir.resolve("main.tf")).replace("count = 2", "count = 3"));
        Path state = dir.resolve("terraform.tfstate");
        byte[] before = Files.readAllBytes(state);
        assumeTrue(chattr("+i", state), "chattr +i is not available here");
        try {
            // Terraform's lock is a write lock on the state file itself, so an unwritable state file cannot
            // even be locked: refused there, before planning, with the path and the OS reason.
            CliRunner.Result r = expect(1, "apply", "-auto-approve");
            assertThat(r.stderr())
                    .contains("Error acquiring the state lock")
                    .contains("Could not lock " + state + ": operation not permitted");
            assertThat(r.stdout()).doesNotContain("Creating...");
            CliRunner.Result d = expect(1, "destroy", "-auto-approve");
            assertThat(d.stdout()).doesNotContain("Destroying...");
        } finally {
            chattr("-i", state);
        }
        assertThat(Files.readAllBytes(state)).isEqualTo(before);
        // Planning writes nothing and stays possible.
        assertThat(expect(0, "plan").stdout()).contains("1 to add");
    }

    @Test
    void anUnwritableBackupIsRefusedToo() throws Exception {
        write("main.tf", """
                resource "terraform_data" "x" {}
                """);
        expect(0, "apply", "-auto-approve");
        write("main.tf", "resource \"terraform_data\" \"x\" {}\nresource \"terraform_data\" \"y\" {}\n");
        expect(0, "apply", "-auto-approve");
        Path backup = dir.resolve("terraform.tfstate.backup");
        assertThat(backup).exists();
        write("main.tf", "resource \"terraform_data\" \"x\" {}\n");
        assumeTrue(chattr("+i", backup), "chattr +i is not available here");
        try {
            CliRunner.Result r = expect(1, "apply", "-auto-approve");
            assertThat(r.stderr()).contains("Cannot write " + backup + ": operation not permitted.");
            assertThat(r.stdout()).doesNotContain("Destroying...");
        } finally {
            chattr("-i", backup);
        }
        assertThat(stateIds()).hasSize(2);
    }

    @Test
    void planFileErrorsNameThePathAndTheReason() throws IOException {
        write("main.tf", "resource \"terraform_data\" \"x\" {}\n");
        CliRunner.Result missing = expect(1, "apply", "nope.bin");
        assertThat(missing.stderr())
                .contains("Failed to load \"nope.bin\" as a plan file")
                .contains("Could not read " + dir.resolve("nope.bin") + ": no such file or directory.");
        Files.createDirectories(dir.resolve("plans"));
        assertThat(expect(1, "apply", "plans").stderr())
                .contains("The specified path is a directory, not a plan file.");
        Files.writeString(dir.resolve("blocker"), "a file, not a directory");
        CliRunner.Result out = expect(1, "plan", "-out=blocker/p.bin");
        assertThat(out.stderr())
                .contains("Failed to write plan file")
                .contains(dir.resolve("blocker/p.bin").toString())
                .contains("not a directory")
                .doesNotContain("Exception");
    }
}
