package dev.strata.cli.e2e;

import static dev.strata.testing.GitRepos.git;
import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code TF_DATA_DIR} against the real terraform 1.11: the selected workspace is recorded in that
 * directory and not in {@code .terraform}, and a command without the variable does not see it. The
 * files both tools leave are compared (Strata's own {@code .strata} directory aside). Skipped where
 * terraform is not on the PATH.
 */
class DataDirDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    @Test
    void theSelectedWorkspaceLivesInTheDataDirectory() throws Exception {
        Terraform terraform = Terraform.in(tf).env("TF_DATA_DIR", "data");
        Files.writeString(tf.resolve("main.tf"), "resource \"terraform_data\" \"a\" {}\n");
        Files.writeString(st.resolve("main.tf"), "resource \"terraform_data\" \"a\" {}\n");
        terraform.ok("init", "-no-color");
        terraform.ok("workspace", "new", "dev", "-no-color");
        CliRunner strata = CliRunner.in(st).env("TF_DATA_DIR", "data");
        assertThat(strata.run("init", "-no-color").exitCode()).isZero();
        CliRunner.Result created = strata.run("workspace", "new", "dev", "-no-color");
        assertThat(created.exitCode()).as(created.toString()).isZero();

        assertThat(files(st)).isEqualTo(files(tf)).contains("data/environment");
        assertThat(Files.readString(st.resolve("data/environment")))
                .isEqualTo(Files.readString(tf.resolve("data/environment")));
        assertThat(strata.run("workspace", "show").stdout())
                .isEqualTo(terraform.ok("workspace", "show"))
                .isEqualTo("dev\n");
        assertThat(CliRunner.in(st).run("workspace", "show").stdout())
                .isEqualTo(Terraform.in(tf).ok("workspace", "show"))
                .isEqualTo("default\n");
    }

    /**
     * Modules {@code terraform init} installed with {@code TF_DATA_DIR} are found through its manifest in
     * that directory: both tools validate the configuration with the variable, and both say the module is
     * not installed without it.
     */
    @Test
    void modulesTerraformInstalledAreFoundInTheDataDirectory(@TempDir Path repo) throws Exception {
        Terraform.assumeInstalled();
        Files.writeString(repo.resolve("main.tf"), "output \"x\" { value = \"from-git\" }\n");
        git(repo, "init", "--quiet");
        git(repo, "add", ".");
        git(repo, "commit", "--quiet", "-m", "module");
        String config = "module \"m\" {\n  source = \"git::file://" + repo + "\"\n}\n"
                + "output \"x\" { value = module.m.x }\n";
        Files.writeString(tf.resolve("main.tf"), config);
        Terraform terraform = Terraform.in(tf).env("TF_DATA_DIR", "data");
        terraform.ok("init", "-no-color");
        assertThat(tf.resolve("data/modules/modules.json")).isRegularFile();
        assertThat(tf.resolve(".terraform")).doesNotExist();

        // Strata reads the modules Terraform installed in place (no strata init).
        CliRunner.Result valid = CliRunner.in(tf).env("TF_DATA_DIR", "data").run("validate", "-no-color");
        assertThat(valid.exitCode()).as(valid.toString()).isZero();
        // Byte for byte, with the blank line Terraform ends it with.
        assertThat(valid.stdout())
                .isEqualTo(terraform.ok("validate", "-no-color"))
                .isEqualTo("Success! The configuration is valid.\n\n");

        dev.strata.testing.ProcessResult missing = Terraform.in(tf).run("validate", "-no-color");
        CliRunner.Result notInstalled = CliRunner.in(tf).run("validate", "-no-color");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(notInstalled.exitCode()).as(notInstalled.toString()).isEqualTo(missing.exitCode());
        assertThat(missing.stderr()).contains("Error: Module not installed");
        assertThat(notInstalled.stderr()).contains("Error: Module not installed");
    }

    private static List<String> files(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(n -> !n.isEmpty() && !n.startsWith(".strata") && !n.equals(".terraform.lock.hcl"))
                    .sorted()
                    .toList();
        }
    }
}
