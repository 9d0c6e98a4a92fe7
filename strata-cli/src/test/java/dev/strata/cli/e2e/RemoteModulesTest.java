package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.ModuleRegistryServer;
import dev.strata.testing.ModuleRegistryServer.Archive;
import dev.strata.testing.ProcessResult;
import dev.strata.testing.Terraform;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Registry modules through the CLI, from a loopback registry that a CLI configuration's {@code host}
 * block names: init, a plan using the module, re-init keeping the version, {@code -upgrade}, and the
 * errors; where terraform 1.11 is on the PATH, the same against it (it accepts an http services URL
 * in a host block), comparing the manifest, {@code modules -json} and the error texts.
 */
class RemoteModulesTest {
    private static final Map<String, String> WEB = Map.of(
            "main.tf", "variable \"n\" {\n  default = \"x\"\n}\noutput \"v\" {\n  value = \"hello-${var.n}\"\n}\n");

    @TempDir
    Path st;

    @TempDir
    Path tf;

    @TempDir
    Path home;

    private ModuleRegistryServer registry;
    private Path cliConfig;

    @BeforeEach
    void start() throws IOException {
        registry = ModuleRegistryServer.start()
                .publish("acme/web/aws", "1.0.0", WEB, Archive.TAR_GZ)
                .publish("acme/web/aws", "1.2.0", WEB, Archive.ZIP)
                .requireToken("tok3n");
        cliConfig = home.resolve("cli.tfrc");
        Files.writeString(
                cliConfig,
                "host \"example.com\" {\n  services = {\n    \"modules.v1\" = \"" + registry.servicesUrl()
                        + "\"\n  }\n}\ncredentials \"example.com\" {\n  token = \"tok3n\"\n}\n");
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    private CliRunner strata() {
        return CliRunner.in(st).env("TF_CLI_CONFIG_FILE", cliConfig.toString()).env("HOME", home.toString());
    }

    private static void config(Path dir, String constraint) throws IOException {
        Files.writeString(
                dir.resolve("main.tf"),
                "module \"web\" {\n  source  = \"example.com/acme/web/aws\"\n" + "  version = \"" + constraint
                        + "\"\n}\n\noutput \"v\" {\n  value = module.web.v\n}\n");
    }

    private String manifest() throws IOException {
        return Files.readString(st.resolve(".strata/modules/modules.json"), StandardCharsets.UTF_8);
    }

    @Test
    void initPlanReinitUpgradeAndTheErrors() throws IOException {
        config(st, "~> 1.0");
        CliRunner.Result init = strata().run("init", "-no-color");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout())
                .contains("Initializing modules...\nDownloading example.com/acme/web/aws 1.2.0 for web...\n"
                        + "- web in .strata/modules/web\n");
        assertThat(manifest())
                .contains("{\"Key\":\"web\",\"Source\":\"example.com/acme/web/aws\","
                        + "\"Version\":\"1.2.0\",\"Dir\":\".strata/modules/web\"}");
        CliRunner.Result plan = strata().run("plan", "-no-color");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout()).contains("+ v = \"hello-x\"");
        CliRunner.Result modules = strata().run("modules", "-json");
        assertThat(modules.stdout().strip())
                .isEqualTo("{\"format_version\":\"1.0\",\"modules\":[{\"key\":\"web\","
                        + "\"source\":\"example.com/acme/web/aws\",\"version\":\"1.2.0\"}]}");

