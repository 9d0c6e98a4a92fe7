package dev.strata.cli.tftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import dev.strata.testing.TestFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code strata test} against the real {@code terraform test} on the PATH (skipped without it), on
 * configurations it runs offline ({@code terraform_data}): the same stdout, the same exit status and
 * the same error and warning summaries on stderr, in order.
 */
class TestCommandDifferentialTest {

    record Scenario(String name, Map<String, String> files, List<String> args) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String MAIN = """
            variable "input" {
              type    = string
              default = "bar"
              validation {
                condition     = var.input != "forbidden"
                error_message = "The input must not be forbidden."
              }
            }

            resource "terraform_data" "foo" {
              input = var.input
            }

            output "out" {
              value = terraform_data.foo.output
            }
            """;

    static Stream<Scenario> scenarios() {
        return Stream.of(
                new Scenario(
                        "pass, fail and run references", Map.of("main.tf", MAIN, "main.tftest.hcl", """
                                run "first" {
                                  assert {
                                    condition     = terraform_data.foo.input == "bar"
                                    error_message = "invalid value"
                                  }
                                }

                                run "second" {
                                  command = plan
                                  variables {
                                    input = "zap"
                                  }
                                  assert {
                                    condition     = terraform_data.foo.input == "bar"
                                    error_message = "invalid value"
                                  }
                                }

                                run "third" {
                                  assert {
                                    condition     = run.first.out == "bar" && output.out == "bar"
                                    error_message = "bad"
                                  }
                                }
                                """), List.of()),
                new Scenario("unknown in a plan", Map.of("main.tf", MAIN, "main.tftest.hcl", """
                                run "planned" {
                                  command = plan
                                  assert {
                                    condition     = terraform_data.foo.output == "bar"
                                    error_message = "unknown until applied"
                                  }
                                }
                                """), List.of()),
                new Scenario("expected failures", Map.of("main.tf", MAIN, "main.tftest.hcl", """
                                run "expected" {
                                  command = plan
                                  variables {
                                    input = "forbidden"
                                  }
                                  expect_failures = [var.input]
                                }

                                run "missing" {
                                  command = plan
                                  expect_failures = [var.input]
                                }
                                """), List.of()),
                new Scenario(
                        "files, directories, filter and -var",
                        Map.of(
                                "main.tf",
                                MAIN,
                                "a.tftest.hcl",
                                """
                                run "root_file" {
                                  assert {
                                    condition     = output.out == "cli"
                                    error_message = "-var did not reach the module"
                                  }
                                }
                                """,
                                "tests/b.tftest.hcl",
                                """
                                variables {
                                  input = "file"
                                }
                                run "in_tests" {
                                  assert {
                                    condition     = output.out == "file"
                                    error_message = "file variables did not win"
                                  }
                                }
                                """,
                                "tests/c.tftest.hcl",
                                """
                                run "filtered_out" {
                                  assert {
                                    condition     = output.out == "never"
                                    error_message = "this file is filtered out"
                                  }
                                }
                                """),
                        List.of("-var=input=cli", "-filter=a.tftest.hcl", "-filter=tests/b.tftest.hcl")),
                new Scenario(
                        "check blocks and overrides", Map.of("main.tf", MAIN + """

                                        check "value" {
                                          assert {
                                            condition     = terraform_data.foo.output == "bar"
                                            error_message = "the output is not bar"
                                          }
                                        }
                                        """, "main.tftest.hcl", """
                                override_resource {
                                  target = terraform_data.foo
                                  values = {
                                    output = "overridden"
                                  }
                                }

                                run "overridden" {
                                  assert {
                                    condition     = output.out == "overridden"
                                    error_message = "override not used"
                                  }
                                }
                                """), List.of()),
                new Scenario(
                        "undeclared run variables and a missing expected failure",
                        Map.of("main.tf", MAIN, "main.tftest.hcl", """
                                variables {
                                  file_level = 1
                                }
                                run "warned" {
                                  variables {
                                    nope = 1
                                    used = "x"
                                  }
                                  assert {
                                    condition     = var.used == "x"
                                    error_message = "used"
                                  }
                                }
                                run "missing" {
                                  expect_failures = [var.input]
                                }
                                run "after" {}
                                """),
                        List.of()),
                // The cleanup destroys with the variables of the run that applied last, not the invalid ones
                // of a later plan.
                new Scenario(
                        "a later run's invalid variables", Map.of("main.tf", MAIN, "main.tftest.hcl", """
                                run "applied" {}
                                run "invalid" {
                                  command = plan
                                  variables {
                                    input = "forbidden"
                                  }
                                }
                                """), List.of()),
                new Scenario("no test files", Map.of("main.tf", MAIN), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void sameAsTerraform(Scenario s, @TempDir Path tf, @TempDir Path strata) throws Exception {
        Terraform.assumeInstalled();
        for (var e : s.files().entrySet()) {
            TestFiles.write(tf, e.getKey(), e.getValue());
            TestFiles.write(strata, e.getKey(), e.getValue());
        }
        Terraform.in(tf).ok("init", "-input=false", "-no-color");
        List<String> args = new ArrayList<>(List.of("test", "-no-color"));
        args.addAll(s.args());
        ProcessResult want = Terraform.in(tf).run(args.toArray(String[]::new));
        CliRunner.Result got = CliRunner.in(strata).run(args.toArray(String[]::new));
        assertEquals(want.stdout(), got.stdout(), "stdout");
        assertEquals(want.exitCode(), got.exitCode(), "exit status");
        assertEquals(summaries(want.stderr()), summaries(got.stderr()), "stderr summaries");
    }

    /** The expression values under failed and invalid conditions: the same lines as terraform's. */
    @org.junit.jupiter.api.Test
    void assertionValuesAsTerraform(@TempDir Path tf, @TempDir Path strata) throws Exception {
        Terraform.assumeInstalled();
        Map<String, String> files = Map.of("main.tf", MAIN, "main.tftest.hcl", """
                variables {
                  tags  = { a = 1, b = "two" }
                  names = ["x", "y"]
                  empty = []
                  none  = null
                  num   = 5
                }
                run "failing" {
                  assert {
                    condition     = output.out == "zap" || length(var.tags) > 3 || var.names[1] == "z" || length(var.empty) > 0 || var.none != null || var.num == 2 || terraform_data.foo.input == "q"
                    error_message = "bad"
                  }
                }
                run "not_a_bool" {
                  assert {
                    condition     = output.out
                    error_message = "not a bool"
                  }
                }
                """);
        for (var e : files.entrySet()) {
            TestFiles.write(tf, e.getKey(), e.getValue());
            TestFiles.write(strata, e.getKey(), e.getValue());
        }
        Terraform.in(tf).ok("init", "-input=false", "-no-color");
        ProcessResult want = Terraform.in(tf).run("test", "-no-color");
        CliRunner.Result got = CliRunner.in(strata).run("test", "-no-color");
        assertEquals(want.stdout(), got.stdout(), "stdout");
        assertEquals(summaries(want.stderr()), summaries(got.stderr()), "stderr summaries");
        List<String> values = valueLines(want.stderr());
        assertTrue(values.contains("    │ var.names[1] is \"y\""), want.stderr());
        assertEquals(values, valueLines(got.stderr()), "expression values");
    }

    private static List<String> valueLines(String stderr) {
        return stderr.lines()
                .filter(l -> l.startsWith("    ├") || l.startsWith("    │ "))
                .toList();
    }

    private static final Pattern SUMMARY = Pattern.compile("^(?:│ )?(Error|Warning): (.*)$", Pattern.MULTILINE);

    /** The diagnostics' summaries, in order (the CLI configuration warning of terraform's left out). */
    static List<String> summaries(String stderr) {
        List<String> out = new ArrayList<>();
        Matcher m = SUMMARY.matcher(stderr);
        while (m.find()) {
            if (!m.group(2).startsWith("Unable to open CLI configuration file")) {
                out.add(m.group(1) + ": " + m.group(2));
            }
        }
        return out;
    }
}
