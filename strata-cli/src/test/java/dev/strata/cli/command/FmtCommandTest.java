package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata fmt} end to end, on real files in a temporary directory. */
class FmtCommandTest {
    @TempDir
    Path dir;

    private void write(String name, String text) throws IOException {
        TestFiles.write(dir, name, text);
    }

    private String read(String name) throws IOException {
        return Files.readString(dir.resolve(name));
    }

    @Test
    void rewritesFilesAndListsThem() throws IOException {
        write("main.tf", "a=1\nbb = 2\n");
        write("ok.tf", "a = 1\n");
        write("vars.tfvars", "x  = 1\n");
        write("skip.tf.json", "{\"a\":1}");
        CliRunner.Result r = CliRunner.in(dir).run("fmt");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo("main.tf\nvars.tfvars\n");
        assertThat(read("main.tf")).isEqualTo("a  = 1\nbb = 2\n");
        assertThat(read("vars.tfvars")).isEqualTo("x = 1\n");
        assertThat(read("skip.tf.json")).isEqualTo("{\"a\":1}");
        assertThat(CliRunner.in(dir).run("fmt").stdout()).isEmpty();
    }

    @Test
    void checkExitsThreeAndWritesNothing() throws IOException {
        write("main.tf", "a=1\n");
        CliRunner.Result r = CliRunner.in(dir).run("fmt", "-check");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.stdout()).isEqualTo("main.tf\n");
        assertThat(read("main.tf")).isEqualTo("a=1\n");
        write("main.tf", "a = 1\n");
        assertThat(CliRunner.in(dir).run("fmt", "-check").exitCode()).isZero();
    }

    @Test
    void diffShowsAUnifiedDiff() throws IOException {
        write("main.tf", "a=1\nbb = 2\n");
        CliRunner.Result r = CliRunner.in(dir).run("fmt", "-list=false", "-write=false", "-diff");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo("--- old/main.tf\n+++ new/main.tf\n@@ -1,2 +1,2 @@\n-a=1\n+a  = 1\n bb = 2\n");
        assertThat(read("main.tf")).isEqualTo("a=1\nbb = 2\n");
    }

    @Test
    void standardInputToStandardOutput() {
        CliRunner.Result r = CliRunner.in(dir).stdin("q=1\n").run("fmt", "-");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo("q = 1\n");
        assertThat(CliRunner.in(dir).stdin("q=1\n").run("fmt", "-check", "-").exitCode())
                .isEqualTo(3);
    }

    @Test
    void syntaxErrorsAreDiagnosticsWithTheLocationAndTheFileIsLeftAlone() throws IOException {
        write("bad.tf", "resource \"a\" \"b\" {\n  x = \n}\n");
        write("good.tf", "a=1\n");
        CliRunner.Result r = CliRunner.in(dir).run("fmt", "-no-color");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr())
                .contains("Error: Invalid expression")
                .contains("on bad.tf line 2, in resource \"a\" \"b\":")
                .contains("   2:   x = ");
        assertThat(read("bad.tf")).isEqualTo("resource \"a\" \"b\" {\n  x = \n}\n");
        assertThat(read("good.tf")).isEqualTo("a = 1\n");
    }

    @Test
    void recursiveSkipsHiddenDirectoriesAndBadTargetsAreErrors() throws IOException {
        write("sub/s.tf", "y=1\n");
        write(".hidden/h.tf", "y=1\n");
        CliRunner.Result r = CliRunner.in(dir).run("fmt", "-recursive");
        assertThat(r.stdout()).isEqualTo("sub/s.tf\n");
        assertThat(read(".hidden/h.tf")).isEqualTo("y=1\n");
        CliRunner.Result missing = CliRunner.in(dir).run("fmt", "nope.tf");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.stderr()).contains("No file or directory at nope.tf");
        write("x.txt", "a=1\n");
        assertThat(CliRunner.in(dir).run("fmt", "x.txt").stderr())
                .contains(
                        "Only .tf, .tfvars, .tftest.hcl and Stacks (.tfcomponent.hcl, .tfstack.hcl, .tfdeploy.hcl) files "
                                + "can be processed");
    }

    @Test
    void formatsStacksFilesButNotTheirJsonForms() throws IOException {
        write("main.tfcomponent.hcl", "component \"a\" {\nsource=\"./x\"\n  inputs = {\n    a=1\n    bbb=2\n  }\n}\n");
        write("old.tfstack.hcl", "variable \"v\" {\ntype=string\n}\n");
        write("d.tfdeploy.hcl", "deployment \"d\" {\ninputs={a=1}\n}\n");
        write("j.tfcomponent.json", "{\"a\":1}");
        CliRunner.Result r = CliRunner.in(dir).run("fmt");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo("d.tfdeploy.hcl\nmain.tfcomponent.hcl\nold.tfstack.hcl\n");
        assertThat(read("main.tfcomponent.hcl"))
                .isEqualTo("component \"a\" {\n  source = \"./x\"\n  inputs = {\n    a   = 1\n    bbb = 2\n  }\n}\n");
        assertThat(read("d.tfdeploy.hcl")).isEqualTo("deployment \"d\" {\n  inputs = { a = 1 }\n}\n");
        assertThat(read("j.tfcomponent.json")).isEqualTo("{\"a\":1}");
        assertThat(CliRunner.in(dir)
                        .run("fmt", "-check", "main.tfcomponent.hcl")
                        .exitCode())
                .isZero();
    }

    /**
     * Terraform 1.11's fmt refuses Stacks files, but formats the same text in a .tf file: Strata's
     * result for a Stacks file is byte for byte terraform's for that text.
     */
    @Test
    void stacksFilesAreFormattedAsTerraformFormatsTheSameText() throws Exception {
        Path terraform = Terraform.assumeInstalled();
        String text = "required_providers {\naws = {\nsource = \"hashicorp/aws\"\nversion=\"~> 5.0\"\n}\n}\n"
                + "provider \"aws\" \"r\" {\n  for_each=var.regions\nconfig {\nregion=each.value\n}\n}\n"
                + "removed {\nfrom=component.old\nsource=\"./m\"\nlifecycle {\ndestroy=false\n}\n}\n";
        write("ours/main.tfcomponent.hcl", text);
        write("theirs/main.tf", text);
        assertThat(CliRunner.in(dir.resolve("ours")).run("fmt").exitCode()).isZero();
        ProcessResult tf =
                Terraform.at(terraform, dir.resolve("theirs")).mergeStderr().run("fmt");
        assertThat(tf.exitCode()).isZero();
        assertThat(read("ours/main.tfcomponent.hcl")).isEqualTo(read("theirs/main.tf"));
    }

    @Test
    void chdirAppliesToTargets() throws IOException {
        write("infra/main.tf", "a=1\n");
        CliRunner.Result r = CliRunner.in(dir).run("-chdir=infra", "fmt");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo("main.tf\n");
        assertThat(read("infra/main.tf")).isEqualTo("a = 1\n");
    }

    /** The perturbed corpus, formatted by us and by the real terraform binary: same files, same listing. */
    @Test
    void sameResultAsTerraformFmtOnThePerturbedCorpus() throws Exception {
        Path corpus = Path.of(System.getProperty("strata.shared.dir", "../../shared"), "corpus", "hcl-fmt-perturbed");
        assumeTrue(Files.isDirectory(corpus), "shared corpus not present");
        Path terraform = Terraform.assumeInstalled();
        Path ours = dir.resolve("ours");
        Path theirs = dir.resolve("theirs");
        copyTree(corpus, ours);
        copyTree(corpus, theirs);
        CliRunner.Result r = CliRunner.in(ours).run("fmt", "-recursive");
        ProcessResult tf = Terraform.at(terraform, theirs)
                .mergeStderr()
                .timeout(Duration.ofMinutes(2))
                .run("fmt", "-recursive");
        assertThat(r.exitCode()).isEqualTo(tf.exitCode());
        assertThat(r.stdout()).isEqualTo(tf.stdout());
        List<String> differing = new ArrayList<>();
        try (Stream<Path> files = Files.walk(theirs)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path mine = ours.resolve(theirs.relativize(f));
                if (!java.util.Arrays.equals(Files.readAllBytes(f), Files.readAllBytes(mine))) {
                    differing.add(theirs.relativize(f).toString());
                }
            }
        }
        assertThat(differing).isEmpty();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                    target.toFile().setWritable(true);
                }
            }
        }
    }
}
