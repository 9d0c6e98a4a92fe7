package dev.strata.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.cli.CliRunner;
import dev.strata.testing.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata drift} with the pg backend keeps each report with the state history and
 * {@code -history} lists them (skipped where PostgreSQL is not installed); with the local backend
 * {@code -history} is an error.
 */
class DriftHistoryTest {
    @TempDir
    Path dir;

    @Test
    void reportsAreKeptInPostgresAndListedNewestFirst() throws Exception {
        String url = PostgresServer.trusting().url();
        String schema = "strata_drift_cli_" + ProcessHandle.current().pid();
        Files.writeString(dir.resolve("main.tf"), """
                terraform {
                  backend "pg" {
                    schema_name = "%s"
                  }
                }
                resource "local_file" "f" {
                  filename = "${path.module}/out.txt"
                  content  = "hello"
                }
                resource "terraform_data" "t" {
                  input = "x"
                }
                """.formatted(schema));
        CliRunner cli = CliRunner.in(dir).width(200);
        CliRunner.Result init = cli.run("init", "-backend-config=conn_str=" + url);
        assertThat(init.exitCode()).as(init.toString()).isZero();
        CliRunner.Result apply = cli.run("apply", "-auto-approve", "-no-color");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        String stateBefore = cli.run("state", "pull").stdout();
        String historyBefore = cli.run("state", "list", "-history").stdout();
        long serial = new ObjectMapper().readTree(stateBefore).get("serial").asLong();

        CliRunner.Result empty = cli.run("drift", "-history");
        assertThat(empty.exitCode()).as(empty.toString()).isZero();
        assertThat(empty.stdout()).isEqualTo("No drift reports are stored for this workspace yet.\n");

        assertThat(cli.run("drift", "-no-color").exitCode()).isZero();
        Files.delete(dir.resolve("out.txt"));
        CliRunner.Result drifted = cli.run("drift", "-no-color");
        assertThat(drifted.exitCode()).as(drifted.toString()).isEqualTo(2);

        CliRunner.Result text = cli.run("drift", "-history");
        assertThat(text.exitCode()).as(text.toString()).isZero();
        String[] rows = text.stdout().split("\n");
        assertThat(rows).hasSize(3);
        assertThat(rows[0].split(" +")).containsExactly("CHECKED", "AT", "SERIAL", "CHECKED", "DRIFTED");
        assertThat(rows[1].split(" +")).endsWith(String.valueOf(serial), "2", "1");
        assertThat(rows[2].split(" +")).endsWith(String.valueOf(serial), "2", "0");

        CliRunner.Result json = cli.run("drift", "-history", "-json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        JsonNode list = new ObjectMapper().readTree(json.stdout());
        assertThat(list.isArray()).isTrue();
        assertThat(list).hasSize(2);
        JsonNode newest = list.get(0);
        assertThat(newest.get("workspace").asText()).isEqualTo("default");
        assertThat(newest.get("serial").asLong()).isEqualTo(serial);
        assertThat(newest.get("drifted").asInt()).isEqualTo(1);
        assertThat(newest.get("report").get("objects").get(0).get("address").asText())
                .isEqualTo("local_file.f");
        assertThat(newest.get("report").get("timestamp").asText())
                .isEqualTo(newest.get("timestamp").asText());
        assertThat(list.get(1).get("report").get("drifted").asBoolean()).isFalse();
        // Keeping reports writes no state.
        assertThat(cli.run("state", "pull").stdout()).isEqualTo(stateBefore);
        assertThat(cli.run("state", "list", "-history").stdout()).isEqualTo(historyBefore);
    }

    @Test
    void historyNeedsThePgBackend() throws Exception {
        Files.writeString(dir.resolve("main.tf"), "resource \"terraform_data\" \"t\" {}\n");
        CliRunner cli = CliRunner.in(dir).width(200);
        CliRunner.Result r = cli.run("drift", "-history", "-no-color");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("No drift history").contains("only the pg backend has");
        CliRunner.Result both = cli.run("drift", "-history", "-watch=5s");
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(both.stderr()).contains("cannot be combined with -watch");
    }
}
