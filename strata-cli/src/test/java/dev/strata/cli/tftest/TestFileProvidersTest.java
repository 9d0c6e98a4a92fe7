package dev.strata.cli.tftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.cli.CliRunner;
import dev.strata.lang.value.Value;
import dev.strata.testing.TestFiles;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test file's {@code provider} blocks configure the module's providers (replacing its own blocks),
 * and a run's {@code providers} attribute chooses which of them a run gets. Proven with the stand-in
 * test provider, whose data source reads {@code data_prefix/ID} from the store.
 */
class TestFileProvidersTest {
    @TempDir
    Path dir;

    @BeforeEach
    void store() throws Exception {
        TestProvider.STORE.clear();
        TestProvider.STORE.put("file/abc", Value.object(Map.of("value", Value.string("from the file's block"))));
        TestProvider.STORE.put("alias/abc", Value.object(Map.of("value", Value.string("from the alias"))));
        TestProvider.STORE.put("own/abc", Value.object(Map.of("value", Value.string("from main.tf"))));
        TestFiles.write(dir, "main.tf", """
                provider "test" {
                  data_prefix = "own"
                }
                data "test_data_source" "d" {
                  id = "abc"
                }
                output "value" {
                  value = data.test_data_source.d.value
                }
                """);
    }

    private CliRunner.Result test(String file) throws Exception {
        TestFiles.write(dir, "main.tftest.hcl", file);
        return CliRunner.in(dir).run("test", "-no-color");
    }

    @Test
    void fileProviderBlockReplacesTheConfigurationsOwn() throws Exception {
        CliRunner.Result r = test("""
                variables {
                  prefix = "file"
                }
                provider "test" {
                  data_prefix = var.prefix
                }
                run "read" {
                  command = plan
                  assert {
                    condition     = output.value == "from the file's block"
                    error_message = "read ${output.value}"
                  }
                }
                """);
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("Success! 1 passed, 0 failed."), r.stdout());
    }

    @Test
    void runProvidersAttributePassesAnAlias() throws Exception {
        CliRunner.Result r = test("""
                provider "test" {
                  data_prefix = "file"
                }
                provider "test" {
                  alias       = "other"
                  data_prefix = "alias"
                }
                run "aliased" {
                  command = plan
                  providers = {
                    test = test.other
                  }
                  assert {
                    condition     = output.value == "from the alias"
                    error_message = "read ${output.value}"
                  }
                }
                run "default" {
                  command = plan
                  assert {
                    condition     = output.value == "from the file's block"
                    error_message = "read ${output.value}"
                  }
                }
                """);
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("Success! 2 passed, 0 failed."), r.stdout());
    }

    @Test
    void providersAttributeNamingAnUndefinedProviderFailsTheRun() throws Exception {
        CliRunner.Result r = test("""
                run "bad" {
                  command = plan
                  providers = {
                    test = test.missing
                  }
                }
                """);
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stderr().contains("Error: Missing provider definition for test.missing"), r.stderr());
        assertTrue(
                r.stderr().contains("This provider block references a provider definition that does not exist."),
                r.stderr());
    }

    @Test
    void referenceToARunNotYetExecutedSkipsTheRun() throws Exception {
        CliRunner.Result r = test("""
                provider "test" {
                  data_prefix = run.later.value
                }
                run "first" {
                  command = plan
                }
                run "later" {
                  command = plan
                }
                """);
        assertEquals(1, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("  run \"first\"... skip"), r.stdout());
        assertTrue(r.stderr().contains("Error: Reference to unavailable run block"), r.stderr());
        assertTrue(r.stderr().contains("The run block \"later\" has not executed yet."), r.stderr());
    }
}
