package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dependency lock file that does not parse stops {@code validate}, {@code plan} and {@code init} with exit
 * 1, as terraform 1.11 does (checked when terraform is on the PATH), even for a configuration that needs no
 * provider from it. Strata shows each problem as a configuration problem, at its line with the source line;
 * terraform prints "failed to read dependency lock file: ..." with no place (docs/parity.md).
 */
class LockFileDiagnosticsTest {
    @TempDir
    Path dir;

    @TempDir
    Path tf;

    @TempDir
    Path home;

    private static final String LOCK = """
            provider "registry.terraform.io/hashicorp/null" {
              version = 3
              hashes  = "x"
            }
            """;

    @Test
    void problemsInTheLockFileAreShownAtTheirSourceLines() throws Exception {
        for (Path d : List.of(dir, tf)) {
            Files.writeString(d.resolve("main.tf"), "resource \"terraform_data\" \"a\" {}\n");
            Files.writeString(d.resolve(".terraform.lock.hcl"), LOCK);
        }
        for (String command : List.of("validate", "plan", "init")) {
            CliRunner.Result r = CliRunner.in(dir).run(command, "-no-color");
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
            assertThat(r.stderr())
                    .as(command)
                    .contains("Error: Invalid version\n\n  on .terraform.lock.hcl line 2:\n   2:   version = 3\n")
                    .contains("Error: Invalid provider hash set\n\n  on .terraform.lock.hcl line 3:\n"
                            + "   3:   hashes  = \"x\"\n");
            var terraform = Terraform.find();
            if (terraform.isPresent()) {
                AwsExamples.Run theirs =
                        AwsExamples.terraform(terraform.get(), tf, AwsExamples.cliConfig(home), command, "-no-color");
                assertThat(theirs.exitCode()).as(theirs.stderr()).isEqualTo(1);
                assertThat(theirs.stderr()).contains("failed to read dependency lock file");
            }
        }
        CliRunner.Result json = CliRunner.in(dir).run("validate", "-json");
        assertThat(json.stdout())
                .contains("\"filename\": \".terraform.lock.hcl\"")
                .contains("\"code\": \"  version = 3\"");
    }
}
