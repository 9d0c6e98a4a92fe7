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

    /**
     * A module that cannot be installed: as terraform, the backend is set up first (and recorded), then the
     * modules' section reports the failure; exit 1.
     */
    @Test
    void aModuleThatFailsComesAfterTheBackendIsSetUp() throws Exception {
        String config = "terraform {\n  backend \"local\" {\n    path = \"s/x.tfstate\"\n  }\n}\n"
                + "module \"g\" {\n  source = \"git::file://" + repo.resolve("nope") + "\"\n}\n";
        for (Path d : new Path[] {tf, st}) {
            Files.writeString(d.resolve("main.tf"), config);
        }
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        String head = "Initializing the backend...\n\nSuccessfully configured the backend \"local\"! <tool> will "
                + "automatically\nuse this backend unless the backend configuration changes.\nInitializing modules...\n";
        assertThat(neutral(theirs.stdout())).startsWith(head);
        assertThat(neutral(ours.stdout())).startsWith(head);
        assertThat(neutral(ours.stderr()))
                .isEqualTo(neutral(theirs.stderr()))
                .contains("Error: Failed to download module", "on main.tf line 6:\n   6: module \"g\" {\n");
        assertThat(tf.resolve(".terraform/terraform.tfstate")).exists();
        assertThat(st.resolve(".terraform/terraform.tfstate")).exists();
        // The backend is set up already: a second run does not configure it again.
        assertThat(CliRunner.in(st).run("init", "-no-color").stdout()).doesNotContain("Successfully configured");
    }

    /**
     * A module whose download fails is listed as downloading, in the tree's order with the others, and its
     * error follows; the output ends with the errors (no closing line), exit 1, as terraform 1.11.
     */
    @Test
    void aFailedDownloadIsListedThenReportedAndEndsTheOutput() throws Exception {
        String config = "module \"a\" {\n  source = \"git::file://" + repo.resolve("nope") + "\"\n}\n"
                + "module \"b\" {\n  source = \"./l\"\n}\n";
        for (Path d : new Path[] {tf, st}) {
            Files.createDirectories(d.resolve("l"));
            Files.writeString(d.resolve("l/main.tf"), "output \"y\" {\n  value = 2\n}\n");
            Files.writeString(d.resolve("main.tf"), config);
        }
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        String listing = "Initializing the backend...\nInitializing modules...\nDownloading git::file://"
                + repo.resolve("nope") + " for a...\n- b in l\n";
        assertThat(theirs.stdout()).isEqualTo(listing);
        assertThat(ours.stdout()).isEqualTo(listing);
        // The last error's detail ends both outputs: git's output, with its own line end.
        assertThat(theirs.stderr()).contains("Error: Failed to download module").endsWith("exists.\n\n");
        assertThat(neutral(ours.stderr()))
                .isEqualTo(neutral(theirs.stderr()))
                .contains("on main.tf line 1:\n   1: module \"a\" {\n")
                .doesNotContain("initialized");
        assertThat(ours.stderr().lines().filter(l -> l.startsWith("Error:"))).hasSize(1);
    }

    /**
     * A root module that does not parse: its modules are still installed and listed, then terraform's note
     * that the configuration must be valid, then the problem; exit 1.
     */
    @Test
    void anInvalidRootModuleIsReportedAfterTheNoteThatInitNeedsAValidConfiguration() throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.createDirectories(d.resolve("m"));
            Files.writeString(d.resolve("m/main.tf"), "output \"y\" {\n  value = 2\n}\n");
            Files.writeString(
                    d.resolve("main.tf"),
                    "module \"m\" {\n  source = \"./m\"\n}\nresource \"terraform_data\" \"x\" {\n  input = \n}\n");
        }
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(neutral(ours.stdout()))
                .isEqualTo(neutral(theirs.stdout()))
                .isEqualTo("Initializing the backend...\nInitializing modules...\n- m in m\n");
        String note =
                neutral(theirs.stderr()).substring(0, neutral(theirs.stderr()).indexOf("Error: Invalid expression"));
        assertThat(note).startsWith("\nError: <tool> encountered problems during initialisation");
        // The note's summary and detail break where terraform's do (its own line breaks; summaries never wrap).
        assertThat(neutral(ours.stderr())).startsWith(note + "Error: Invalid expression");
        assertThat(ours.stderr()).contains("on main.tf line 5, in resource \"terraform_data\" \"x\":");
    }

    /** A failed init because of the backend block: the error is the last thing printed, exit 1. */
    @Test
    void aBadBackendBlockEndsWithItsError() throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.writeString(d.resolve("main.tf"), "terraform {\n  backend \"local\" {\n    nope = \"x\"\n  }\n}\n");
        }
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
        assertThat(ours.exitCode())
                .as(ours.toString())
                .isEqualTo(theirs.exitCode())
                .isEqualTo(1);
        assertThat(neutral(ours.stdout()))
                .isEqualTo(neutral(theirs.stdout()))
                .isEqualTo("Initializing the backend...\n");
        assertThat(theirs.stderr())
                .endsWith("\n   3:     nope = \"x\"\n\nAn argument named \"nope\" is not expected here.\n");
        assertThat(ours.stderr()).isEqualTo(theirs.stderr());
    }

    /** The closing paragraph is terraform's, naming Strata and its commands in the same lines. */
    @Test
    void theClosingParagraphIsTerraforms() throws Exception {
        for (Path d : new Path[] {tf, st}) {
            Files.writeString(d.resolve("main.tf"), "resource \"terraform_data\" \"a\" {}\n");
        }
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
        assertThat(ours.exitCode()).isEqualTo(theirs.exitCode()).isZero();
        String tail =
                neutral(theirs.stdout()).substring(neutral(theirs.stdout()).indexOf("<tool> has been"));
        assertThat(neutral(ours.stdout())).endsWith(tail);
        assertThat(ours.stdout().substring(ours.stdout().indexOf("Strata has been")))
                .contains("Try running \"strata plan\" to see\n")
                .contains("All Strata commands\nshould now work.")
                .doesNotContain("erraform");
        // Under TF_IN_AUTOMATION only the first line, in both.
        AwsExamples.Run auto =
                AwsExamples.terraform(terraform, tf, cliConfig, Map.of("TF_IN_AUTOMATION", "1"), "init", "-no-color");
        CliRunner.Result mine = CliRunner.in(st).env("TF_IN_AUTOMATION", "1").run("init", "-no-color");
        assertThat(neutral(mine.stdout())).endsWith("\n\n<tool> has been successfully initialized!\n");
        assertThat(neutral(auto.stdout())).endsWith("\n\n<tool> has been successfully initialized!\n");
    }

    /** A directory without configuration: terraform's two paragraphs, nothing set up, exit 0. */
    @Test
    void anEmptyDirectoryIsSaidToBeEmpty() throws Exception {
        AwsExamples.Run theirs = AwsExamples.terraform(terraform, tf, cliConfig, "init", "-no-color");
        CliRunner.Result ours = CliRunner.in(st).run("init", "-no-color");
        assertThat(ours.exitCode()).isEqualTo(theirs.exitCode()).isZero();
        assertThat(neutral(ours.stdout()))
                .isEqualTo(neutral(theirs.stdout()))
                .startsWith("<tool> initialized in an empty directory!\n");
        assertThat(ours.stdout()).doesNotContain("erraform");
        assertThat(st.resolve(".strata")).doesNotExist();
        assertThat(st.resolve(".terraform")).doesNotExist();
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

    private static String neutral(String text) {
        // Each tool's own data directory, where git clones a module ("Cloning into '.strata/modules/a'...").
        return text.replaceAll("\\b(Terraform|Strata)\\b", "<tool>")
                .replaceAll("'\\.(terraform|strata)/modules/", "'<data>/modules/")
                .replaceAll("\\b(terraform|strata) (plan|init)\\b", "<tool> $2");
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