        registry.publish("acme/web/aws", "1.3.0", WEB, Archive.TAR_GZ);
        CliRunner.Result again = strata().run("init", "-no-color");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.stdout()).doesNotContain("Downloading").doesNotContain("- web in");
        assertThat(manifest()).contains("\"Version\":\"1.2.0\"");
        CliRunner.Result upgrade = strata().run("init", "-upgrade", "-no-color");
        assertThat(upgrade.stdout()).contains("Downloading example.com/acme/web/aws 1.3.0 for web...");
        assertThat(manifest()).contains("\"Version\":\"1.3.0\"");

        config(st, ">= 5.0");
        CliRunner.Result none = strata().run("init", "-no-color");
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.stderr())
                .contains("Error: Unresolvable module version constraint")
                .contains("There is no available version of module \"example.com/acme/web/aws\"");

        Files.writeString(st.resolve("main.tf"), "module \"web\" {\n  source = \"example.com/acme/nothing/aws\"\n}\n");
        CliRunner.Result missing = strata().run("init", "-no-color");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr()).contains("Error: Module not found");

        // Without the token the registry refuses: the status is named.
        CliRunner.Result refused = CliRunner.in(st)
                .env("TF_CLI_CONFIG_FILE", cliConfig.toString())
                .env("TF_TOKEN_example_com", "wrong")
                .run("init", "-no-color");
        assertThat(refused.stderr())
                .contains("Error: Error accessing remote module registry")
                .containsIgnoringWhitespaces("bad response code: 401");
        assertThat(refused.toString()).doesNotContain("tok3n").doesNotContain("wrong");
    }

    @Test
    void anUnreachableRegistryNamesTheUrl() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(
                cliConfig,
                "host \"example.com\" {\n  services = {\n    \"modules.v1\" = " + "\"http://127.0.0.1:" + port
                        + "/v1/modules/\"\n  }\n}\n");
        config(st, "1.0.0");
        CliRunner.Result r = strata().run("init", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Error accessing remote module registry")
                .contains("http://127.0.0.1:" + port + "/v1/modules/acme/web/aws/versions")
                .contains("connection refused");
        assertThat(st.resolve(".strata/modules/web")).doesNotExist();
    }

    /** The same configuration under terraform: the manifest (but for the directory), modules -json, errors. */
    @Test
    void matchesTerraform() throws Exception {
        Terraform terraform = Terraform.in(tf).cliConfig(cliConfig);
        config(tf, "~> 1.0");
        config(st, "~> 1.0");
        ProcessResult t = terraform.run("init", "-no-color");
        CliRunner.Result s = strata().run("init", "-no-color");
        assertThat(s.exitCode())
                .as(s + "\nterraform:\n" + t.stdout() + t.stderr())
                .isEqualTo(t.exitCode())
                .isZero();
        assertThat(manifest().replace(".strata/modules", "MODULES"))
                .isEqualTo(Files.readString(tf.resolve(".terraform/modules/modules.json"))
                                .replace(".terraform/modules", "MODULES")
                        + "\n");
        assertThat(strata().run("modules", "-json").stdout()).isEqualTo(terraform.ok("modules", "-json"));
        assertThat(strata().run("modules").stdout()).isEqualTo(terraform.ok("modules"));
        // Re-init keeps the version in both, with the same progress lines.
        registry.publish("acme/web/aws", "1.3.0", WEB, Archive.TAR_GZ);
        assertThat(modulesSection(strata().run("init", "-no-color").stdout()))
                .isEqualTo(modulesSection(terraform.ok("init", "-no-color"))
                        .replace(".terraform/modules", ".strata/modules"));
        assertThat(modulesSection(strata().run("init", "-upgrade", "-no-color").stdout()))
                .isEqualTo(modulesSection(terraform.ok("init", "-upgrade", "-no-color"))
                        .replace(".terraform/modules", ".strata/modules"))
                .contains("Downloading example.com/acme/web/aws 1.3.0 for web...");

        for (String constraint : new String[] {">= 5.0"}) {
            config(tf, constraint);
            config(st, constraint);
            ProcessResult te = terraform.run("init", "-no-color");
            CliRunner.Result se = strata().run("init", "-no-color");
            assertThat(se.exitCode()).isEqualTo(te.exitCode()).isEqualTo(1);
            assertThat(errorBlock(se.stderr())).isEqualTo(errorBlock(te.stderr()));
        }
        for (Path d : new Path[] {tf, st}) {
            Files.writeString(d.resolve("main.tf"), "\nmodule \"none\" {\n  source = \"example.com/acme/no/aws\"\n}\n");
        }
        ProcessResult te = terraform.run("init", "-no-color");
        CliRunner.Result se = strata().run("init", "-no-color");
        assertThat(se.exitCode()).isEqualTo(te.exitCode()).isEqualTo(1);
        assertThat(errorBlock(se.stderr())).isEqualTo(errorBlock(te.stderr()));
    }

    /** The lines of init's "Initializing modules..." section. */
    private static String modulesSection(String stdout) {
        int at = Math.max(stdout.indexOf("Initializing modules..."), stdout.indexOf("Upgrading modules..."));
        assertThat(at).as(stdout).isNotNegative();
        int end = stdout.indexOf("\n\n", at);
        String section = stdout.substring(at, end < 0 ? stdout.length() : end);
        // Terraform prints the provider heading without a blank line before it when nothing follows.
        int providers = section.indexOf("\nInitializing provider plugins...");
        return providers < 0 ? section : section.substring(0, providers);
    }

    /** From the first "Error:" line to the end of that diagnostic (its blank line). */
    private static String errorBlock(String stderr) {
        int at = stderr.indexOf("Error: ");
        assertThat(at).as(stderr).isNotNegative();
        String rest = stderr.substring(at);
        // The diagnostic's own text, each paragraph joined: wrapping is the renderer's business.
        String[] parts = rest.split("\n\n");
        return String.join("\n\n", parts[0], parts.length > 1 ? parts[1] : "", parts.length > 2 ? parts[2] : "")
                .replaceAll("\\s*\n\\s*", " ")
                .strip();
    }
}
