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
        CliRunner.Result r = run("terraform {\n  backend \"s3\" {\n    bucket = \"b\"\n  }\n}\n", "state", "list",
                "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Unsupported backend type").contains("\"s3\" is not available")
                .contains("main.tf line 2");
    }

    @Test
    void theLocalBackendIsTheDefaultAndMayBeNamed() throws IOException {
        CliRunner.Result r = run("terraform {\n  backend \"local\" {}\n}\n", "state", "pull");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).isEmpty();
        CliRunner.Result custom = run("terraform {\n  backend \"local\" {\n    path = \"x.tfstate\"\n  }\n}\n",
                "state", "list", "-no-color");
        assertThat(custom.exitCode()).isEqualTo(1);
        assertThat(custom.stderr()).contains("Unsupported backend setting").contains("\"path\" is not supported");
    }

    @Test
    void backendSettingsAreConstants() throws IOException {
        CliRunner.Result r = run("variable \"c\" {}\nterraform {\n  backend \"pg\" {\n    conn_str = var.c\n  }\n}\n",
                "state", "list", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Variables not allowed").contains("main.tf line 4");
    }

    @Test
    void anUnreachablePostgresIsAClearError() throws IOException {
        CliRunner.Result r = run("terraform {\n  backend \"pg\" {\n    conn_str = \"postgres://strata@127.0.0.1:1/none?sslmode=disable\"\n"
                + "  }\n}\n", "state", "list", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: Failed to prepare the PostgreSQL backend").doesNotContain("Exception");
    }
}
