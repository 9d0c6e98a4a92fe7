package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code console -plan} against {@code terraform console -plan}: expressions evaluated in the root module as
 * a new plan leaves it (a state of two applied instances, a plan for three), references the configuration
 * does not declare, and a plan that fails. Skipped when {@code terraform} is not on the PATH.
 */
class ConsolePlanDifferentialTest {
    private static final String CONFIG = """
            variable "n" {
              default = 2
            }
            resource "terraform_data" "a" {
              count = var.n
              input = "in-${count.index}"
            }
            module "m" {
              source = "./mod"
              v      = terraform_data.a[0].input
            }
            locals {
              l = [for x in terraform_data.a : x.input]
            }
            output "o" {
              value = module.m.out
            }
            """;

    @TempDir
    static Path root;

    static Path theirs;
    static Path ours;

    @BeforeAll
    static void applyTwo() throws Exception {
        Optional<Path> terraform = Terraform.find();
        assumeTrue(terraform.isPresent(), "terraform is not on the PATH");
        theirs = Files.createDirectories(root.resolve("tf"));
        ours = Files.createDirectories(root.resolve("st"));
        for (Path d : List.of(theirs, ours)) {
            Files.writeString(d.resolve("main.tf"), CONFIG);
            Files.createDirectories(d.resolve("mod"));
            Files.writeString(
                    d.resolve("mod/main.tf"), "variable \"v\" {}\noutput \"out\" {\n  value = upper(var.v)\n}\n");
        }
        terraform(terraform.get(), "init", "-input=false").ok();
        terraform(terraform.get(), "apply", "-auto-approve", "-input=false").ok();
        assertThat(CliRunner.in(ours).run("init").exitCode()).isZero();
        assertThat(CliRunner.in(ours)
                        .run("apply", "-auto-approve", "-input=false")
                        .exitCode())
                .isZero();
    }

    private record Run(int exit, String stdout) {
        void ok() {
            assertThat(exit).as(stdout).isZero();
        }
    }

    private static Run terraform(Path exe, String... args) throws IOException, InterruptedException {
        ProcessResult r =
                Terraform.at(exe, theirs).timeout(Duration.ofMinutes(2)).run(args);
        return new Run(r.exitCode(), r.stdout());
    }

    static List<String> expressions() {
        return List.of(
                "terraform_data.a[0].input",
                "length(terraform_data.a[1].id)",
                "terraform_data.a[2].id",
                "terraform_data.a[2]",
                "local.l",
                "module.m.out",
                "length(terraform_data.a)",
                "var.n",
                "path.module",
                "terraform.workspace");
    }

    static List<String> errors() {
        return List.of(
                "output.o",
                "count.index",
                "each.key",
                "self",
                "var.nope",
                "local.nope",
                "module.nope.x",
                "terraform_data.nope",
                "data.x.y",
                "plantimestamp()");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expressions")
    void sameValueAsTerraform(String expr) throws Exception {
        ConsoleComparison.sameValue(theirs, ours, expr, "-plan", "-var", "n=3");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void sameErrorAsTerraform(String expr) throws Exception {
        ConsoleComparison.sameError(theirs, ours, expr, "-plan");
    }

    /** A plan that fails still leaves a console, after its errors and a warning, as in Terraform. */
    @Test
    void aFailedPlanStillEvaluates() throws Exception {
        ProcessResult want = Terraform.at(Terraform.find().orElseThrow(), theirs)
                .stdin("1 + 1\n")
                .timeout(Duration.ofMinutes(1))
                .run("console", "-no-color", "-plan", "-var", "n=x");
        CliRunner.Result got = CliRunner.in(ours).stdin("1 + 1\n").run("console", "-plan", "-var", "n=x");
        assertThat(got.exitCode()).as(got.toString()).isEqualTo(want.exitCode()).isZero();
        // As Terraform's, the warning is on standard output, before the value; the error on standard error.
        assertThat(got.stdout())
                .isEqualTo(want.stdout())
                .startsWith("\nWarning: Due to the problems above, some expressions may produce unexpected results.")
                .endsWith("\n2\n");
        assertThat(got.stderr()).isEqualTo(want.stderr()).contains("var.n is \"x\"");
    }

    /** The console holds the state lock while it runs, and gives it back. */
    @Test
    void theLockIsReleased() {
        CliRunner.Result got = CliRunner.in(ours).stdin("1\n").run("console", "-plan");
        assertThat(got.exitCode()).as(got.toString()).isZero();
        assertThat(ours.resolve(".terraform.tfstate.lock.info")).doesNotExist();
    }
}
