package dev.strata.tfplugin.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The string arguments of the CLI configuration and the lock file: constant expressions, built-in functions. */
class ConstantArgumentsTest {
    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void stringArgumentsMayCallBuiltInFunctions() {
        Result<CliConfig> cli = CliConfig.parse(bytes("plugin_cache_dir = lower(\"/TMP/Cache\")\n"), "cli.tfrc");
        assertThat(cli.diagnostics().asList()).isEmpty();
        assertThat(cli.value().pluginCacheDir())
                .hasValueSatisfying(p -> assertThat(p).hasToString("/tmp/cache"));

        Result<LockFile> lock = LockFile.parse(bytes("""
                provider "registry.terraform.io/hashicorp/aws" {
                  version     = join(".", ["5", "100", "0"])
                  constraints = ">= 5.0"
                }
                """), LockFile.FILENAME);
        assertThat(lock.diagnostics().asList()).isEmpty();
        assertThat(lock.value().providers().values())
                .singleElement()
                .satisfies(e -> assertThat(e.version()).isEqualTo("5.100.0"));
    }

    @Test
    void anArgumentThatIsNotAStringIsReportedAtItsExpression() {
        Result<CliConfig> cli = CliConfig.parse(bytes("plugin_cache_dir = [\"/tmp\"]\n"), "cli.tfrc");
        assertThat(cli.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.summary()).isEqualTo("Invalid plugin_cache_dir");
            assertThat(d.detail()).isEqualTo("The \"plugin_cache_dir\" argument must be a string.");
            assertThat(d.subject().start().line()).isEqualTo(1);
            assertThat(d.subject().start().column()).isEqualTo(20);
        });

        Result<LockFile> lock = LockFile.parse(bytes("""
                provider "registry.terraform.io/hashicorp/aws" {
                  version     = "5.100.0"
                  constraints = null
                }
                """), LockFile.FILENAME);
        assertThat(lock.diagnostics().asList()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Invalid constraints");
            assertThat(d.detail()).isEqualTo("The \"constraints\" argument must be a string.");
            assertThat(d.subject().start().line()).isEqualTo(3);
        });
    }

    @Test
    void anEvaluationErrorIsReportedOnce() {
        Result<CliConfig> cli = CliConfig.parse(bytes("plugin_cache_dir = upper(1, 2)\n"), "cli.tfrc");
        assertThat(cli.diagnostics().asList())
                .singleElement()
                .satisfies(d -> assertThat(d.summary()).doesNotStartWith("Invalid plugin_cache_dir"));
    }
}
