package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state commands use the backend the configuration's terraform block names. */
class BackendSelectionTest {
    @TempDir
    Path dir;

    private CliRunner.Result run(String config, String... args) throws IOException {
        Files.writeString(dir.resolve("main.tf"), config);
        return CliRunner.in(dir).run(args);
    }

    @Test
    void anUnsupportedBackendTypeIsAnErrorAtItsPlace() throws IOException {
        CliRunner.Result r = run(
                "terraform {\n  backend \"azurerm\" {\n    container_name = \"b\"\n  }\n}\n",
                "state",
                "list",
                "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Unsupported backend type")
                .containsIgnoringWhitespaces("\"azurerm\" is")
                .contains("main.tf line 2");
    }

    @Test
    void theLocalBackendIsTheDefaultAndMayBeNamed() throws IOException {
        CliRunner.Result r = run("terraform {\n  backend \"local\" {}\n}\n", "state", "pull");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).isEmpty();
        CliRunner.Result custom = run(
                "terraform {\n  backend \"local\" {\n    pth = \"x.tfstate\"\n  }\n}\n", "state", "list", "-no-color");
        assertThat(custom.exitCode()).isEqualTo(1);
        assertThat(custom.stderr())
                .contains("Error: Unsupported argument")
                .contains("An argument named \"pth\" is not expected here. Did you mean \"path\"?")
                .contains("on main.tf line 3")
                .contains("   3:     pth = \"x.tfstate\"");
    }

    @Test
    void theLocalBackendsPathAndWorkspaceDirAreHonoured() throws IOException {
        String config = "terraform {\n  backend \"local\" {\n    path          = \"states/main.tfstate\"\n"
                + "    workspace_dir = \"envs\"\n  }\n}\n";
        Files.createDirectories(dir.resolve("states"));
        Files.copy(StateCommandsTest.class.getResourceAsStream("sample.tfstate"), dir.resolve("states/main.tfstate"));
        CliRunner.Result list = run(config, "state", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).contains("terraform_data.a\n");
        CliRunner.Result rm = run(config, "state", "rm", "terraform_data.a");
        assertThat(rm.exitCode()).as(rm.toString()).isZero();
        // As Terraform's state commands: a timestamped backup beside the state the backend names.
        try (var files = Files.list(dir.resolve("states"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.matches("main\\.tfstate\\.[0-9]+\\.backup"));
        }
        assertThat(dir.resolve("terraform.tfstate")).doesNotExist();
        assertThat(run(config, "workspace", "new", "prod").exitCode()).isZero();
        assertThat(dir.resolve("envs/prod")).isDirectory();
        assertThat(run(config, "workspace", "list").stdout()).isEqualTo("  default\n* prod\n\n");
        assertThat(dir.resolve("terraform.tfstate.d")).doesNotExist();
    }

    @Test
    void backendSettingsAreConstants() throws IOException {
        CliRunner.Result r = run(
                "variable \"c\" {}\nterraform {\n  backend \"pg\" {\n    conn_str = var.c\n  }\n}\n",
                "state",
                "list",
                "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Variables not allowed").contains("main.tf line 4");
    }

    @Test
    void anUnreachablePostgresIsAClearError() throws IOException {
        CliRunner.Result r = run(
                "terraform {\n  backend \"pg\" {\n    conn_str = \"postgres://strata@127.0.0.1:1/none?sslmode=disable\"\n"
                        + "  }\n}\n",
                "state",
                "list",
                "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr())
                .contains("Error: Failed to prepare the PostgreSQL backend")
                .doesNotContain("Exception");
    }
}
