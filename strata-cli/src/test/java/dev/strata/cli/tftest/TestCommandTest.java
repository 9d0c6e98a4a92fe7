package dev.strata.cli.tftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.TestFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata test}'s machine-readable outputs, mocks and argument errors, through the CLI. */
class TestCommandTest {
    @TempDir
    Path dir;

    @BeforeEach
    void config() throws Exception {
        TestFiles.write(dir, "main.tf", """
                resource "terraform_data" "foo" {
                  input = "bar"
                }
                output "out" {
                  value = terraform_data.foo.output
                }
                """);
        TestFiles.write(dir, "main.tftest.hcl", """
                run "good" {
                  assert {
                    condition     = output.out == "bar"
                    error_message = "not bar"
                  }
                }
                run "bad" {
                  assert {
                    condition     = output.out == "zap"
                    error_message = "not zap"
                  }
                }
                """);
    }

    @Test
    void jsonStreamHasTerraformsMessageTypes() throws Exception {
        CliRunner.Result r = CliRunner.in(dir).run("test", "-json");
        assertEquals(1, r.exitCode(), r.toString());
        List<String> types = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : r.stdout().split("\n")) {
            JsonNode n = json.readTree(line);
            types.add(n.get("type").asText());
            messages.add(n.get("@message").asText());
        }
        assertEquals(
                List.of(
                        "version",
                        "test_abstract",
                        "test_file",
                        "test_run",
                        "test_run",
                        "diagnostic",
                        "test_file",
                        "test_file",
                        "test_summary"),
                types);
        assertEquals("Found 1 file and 2 run blocks", messages.get(1));
        assertEquals("  \"bad\"... fail", messages.get(4));
        assertEquals("Error: Test assertion failed", messages.get(5));
        assertEquals("Failure! 1 passed, 1 failed.", messages.get(8));
        // The failed assertion's snippet, with the values of its references, as terraform test -json has it.
        JsonNode snippet =
                json.readTree(r.stdout().split("\n")[5]).get("diagnostic").get("snippet");
        assertEquals("run \"bad\"", snippet.get("context").asText());
        assertEquals(
                "    condition     = output.out == \"zap\"", snippet.get("code").asText());
        assertEquals(9, snippet.get("start_line").asInt());
        assertEquals(20, snippet.get("highlight_start_offset").asInt());
        assertEquals(39, snippet.get("highlight_end_offset").asInt());
        assertEquals("output.out", snippet.get("values").get(0).get("traversal").asText());
        assertEquals("is \"bar\"", snippet.get("values").get(0).get("statement").asText());
    }

    @Test
    void failedAssertionShowsTheValuesOfItsReferences() throws Exception {
        TestFiles.write(dir, "main.tftest.hcl", """
                variables {
                  tags  = { a = 1, b = "two" }
                  names = ["x"]
                  empty = []
                }
                run "bad" {
                  assert {
                    condition     = output.out == "zap" && length(var.tags) > 3 && length(var.names) > 1 && length(var.empty) > 0 && output.out != null
                    error_message = "not zap"
                  }
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color");
        assertEquals(1, r.exitCode(), r.toString());
        // As terraform test 1.11 prints it: references in name order, each once, under the snippet.
        assertTrue(r.stderr().contains("""
                                    ├────────────────
                                    │ output.out is "bar"
                                    │ var.empty is empty tuple
                                    │ var.names is tuple with 1 element
                                    │ var.tags is object with 2 attributes

                                not zap
                                """), r.stderr());
    }

    @Test
    void conditionThatIsNotABoolIsAnInvalidConditionRun() throws Exception {
        TestFiles.write(dir, "main.tftest.hcl", """
                run "one" {
                  assert {
                    condition     = output.out
                    error_message = "not a bool"
                  }
                }
                run "two" {}
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color");
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("  run \"one\"... fail\n  run \"two\"... skip\n"), r.stdout());
        assertTrue(r.stderr().contains("Error: Invalid condition run\n"), r.stderr());
        assertTrue(r.stderr().contains("""
                                    ├────────────────
                                    │ output.out is "bar"

                                Invalid condition run value: a bool is required.
                                """), r.stderr());
    }

    @Test
    void junitReportHasOneCasePerRun() throws Exception {
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color", "-junit-xml=report.xml");
        assertEquals(1, r.exitCode(), r.toString());
        String xml = Files.readString(dir.resolve("report.xml"));
        assertTrue(
                xml.contains(
                        "<testsuite name=\"main.tftest.hcl\" tests=\"2\" skipped=\"0\" failures=\"1\" errors=\"0\">"),
                xml);
        // As Terraform writes it: each case timed, the failure with its message and rendered errors.
        String redacted = xml.replaceAll("time=\"[0-9.]+\" timestamp=\"[0-9T:-]+Z\"", "time=\"T\" timestamp=\"TS\"");
        assertTrue(
                redacted.contains("<testcase name=\"good\" classname=\"main.tftest.hcl\" time=\"T\" timestamp=\"TS\">"
                        + "</testcase>"),
                xml);
        assertTrue(redacted.contains("""
                    <testcase name="bad" classname="main.tftest.hcl" time="T" timestamp="TS">
                      <failure message="1 of 1 assertions failed: not zap"><![CDATA[
                Error: Test assertion failed

                  on main.tftest.hcl line 9, in run "bad":
                   9:     condition     = output.out == "zap"
                    ├────────────────
                    │ Diff:
                    │ --- actual
                    │ +++ expected
                    │ - "bar"
                    │ + "zap"


                not zap
                ]]></failure>
                    </testcase>"""), xml);
        assertTrue(xml.endsWith("</testsuites>"), xml);
    }

    @Test
    void junitReportNamesTheErrorThatSkippedARunAndKeepsWarningsApart() throws Exception {
        TestFiles.write(dir, "main.tftest.hcl", """
                run "broken" {
                  expect_failures = [output.out]
                }
                run "after" {}
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color", "-junit-xml=report.xml");
        assertEquals(1, r.exitCode(), r.toString());
        String xml = Files.readString(dir.resolve("report.xml"));
        assertTrue(
                xml.contains(
                        "<testsuite name=\"main.tftest.hcl\" tests=\"2\" skipped=\"1\" failures=\"0\" errors=\"1\">"),
                xml);
        assertTrue(
                xml.contains("<error message=\"Encountered an error\"><![CDATA[\nError: Missing expected failure"),
                xml);
        assertTrue(xml.contains("""
                    <testcase name="after" classname="main.tftest.hcl">
                      <skipped message="Testcase skipped due to a previous testcase error"><![CDATA[Previous testcase \
                "broken" ended in error, which caused the remaining tests in the file to be skipped]]></skipped>
                    </testcase>"""), xml);
    }

    @Test
    void missingExpectedFailureIsAnErrorThatSkipsTheRestOfTheFile() throws Exception {
        // terraform test 1.11: the run's status is "error", and the runs after it are skipped.
        TestFiles.write(dir, "main.tftest.hcl", """
                run "broken" {
                  expect_failures = [output.out]
                }
                run "after" {}
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color");
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("  run \"broken\"... fail\n  run \"after\"... skip\n"), r.stdout());
        CliRunner.Result json = CliRunner.in(dir).run("test", "-json");
        assertTrue(
                json.stdout().contains("\"run\":\"broken\",\"progress\":\"complete\",\"status\":\"error\""),
                json.stdout());
    }

    /** As terraform 1.11: the state is destroyed with the variables of the run that applied to it last. */
    @Test
    void aLaterRunsInvalidVariablesDoNotStopTheCleanup() throws Exception {
        TestFiles.write(dir, "main.tf", """
                variable "n" {
                  default = 1
                  validation {
                    condition     = var.n < 10
                    error_message = "n must be below 10"
                  }
                }
                resource "terraform_data" "foo" {
                  input = var.n
                }
                """);
        TestFiles.write(dir, "main.tftest.hcl", """
                run "applied" {}
                run "invalid" {
                  command = plan
                  variables {
                    n = 12
                  }
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color");
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("  run \"applied\"... pass\n  run \"invalid\"... fail\n"), r.stdout());
        assertTrue(r.stdout().contains("main.tftest.hcl... tearing down\nmain.tftest.hcl... fail\n"), r.stdout());
        assertFalse((r.stdout() + r.stderr()).contains("cleaned up manually"), r.toString());
    }

    /** terraform test 1.11's words for a required variable without a value: they name the run. */
    @Test
    void aRequiredVariableWithoutAValueNamesTheRun() throws Exception {
        TestFiles.write(dir, "main.tf", """
                variable "prefix" {
                  type = string
                }
                resource "terraform_data" "foo" {
                  input = var.prefix
                }
                """);
        TestFiles.write(dir, "main.tftest.hcl", """
                run "missing_var" {
                  command = plan
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color");
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(
                r.stderr()
                        .contains("The module under test for run block \"missing_var\" has a required variable\n"
                                + "\"prefix\" with no set value. Use a -var or -var-file command line argument or\n"
                                + "add this variable into a \"variables\" block within the test file or run block."),
                r.stderr());
    }

    @Test
    void mockProviderOpensEphemeralResourcesWithGeneratedValues() throws Exception {
        TestFiles.write(dir, "main.tf", """
                ephemeral "test_ephemeral_resource" "e" {}
                output "secret" {
                  value     = ephemeral.test_ephemeral_resource.e.value
                  ephemeral = true
                }
                """);
        TestFiles.write(dir, "main.tftest.hcl", """
                mock_provider "test" {}
                run "mocked" {
                  assert {
                    condition     = output.secret != "bar" && length(output.secret) == 8
                    error_message = "not a generated value"
                  }
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color");
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("1 passed, 0 failed."), r.stdout());
    }

    @Test
    void junitReportThatCannotBeWrittenIsAnError() {
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color", "-junit-xml=missing/dir/report.xml");
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stderr().contains("Error: Failed to write JUnit XML file"), r.stderr());
        assertTrue(r.stderr().contains("missing/dir/report.xml"), r.stderr());
    }

    @Test
    void mockProviderGeneratesComputedValuesAndDefaults() throws Exception {
        TestFiles.write(dir, "main.tftest.hcl", """
                mock_provider "terraform" {}
                run "generated" {
                  assert {
                    condition     = length(terraform_data.foo.id) == 8
                    error_message = "no generated id"
                  }
                }
                run "overridden" {
                  override_resource {
                    target = terraform_data.foo
                    values = {
                      id = "fixed-id"
                    }
                  }
                  state_key = "other"
                  assert {
                    condition     = terraform_data.foo.id == "fixed-id"
                    error_message = "override not used"
                  }
                }
                run "planned" {
                  command = plan
                  assert {
                    condition     = terraform_data.foo.id == run.generated.out_id
                    error_message = "the state keeps the generated id"
                  }
                }
                """);
        TestFiles.write(dir, "outputs.tf", """
                output "out_id" {
                  value = terraform_data.foo.id
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color");
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("Success! 3 passed, 0 failed."), r.stdout());
    }

    @Test
    void verboseShowsTheStateAfterAnApplyAndThePlanAfterAPlan() throws Exception {
        TestFiles.write(dir, "main.tftest.hcl", """
                run "applied" {}
                run "planned" {
                  command = plan
                  variables {}
                }
                """);
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color", "-verbose");
        assertEquals(0, r.exitCode(), r.toString());
        String out = r.stdout();
        int applied = out.indexOf(
                "  run \"applied\"... pass\n\n# terraform_data.foo:\nresource \"terraform_data\" \"foo\" {");
        int planned =
                out.indexOf("  run \"planned\"... pass\n\nNo changes. Your infrastructure matches the configuration.");
        assertTrue(applied >= 0 && planned > applied, out);
    }

    @Test
    void testDirectoryOutsideTheConfigurationIsRefused() {
        CliRunner.Result r = CliRunner.in(dir).run("test", "-no-color", "-test-directory=../elsewhere");
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stderr().contains("Error: Invalid testing directory"), r.stderr());
    }
}
