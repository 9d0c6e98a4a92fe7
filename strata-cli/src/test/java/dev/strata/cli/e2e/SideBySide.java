package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Two working directories with the same configuration, one for the real terraform (offline: the mirror-only
 * CLI configuration) and one for Strata, for differential tests that run a command in both and compare what
 * each prints. The comparison itself stays with each test: what is made neutral differs.
 */
final class SideBySide {
    private final Path terraform;
    private final Path terraformDir;
    private final Path strataDir;
    private final Path cliConfig;

    private SideBySide(Path terraform, Path terraformDir, Path strataDir, Path cliConfig) {
        this.terraform = terraform;
        this.terraformDir = terraformDir;
        this.strataDir = strataDir;
        this.cliConfig = cliConfig;
    }

    /** Both directories, or the calling test skipped where terraform is not on the PATH. */
    static SideBySide assumeTerraform(Path terraformDir, Path strataDir) throws IOException {
        Path terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        return new SideBySide(terraform, terraformDir, strataDir, AwsExamples.cliConfig(terraformDir));
    }

    /** Writes {@code main.tf} into both directories. */
    void write(String config) throws IOException {
        write("main.tf", config);
    }

    /** Writes the file at the relative path into both directories, creating its folders. */
    void write(String file, String text) throws IOException {
        for (Path dir : new Path[] {terraformDir, strataDir}) {
            Path path = dir.resolve(file);
            Files.createDirectories(path.getParent());
            Files.writeString(path, text);
        }
    }

    /** Writes {@code main.tf} and initializes both directories, asserting that both inits succeed. */
    void init(String config) throws Exception {
        write(config);
        assertThat(terraform("init", "-no-color").exitCode()).isZero();
        assertThat(strata("init", "-no-color").exitCode()).isZero();
    }

    AwsExamples.Run terraform(String... args) throws IOException, InterruptedException {
        return AwsExamples.terraform(terraform, terraformDir, cliConfig, args);
    }

    CliRunner.Result strata(String... args) {
        return CliRunner.in(strataDir).run(args);
    }
}
