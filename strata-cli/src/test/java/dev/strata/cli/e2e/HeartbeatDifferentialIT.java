package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Still creating... [10s elapsed]" without a terminal, against the real terraform 1.11: a
 * {@code terraform_data} whose local-exec provisioner sleeps past ten seconds. An IT because each
 * side waits those seconds. Skipped without terraform (or without {@code sleep}).
 */
class HeartbeatDifferentialIT {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    private static final String SLOW = """
            resource "terraform_data" "s" {
              input = "x"
              provisioner "local-exec" { command = "sleep 11" }
            }
            """;

    @Test
    void aSlowCreateSaysItIsStillRunningEveryTenSeconds() throws Exception {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        assumeTrue(Files.isExecutable(Path.of("/bin/sleep")) || Files.isExecutable(Path.of("/usr/bin/sleep")));
        Path cliConfig = AwsExamples.cliConfig(tf);
        Files.writeString(tf.resolve("main.tf"), SLOW);
        Files.writeString(st.resolve("main.tf"), SLOW);
        AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        assertThat(CliRunner.in(st).run("init", "-no-color").exitCode()).isZero();

        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "apply", "-auto-approve", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("apply", "-auto-approve", "-no-color");
        assertThat(theirs.exitCode()).isZero();
        assertThat(ours.exitCode()).as(ours.toString()).isZero();
        assertThat(progress(ours.stdout())).isEqualTo(progress(theirs.stdout()));
        assertThat(ours.stdout()).contains("terraform_data.s: Still creating... [10s elapsed]\n");
    }

    /** The progress lines of the one resource, its provisioner's lines aside (their order races). */
    private static List<String> progress(String stdout) {
        return stdout.lines()
                .filter(l -> l.startsWith("terraform_data.s: "))
                .filter(l -> !l.contains("Provisioning with") && !l.startsWith("terraform_data.s (local-exec)"))
                .map(l -> l.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>")
                        .replaceAll("after \\d+s", "after Ns"))
                .toList();
    }
}
