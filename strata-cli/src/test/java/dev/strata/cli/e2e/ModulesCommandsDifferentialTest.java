package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code get} and {@code modules [-json]} against the real terraform 1.11 on the same configuration:
 * nested local modules, a counted call and a call of the same module twice. Exit codes and stdout are
 * compared; skipped where terraform is not on the PATH.
 */
class ModulesCommandsDifferentialTest {
    @TempDir
    Path tf;

    @TempDir
    Path st;

    private static void write(Path root) throws Exception {
        Files.createDirectories(root.resolve("mods/child/grand"));
        Files.createDirectories(root.resolve("mods/other"));
        Files.writeString(root.resolve("main.tf"), """
                module "child" {
                  source = "./mods/child"
                }
                module "many" {
                  source = "./mods/child"
                  count  = 2
                }
                module "b_other" {
                  source = "./mods/other"
                }
                """);
        Files.writeString(root.resolve("mods/child/main.tf"), """
                module "grand" {
                  source = "./grand"
                }
                module "again" {
                  source = "../other"
                }
                """);
        Files.writeString(root.resolve("mods/child/grand/main.tf"), "resource \"terraform_data\" \"g\" {}\n");
        Files.writeString(root.resolve("mods/other/main.tf"), "output \"x\" {\n  value = 1\n}\n");
    }

    @Test
    void getAndModulesMatchTerraform() throws Exception {
        Terraform terraform = Terraform.in(tf);
        write(tf);
        write(st);
        same(terraform, "get", "-no-color");
        same(terraform, "get", "-update");
        same(terraform, "modules");
        same(terraform, "modules", "-json");
    }

    @Test
    void aConfigurationWithoutModulesMatchesTerraform() throws Exception {
        Terraform terraform = Terraform.in(tf);
        Files.writeString(tf.resolve("main.tf"), "resource \"terraform_data\" \"a\" {}\n");
        Files.writeString(st.resolve("main.tf"), "resource \"terraform_data\" \"a\" {}\n");
        same(terraform, "get");
        same(terraform, "modules");
        same(terraform, "modules", "-json");
    }

    @Test
    void aMissingModuleDirectoryFailsAsInTerraform() throws Exception {
        Terraform terraform = Terraform.in(tf);
        String config = "module \"x\" {\n  source = \"./nope\"\n}\n";
        Files.writeString(tf.resolve("main.tf"), config);
        Files.writeString(st.resolve("main.tf"), config);
        ProcessResult t = terraform.run("get", "-no-color");
        CliRunner.Result s = CliRunner.in(st).run("get", "-no-color");
        assertThat(s.exitCode()).as(s.toString()).isEqualTo(t.exitCode()).isEqualTo(1);
        assertThat(s.stderr()).contains("Error: ").contains("nope");
    }

    private void same(Terraform terraform, String... args) throws Exception {
        ProcessResult t = terraform.run(args);
        CliRunner.Result s = CliRunner.in(st).run(args);
        String what = String.join(" ", args);
        assertThat(s.exitCode())
                .as(what + "\n" + s + "\nterraform:\n" + t.stdout() + t.stderr())
                .isEqualTo(t.exitCode())
                .isZero();
        if (args.length == 1 && args[0].equals("modules")) {
            // Terraform lists the children of a module in Go map order, which differs from run to run
            // (and between two calls of one module); Strata sorts them. The trees must hold the same
            // modules at the same depths.
            assertThat(treeLines(s.stdout())).as(what + "\n" + t.stdout()).isEqualTo(treeLines(t.stdout()));
        } else if (args.length == 2 && args[1].equals("-json") && !t.stdout().contains("\"modules\":null")) {
            // The same, in JSON: the list's order is Go map order in Terraform.
            assertThat(jsonModules(s.stdout())).as(what + "\n" + t.stdout()).isEqualTo(jsonModules(t.stdout()));
        } else {
            assertThat(s.stdout()).as(what).isEqualTo(t.stdout());
        }
    }

    /** The JSON document's modules, each as its text, sorted. */
    private static java.util.List<String> jsonModules(String json) throws java.io.IOException {
        var n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        java.util.List<String> out = new java.util.ArrayList<>();
        n.path("modules").forEach(m -> out.add(m.toString()));
        out.sort(null);
        out.add("format_version=" + n.path("format_version").asText());
        return out;
    }

    /** The tree's lines without their connectors, sorted: each module with its depth. */
    private static java.util.List<String> treeLines(String tree) {
        return tree.lines()
                .map(l -> l.replaceAll("[├└│─\u00a0]", " ").stripTrailing())
                .sorted()
                .toList();
    }
}
