package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.testing.PostgresServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pg backend through the CLI against a real PostgreSQL the test starts (skipped where it is not
 * installed): init with -backend-config and migration from local state, history, restore.
 */
class PgBackendCliTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @TempDir
    Path dir;

    @Test
    void migrateLocalStateToPostgresThenListPullAndRestoreHistory() throws IOException {
        String url = PostgresServer.trusting().url();
        String schema = "strata_cli_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        try (InputStream in = StateCommandsTest.class.getResourceAsStream("sample.tfstate")) {
            Files.write(dir.resolve("terraform.tfstate"), in.readAllBytes());
        }
        Files.writeString(
                dir.resolve("main.tf"),
                "terraform {\n  backend \"pg\" {\n    schema_name = \"" + schema + "\"\n  }\n}\n");
        CliRunner cli = CliRunner.in(dir);
        CliRunner.Result init = cli.run("init", "-backend-config=conn_str=" + url, "-force-copy");
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout())
                .contains("copied workspace \"default\"")
                .contains("Successfully configured the backend \"pg\"!");
        // The connection string came from -backend-config and is recorded; the files do not have it.
        CliRunner.Result list = cli.run("state", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).startsWith("terraform_data.a\n");
        String original = cli.run("state", "pull").stdout();

        assertThat(cli.run("state", "rm", "terraform_data.a").exitCode()).isZero();
        assertThat(cli.run("state", "rm", "terraform_data.b").exitCode()).isZero();
        CliRunner.Result history = cli.run("state", "list", "-history");
        assertThat(history.exitCode()).as(history.toString()).isZero();
        String[] rows = history.stdout().split("\n");
        assertThat(rows[0]).startsWith("SERIAL");
        assertThat(rows).hasSize(4);
        long first = Long.parseLong(rows[3].split(" +")[0]);
        long last = Long.parseLong(rows[1].split(" +")[0]);
        assertThat(last).isEqualTo(first + 2);

        CliRunner.Result old = cli.run("state", "pull", "-serial=" + first);
        assertThat(old.exitCode()).as(old.toString()).isZero();
        assertThat(old.stdout()).isEqualTo(original);
        Files.writeString(dir.resolve("old.tfstate"), old.stdout());
        CliRunner.Result refused = cli.run("state", "push", "old.tfstate");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.stderr()).contains("cannot import state with serial " + first);
        assertThat(cli.run("state", "push", "-force", "old.tfstate").exitCode()).isZero();
        assertThat(cli.run("state", "list").stdout()).startsWith("terraform_data.a\n");
        assertThat(cli.run("state", "list", "-history").stdout().split("\n")[1]).startsWith(Long.toString(last + 1));

        CliRunner.Result missing = cli.run("state", "pull", "-no-color", "-serial=999");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr())
                .contains("Error: No such state in the history")
                .contains("no stored serial 999");
    }

    @Test
    void aDebugApplyLogsTheConnectionTheLockAndTheStateWrite() throws IOException {
        String url = PostgresServer.trusting().url();
        String schema = "strata_cli_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        Files.writeString(
                dir.resolve("main.tf"),
                "terraform {\n  backend \"pg\" {\n    schema_name = \"" + schema
                        + "\"\n  }\n}\nvariable \"token\" {\n  sensitive = true\n}\nresource \"terraform_data\" \"a\" {\n"
                        + "  input = var.token\n}\n");
        CliRunner.Result init = CliRunner.in(dir).run("init", "-backend-config=conn_str=" + url);
        assertThat(init.exitCode()).as(init.toString()).isZero();
        Path log = dir.resolve("pg.log");
        CliRunner.Result apply = CliRunner.in(dir)
                .env("STRATA_LOG", "debug")
                .env("STRATA_LOG_PATH", log.toString())
                .run("apply", "-auto-approve", "-var", "token=pg-secret-9d1e");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        String text = Files.readString(log);
        assertThat(text)
                .doesNotContain("pg-secret-9d1e")
                .containsPattern("connected to PostgreSQL at 127\\.0\\.0\\.1:\\d+/\\S* in \\d+ ms")
                .containsPattern("lock \\S+ on PostgreSQL " + schema
                        + "\\.states\\[default] acquired for OperationTypeApply in \\d+ ms")
                .containsPattern("state written to PostgreSQL " + schema
                        + "\\.states\\[default]: serial \\d+, \\d+ bytes, in \\d+ ms")
                .containsPattern("lock \\S+ on PostgreSQL " + schema + "\\.states\\[default] released after \\d+ ms");
    }

    @Test
    void theLocalBackendHasNoHistory() {
        CliRunner.Result r = CliRunner.in(dir).run("state", "list", "-history", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("Error: No state history").contains("terraform.tfstate.backup");
    }
}
