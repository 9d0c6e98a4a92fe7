package dev.strata.config.tftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestFileDecoderTest {

    private static Result<TestFile> decode(String text, String name) {
        return TestFileDecoder.decode(text.getBytes(StandardCharsets.UTF_8), name);
    }

    private static List<String> summaries(Result<?> r) {
        return r.diagnostics().asList().stream().map(Diagnostic::summary).toList();
    }

    @Test
    void runsKeepTheirOrderCommandsModulesAndStateKeys() {
        Result<TestFile> r = decode("""
                variables {
                  a = 1
                }
                run "setup" {
                  module {
                    source = "./setup"
                  }
                }
                run "check" {
                  command = plan
                  state_key = "k"
                  plan_options {
                    mode    = refresh-only
                    refresh = false
                  }
                  expect_failures = [var.a]
                  assert {
                    condition     = var.a == 1
                    error_message = "a"
                  }
                }
                """, "main.tftest.hcl");
        assertFalse(r.hasErrors(), r.diagnostics().toString());
        TestFile f = r.value();
        assertEquals(
                List.of("setup", "check"),
                f.runs().stream().map(TestFile.Run::name).toList());
        assertEquals("./setup", f.runs().get(0).moduleSource());
        assertEquals("./setup", f.runs().get(0).stateKey());
        TestFile.Run check = f.runs().get(1);
        assertEquals(TestFile.Command.PLAN, check.command());
        assertEquals("k", check.stateKey());
        assertTrue(check.planOptions().refreshOnly());
        assertFalse(check.planOptions().refresh());
        assertEquals(1, check.expectFailures().size());
        assertEquals(1, check.asserts().size());
        assertTrue(f.variables().containsKey("a"));
    }

    @Test
    void badKeywordsAndDuplicateRunsAreErrors() {
        Result<TestFile> r = decode("""
                run "x" {
                  command = destroy
                }
                run "x" {}
                mock_provider "aws" {
                  override_during = later
                }
                """, "bad.tftest.hcl");
        assertEquals(
                List.of(
                        "Invalid \"command\" keyword",
                        "Duplicate \"run\" block names",
                        "Invalid override_during value"),
                summaries(r));
    }

    @Test
    void overrideValuesMustBeAnObjectAndAssertionsMustReferToSomething() {
        Result<TestFile> r = decode("""
                override_resource {
                  target = aws_instance.web
                  values = "no"
                }
                run "x" {
                  assert {
                    condition     = true
                    error_message = "constant"
                  }
                }
                """, "main.tftest.hcl");
        assertEquals(List.of("Invalid values attribute", "Invalid assert expression"), summaries(r));
        assertTrue(r.value().overrides().isEmpty());
    }

    @Test
    void jsonSyntaxDecodesTheSameBlocks() {
        Result<TestFile> r = decode("""
                {"run": {"only": {"command": "plan"}}}
                """, "main.tftest.json");
        assertFalse(r.hasErrors(), r.diagnostics().toString());
        assertEquals("only", r.value().runs().getFirst().name());
        assertNull(r.value().runs().getFirst().moduleSource());
    }
}
