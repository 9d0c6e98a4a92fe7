package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.GitRepos;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code init}'s progress text against the real terraform 1.11 for local and Git modules (the registry's are
 * in RemoteModulesTest), with and without a backend block: the first run lists every module, a second
 * lists none (installed ones are kept, local ones too), {@code -upgrade} lists them all again; the backend's
 * section comes first. Everything up to the success line is compared, with the tool's name and the modules
 * directory neutral. Skipped without terraform.
 */
class InitTextsDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    @TempDir
    Path repo;

    @TempDir
    Path home;

    private Path terraform;
    private Path cliConfig;

    @BeforeEach
    void setUp() throws Exception {
        terraform = Terraform.find().orElse(null);
        assumeTrue(terraform != null, "terraform is not on the PATH");
        cliConfig = AwsExamples.cliConfig(home);
        GitRepos.commit(repo, Map.of("main.tf", "output \"x\" {\n  value = 1\n}\n"));
    }

    private void write(String backend) throws Exception {
        String config = backend + """
                module "g" {
                  source = "git::file://%s"
                }
                module "l" {
                  source = "./l"
                }
                module "l2" {
                  source = "./l"
                }
                resource "terraform_data" "a" {}
                """.formatted(repo);
        for (Path d : new Path[] {tf, st}) {
            Files.createDirectories(d.resolve("l"));
            Files.writeString(d.resolve("l/main.tf"), "output \"y\" {\n  value = 2\n}\n");
            Files.writeString(d.resolve("main.tf"), config);
        }
    }

    @Test
    void firstSecondAndUpgradeRunsPrintWhatTerraformPrints() throws Exception {
        write("");
        assertThat(same("init", "-no-color"))
                .startsWith("Initializing the backend...\nInitializing modules...\n")
                .contains("- l in l\n");
        assertThat(same("init", "-no-color")).doesNotContain("- l in l");
        assertThat(same("init", "-no-color", "-upgrade")).contains("Upgrading modules...\n", "- l2 in l\n");
    }

    @Test
    void aBackendBlockIsInitializedFirst() throws Exception {
        write("terraform {\n  backend \"local\" {\n    path = \"s/x.tfstate\"\n  }\n}\n");
        assertThat(same("init", "-no-color")).contains("Successfully configured the backend \"local\"!");
        assertThat(same("init", "-no-color")).doesNotContain("Successfully configured");
    }

    /** Runs init in both, asserts the same exit code and text up to the success line; returns it. */
    private String same(String... args) throws Exception {
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, args);
        CliRunner.Result ours = CliRunner.in(st).run(args);
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isZero();
        String mine = upToSuccess(ours.stdout());
        assertThat(mine).as(ours.stdout()).isEqualTo(upToSuccess(theirs.stdout()));
        return mine;
    }

    private static String upToSuccess(String stdout) {
        String neutral = stdout.replace(".terraform/modules", "<modules>")
                .replace(".strata/modules", "<modules>")
                .replaceAll("\\b(Terraform|Strata)\\b", "<tool>");
        int at = neutral.indexOf("<tool> has been successfully initialized!");
        assertThat(at).as(stdout).isNotNegative();
        return neutral.substring(0, at);
    }
}
