package dev.strata.tfplugin.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI configuration's host and credentials blocks, which module installation reads. */
class CliConfigHostsTest {
    @TempDir
    Path dir;

    private static Result<CliConfig.Hosts> parse(String text, String name) {
        return CliConfig.parseHosts(text.getBytes(StandardCharsets.UTF_8), name);
    }

    @Test
    void hostServicesAndCredentialsAreReadBesideTheOtherSettings() {
        Result<CliConfig.Hosts> r = parse("""
                plugin_cache_dir = "/tmp/cache"
                provider_installation {
                  dev_overrides {
                    "hashicorp/aws" = "/build"
                  }
                  direct {}
                }
                host "Registry.Example.com" {
                  services = {
                    "modules.v1" = "http://127.0.0.1:8080/v1/modules/"
                  }
                }
                credentials "registry.example.com" {
                  token = "s3cr3t"
                }
                disable_checkpoint = true
                """, "cli.tfrc");
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value().services())
                .isEqualTo(Map.of("registry.example.com", Map.of("modules.v1", "http://127.0.0.1:8080/v1/modules/")));
        assertThat(r.value().credentials()).isEqualTo(Map.of("registry.example.com", "s3cr3t"));
        assertThat(r.value().toString()).doesNotContain("s3cr3t");
    }

    @Test
    void jsonSyntaxAndAMalformedServicesArgument() {
        Result<CliConfig.Hosts> json = parse("""
                {"host": {"example.com": {"services": {"modules.v1": "https://example.com/m/"}}},
                 "credentials": {"example.com": {"token": "t"}}}
                """, "cli.tfrc.json");
        assertThat(json.diagnostics().asList()).isEmpty();
        assertThat(json.value().services().get("example.com")).containsEntry("modules.v1", "https://example.com/m/");
        assertThat(json.value().credentials()).containsEntry("example.com", "t");

        Result<CliConfig.Hosts> bad = parse("host \"example.com\" {\n  services = \"x\"\n}\n", "cli.tfrc");
        assertThat(bad.diagnostics().asList()).extracting(Diagnostic::summary).containsExactly("Invalid services");
        assertThat(bad.diagnostics().asList().getFirst().subject().start().line())
                .isEqualTo(2);
    }

    @Test
    void theFileTfCliConfigFileNamesIsRead() throws Exception {
        Path f = dir.resolve("x.tfrc");
        Files.writeString(f, "credentials \"example.com\" {\n  token = \"abc\"\n}\n");
        assertThat(CliConfig.loadHosts(Map.of("TF_CLI_CONFIG_FILE", f.toString()), dir)
                        .value()
                        .credentials())
                .containsEntry("example.com", "abc");
        assertThat(CliConfig.loadHosts(Map.of(), dir).value().credentials()).isEmpty();
    }
}
