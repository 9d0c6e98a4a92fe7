package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan -generate-config-out} against the real terraform 1.11 on {@code terraform_data}, which
 * imports offline: the generated file, the plan's text and exit code, and the refusals (an existing
 * file, a keyed target). Skipped where terraform is not on the PATH.
 */
class GenerateConfigDifferentialTest {
    private static final String UNCONFIGURED = """
            import {
              to = terraform_data.x
              id = "abc"
            }
            import {
              to = terraform_data.b
              id = "quote \\" and ${"$"}{x}"
            }
            """;

    @TempDir
    Path tf;

    @TempDir
    Path st;

    @Test
    void writesTheFileAndPlansTheImportsAsTerraformDoes() throws Exception {
        Terraform terraform = init(UNCONFIGURED);
        ProcessResult t = terraform.run("plan", "-no-color", "-generate-config-out=gen.tf");
        CliRunner.Result s = strata().run("plan", "-no-color", "-generate-config-out=gen.tf");
        assertThat(s.exitCode())
                .as(s + "\nterraform:\n" + t.stdout() + t.stderr())
                .isEqualTo(t.exitCode())
                .isZero();
        // Terraform writes the blocks in the order its concurrent walk finished them (it varies between runs);
        // Strata writes them sorted by address, so the blocks are compared as a set and Strata's order pinned.
        List<String> strataBlocks = blocks(Files.readString(st.resolve("gen.tf")));
        assertThat(strataBlocks).containsExactlyInAnyOrderElementsOf(blocks(Files.readString(tf.resolve("gen.tf"))));
        assertThat(strataBlocks.get(1)).contains("resource \"terraform_data\" \"b\"");
        assertThat(strataBlocks.get(2)).contains("resource \"terraform_data\" \"x\"");
        assertThat(text(s.stdout())).isEqualTo(text(t.stdout()));
        assertThat(text(s.stdout()))
                .contains("Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.")
                .contains("  # (config will be generated)");
        assertThat(text(s.stderr())).isEqualTo(text(t.stderr()));
    }

    /** At a terminal the plan ends by saying where the configuration went, as terraform does. */
    @Test
    void theNextStepNamesTheFile() throws Exception {
        init(UNCONFIGURED);
        CliRunner.Result s = CliRunner.in(st).run("plan", "-no-color", "-generate-config-out=gen.tf");
        assertThat(s.exitCode()).as(s.toString()).isZero();
        assertThat(text(s.stdout()))
                .contains("<tool> has generated configuration and written it to gen.tf. Please review the "
                        + "configuration and edit it as necessary before adding it to version control.");
    }

    @Test
    void anExistingFileIsRefusedAndKept() throws Exception {
        Terraform terraform = init(UNCONFIGURED);
        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("gen.tf"), "# mine\n");
        }
        ProcessResult t = terraform.run("plan", "-no-color", "-generate-config-out=gen.tf");
        CliRunner.Result s = strata().run("plan", "-no-color", "-generate-config-out=gen.tf");
        assertThat(s.exitCode()).as(s.toString()).isEqualTo(t.exitCode()).isEqualTo(1);
        assertThat(text(s.stderr())).isEqualTo(text(t.stderr()));
        assertThat(text(s.stderr())).contains("Error: Target generated file already exists");
        assertThat(text(s.stdout())).isEqualTo(text(t.stdout()));
        assertThat(Files.readString(st.resolve("gen.tf"))).isEqualTo("# mine\n");
    }

    @Test
    void aKeyedTargetIsRefusedAndNothingIsWritten() throws Exception {
        Terraform terraform = init("""
                import {
                  for_each = toset(["a"])
                  to       = terraform_data.x[each.key]
                  id       = each.key
                }
                """);
        ProcessResult t = terraform.run("plan", "-no-color", "-generate-config-out=gen.tf");
        CliRunner.Result s = strata().run("plan", "-no-color", "-generate-config-out=gen.tf");
        assertThat(s.exitCode()).as(s.toString()).isEqualTo(t.exitCode()).isEqualTo(1);
        assertThat(text(s.stderr())).isEqualTo(text(t.stderr()));
        assertThat(text(s.stderr())).contains("Error: Invalid import 'to' expression");
        assertThat(st.resolve("gen.tf")).doesNotExist();
        assertThat(tf.resolve("gen.tf")).doesNotExist();
    }

    /** Strata reads the generated blocks back from the configuration directory: a file elsewhere is refused. */
    @Test
    void aFileOutsideTheConfigurationDirectoryIsRefused() throws Exception {
        Files.writeString(st.resolve("main.tf"), UNCONFIGURED);
        for (String path : List.of("sub/gen.tf", "gen.txt")) {
            CliRunner.Result s = strata().run("plan", "-no-color", "-generate-config-out=" + path);
            assertThat(s.exitCode()).as(s.toString()).isEqualTo(1);
            assertThat(s.stderr())
                    .contains("Error: Invalid generated file location")
                    .contains(path);
        }
        assertThat(st.resolve("gen.txt")).doesNotExist();
        assertThat(st.resolve("sub")).doesNotExist();
    }

    /** Without the option the target's missing configuration is an error that suggests it. */
    @Test
    void withoutTheOptionNothingIsGenerated() throws Exception {
        init(UNCONFIGURED);
        CliRunner.Result s = strata().run("plan", "-no-color");
        assertThat(s.exitCode()).isEqualTo(1);
        assertThat(s.stderr()).contains("Configuration for import target does not exist");
        assertThat(st.resolve("gen.tf")).doesNotExist();
    }

    private Terraform init(String config) throws Exception {
        Terraform terraform = Terraform.in(tf);
        for (Path d : List.of(tf, st)) {
            Files.writeString(d.resolve("main.tf"), config);
        }
        terraform.ok("init", "-no-color");
        return terraform;
    }

    /** Comparable lines, without the progress lines (their order varies). */
    private static List<String> text(String out) {
        List<String> l = new java.util.ArrayList<>(ExamplesPlanDifferentialIT.comparable(out).stream()
                .filter(x -> !x.contains("Preparing import...") && !x.contains("Refreshing state..."))
                .map(x -> x.replaceAll("\\b(Terraform|Strata)\\b", "<tool>"))
                .toList());
        while (!l.isEmpty() && l.getLast().isBlank()) {
            l.removeLast();
        }
        return l;
    }

    /** The terraform fixture runs in automation, which leaves out the next step: so does Strata here. */
    private CliRunner strata() {
        return CliRunner.in(st).env("TF_IN_AUTOMATION", "1");
    }

    /** The file's header and each generated block, split at the blank lines between them. */
    private static List<String> blocks(String file) {
        return java.util.Arrays.stream(file.split("\n\n")).map(String::strip).toList();
    }
}
