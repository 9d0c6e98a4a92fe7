package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code get}, {@code modules} and {@code metadata functions} through the CLI, without terraform. */
class ModulesCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private void config() throws Exception {
        Files.createDirectories(dir.resolve("net/sub"));
        Files.writeString(dir.resolve("main.tf"), """
                module "z_net" {
                  source = "./net"
                }
                module "a_net" {
                  source = "./net"
                }
                """);
        Files.writeString(dir.resolve("net/main.tf"), "module \"sub\" {\n  source = \"./sub\"\n}\n");
        Files.writeString(dir.resolve("net/sub/main.tf"), "");
    }

    @Test
    void getListsEveryModuleAndWritesTheManifest() throws Exception {
        config();
        CliRunner.Result run = CliRunner.in(dir).run("get");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout()).isEqualTo("""
                        - a_net in net
                        - a_net.sub in net/sub
                        - z_net in net
                        - z_net.sub in net/sub
                        """);
        assertThat(Files.readString(dir.resolve(".strata/modules/modules.json")))
                .contains("a_net.sub");
    }

    @Test
    void getInstallsADirectoryModuleOnceUnlessUpdated() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("main.tf"), "output \"v\" {\n  value = 1\n}\n");
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.writeString(root.resolve("main.tf"), "module \"lib\" {\n  source = \"" + lib.toUri() + "\"\n}\n");
        CliRunner.Result first = CliRunner.in(root).run("get");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.stdout())
                .startsWith("Downloading " + lib.toUri() + " for lib...\n")
                .contains("- lib in .strata/modules/lib");
        CliRunner.Result again = CliRunner.in(root).run("get");
        // As terraform get: a module kept from the earlier run is not listed again.
        assertThat(again.stdout()).isEmpty();
        CliRunner.Result update = CliRunner.in(root).run("get", "-update");
        assertThat(update.stdout()).startsWith("Downloading ");
    }

    @Test
    void getRefusesArguments() throws Exception {
        CliRunner.Result run = CliRunner.in(dir).run("get", "extra");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr()).contains("Unexpected argument");
    }

    @Test
    void modulesDrawsTheTreeAndListsItAsJson() throws Exception {
        config();
        CliRunner.Result tree = CliRunner.in(dir).run("modules");
        assertThat(tree.exitCode()).as(tree.toString()).isZero();
        assertThat(tree.stdout()).isEqualTo("""

                        Modules declared by configuration:
                        .
                        ├── "a_net"[./net]
                        │\u00a0\u00a0 └── "sub"[./sub]
                        └── "z_net"[./net]
                            └── "sub"[./sub]

                        """);
        CliRunner.Result json = CliRunner.in(dir).run("modules", "-json");
        JsonNode doc = JSON.readTree(json.stdout());
        assertThat(doc.get("format_version").asText()).isEqualTo("1.0");
        assertThat(doc.get("modules").findValuesAsText("key")).containsExactly("a_net", "sub", "z_net", "sub");
        assertThat(doc.get("modules").get(0).get("version").asText()).isEmpty();
    }

    @Test
    void modulesOfAConfigurationWithoutCalls() throws Exception {
        Files.writeString(dir.resolve("main.tf"), "");
        assertThat(CliRunner.in(dir).run("modules").stdout()).isEqualTo("No modules found in configuration.\n");
        assertThat(CliRunner.in(dir).run("modules", "-json").stdout())
                .isEqualTo("{\"format_version\":\"1.0\",\"modules\":null}\n");
    }

    @Test
    void warningsOfTheConfigurationStayOffTheJsonStream() throws Exception {
        config();
        Files.writeString(dir.resolve("provider.tf"), "provider \"aws\" {\n  version = \"~> 5.0\"\n}\n");
        CliRunner.Result json = CliRunner.in(dir).run("modules", "-json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(JSON.readTree(json.stdout()).get("modules").size()).isEqualTo(4);
        assertThat(json.stderr()).contains("Warning: Version constraints inside provider configuration blocks");
        CliRunner.Result tree = CliRunner.in(dir).run("modules");
        assertThat(tree.stdout())
                .contains("Warning: Version constraints")
                .contains("Modules declared by configuration:");
    }

    @Test
    void modulesFailsOnAModuleThatCannotBeLoaded() throws Exception {
        Files.writeString(dir.resolve("main.tf"), "module \"x\" {\n  source = \"./nope\"\n}\n");
        CliRunner.Result run = CliRunner.in(dir).run("modules", "-json");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).contains("Error: ").contains("main.tf line 2");
    }

    @Test
    void metadataFunctionsDescribesEveryBuiltin() throws Exception {
        CliRunner.Result run = CliRunner.in(dir).run("metadata", "functions", "-json");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode sigs = JSON.readTree(run.stdout()).get("function_signatures");
        assertThat(sigs.get("upper").toString())
                .isEqualTo("{\"return_type\":\"string\",\"parameters\":[{\"name\":\"str\",\"type\":\"string\"}]}");
        assertThat(sigs.get("core::upper")).isEqualTo(sigs.get("upper"));
        assertThat(sigs.get("can").get("return_type").asText()).isEqualTo("bool");
        assertThat(sigs.get("try").get("variadic_parameter").get("name").asText())
                .isEqualTo("expressions");
        assertThat(sigs.get("coalesce")
                        .get("variadic_parameter")
                        .get("is_nullable")
                        .asBoolean())
                .isTrue();
        assertThat(sigs.get("tolist").get("return_type").toString()).isEqualTo("[\"list\",\"dynamic\"]");
        assertThat(sigs.has("templatefile")).isTrue();
    }

    @Test
    void metadataWithoutASubcommandOrJsonIsAnError() {
        CliRunner.Result none = CliRunner.in(dir).run("metadata");
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.stderr()).contains("functions");
        CliRunner.Result noJson = CliRunner.in(dir).run("metadata", "functions");
        assertThat(noJson.exitCode()).isEqualTo(1);
        assertThat(noJson.stderr()).contains("requires the -json flag");
    }
}
