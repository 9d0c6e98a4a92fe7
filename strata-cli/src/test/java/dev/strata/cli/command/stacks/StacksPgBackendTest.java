package dev.strata.cli.command.stacks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.cli.CliRunner;
import dev.strata.hcl.Result;
import dev.strata.state.LockRequest;
import dev.strata.state.PgBackend;
import dev.strata.state.StateManager;
import dev.strata.testing.PostgresServer;
import dev.strata.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stacks state in PostgreSQL (skipped where PostgreSQL is not installed): {@code strata stacks init
 * -backend=pg} records the backend, deployments are applied into rows of its schema, the lock is the
 * pg backend's, and the local layout stays empty.
 */
class StacksPgBackendTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @TempDir
    Path dir;

    private void stack() throws IOException {
        TestFiles.write(dir, "modules/app/main.tf", """
                variable "name" {
                  type = string
                }
                resource "terraform_data" "x" {
                  input = var.name
                }
                output "id" {
                  value = terraform_data.x.output
                }
                """);
        TestFiles.write(dir, "main.tfcomponent.hcl", """
                variable "names" {
                  type = set(string)
                }

                component "app" {
                  for_each = var.names
                  source   = "./modules/app"
                  inputs = {
                    name = each.value
                  }
                }

                output "ids" {
                  type  = map(string)
                  value = { for k, c in component.app : k => c.id }
                }
                """);
        TestFiles.write(dir, "deployments.tfdeploy.hcl", """
                deployment "dev" {
                  inputs = {
                    names = ["a"]
                  }
                }

                deployment "prod" {
                  inputs = {
                    names = ["a", "b"]
                  }
                }
                """);
    }

    private static List<String> rows(String url, String schema) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT name FROM " + schema + ".states WHERE data <> '' ORDER BY name")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void deploymentsAreStoredAsRowsOfTheRecordedPgBackendUnderItsLock() throws Exception {
        String url = PostgresServer.trusting().url();
        String schema = "stacks_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        stack();
        CliRunner cli = CliRunner.in(dir);

        CliRunner.Result init = cli.run(
                "stacks",
                "init",
                "-backend=pg",
                "-backend-config=conn_str=" + url,
                "-backend-config=schema_name=" + schema);
        assertThat(init.exitCode()).as(init.toString()).isZero();
        assertThat(init.stdout()).contains("Deployment states are stored in: pg (schema " + schema + ")");

        CliRunner.Result apply = cli.run("stacks", "apply", "-auto-approve");
        assertThat(apply.exitCode()).as(apply.toString()).isZero();
        assertThat(rows(url, schema))
                .containsExactly(
                        "deployment.dev",
                        "deployment.dev.component.app~5B~22a~22~5D",
                        "deployment.prod",
                        "deployment.prod.component.app~5B~22a~22~5D",
                        "deployment.prod.component.app~5B~22b~22~5D");
        assertThat(dir.resolve(".strata/stacks/dev")).doesNotExist();

        CliRunner.Result plan = cli.run("stacks", "plan");
        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.stdout())
                .contains("Deployment \"dev\": no changes.")
                .contains("Deployment \"prod\": no changes.");
        CliRunner.Result out = cli.run("stacks", "output", "-deployment=prod", "-json");
        assertThat(out.exitCode()).as(out.toString()).isZero();
        assertThat(out.stdout()).contains("\"a\"").contains("\"b\"");
        CliRunner.Result list = cli.run("stacks", "list");
        assertThat(list.stdout()).contains("dev\t1 component instance").contains("prod\t2 component instances");

        // The deployment's lock is the pg backend's lock on its stack row: held elsewhere, apply waits for nobody.
        PgBackend other = PgBackend.connect(url, schema, Map.of(), "test").value();
        Result<StateManager> held = other.open("deployment.prod", LockRequest.of("OperationTypeApply", Duration.ZERO));
        assertThat(held.value()).as(held.diagnostics().toString()).isNotNull();
        try (StateManager m = held.value()) {
            CliRunner.Result locked = cli.run("stacks", "apply", "-auto-approve", "-deployment=prod");
            assertThat(locked.exitCode()).isEqualTo(1);
            assertThat(locked.stderr()).contains("Error acquiring the state lock");
        }

        CliRunner.Result destroy = cli.run("stacks", "destroy", "-auto-approve");
        assertThat(destroy.exitCode()).as(destroy.toString()).isZero();
        assertThat(rows(url, schema)).containsExactly("deployment.dev", "deployment.prod");
    }

    @Test
    void switchingBackendsRefusesToLeaveStatesBehindAndABadSettingIsReported() throws Exception {
        stack();
        CliRunner cli = CliRunner.in(dir);
        assertThat(cli.run("stacks", "apply", "-auto-approve", "-deployment=dev")
                        .exitCode())
                .isZero();
        String url = PostgresServer.trusting().url();
        String schema = "stacks_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        CliRunner.Result refused = cli.run(
                "stacks",
                "init",
                "-backend=pg",
                "-backend-config=conn_str=" + url,
                "-backend-config=schema_name=" + schema);
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.stderr())
                .contains("Backend change would leave deployment states behind")
                .containsIgnoringWhitespaces("holds the state of dev");
        assertThat(dir.resolve(".strata/stacks/backend.json")).doesNotExist();

        CliRunner.Result bad = cli.run("stacks", "init", "-backend=pg", "-backend-config=region=x");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.stderr()).containsIgnoringWhitespaces("\"region\" is not one of");
        CliRunner.Result unknown = cli.run("stacks", "init", "-backend=s3");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.stderr()).contains("Unsupported Stack backend");

        CliRunner.Result forced = cli.run(
                "stacks",
                "init",
                "-backend=pg",
                "-reconfigure",
                "-backend-config=conn_str=" + url,
                "-backend-config=schema_name=" + schema);
        assertThat(forced.exitCode()).as(forced.toString()).isZero();
        assertThat(Files.readString(dir.resolve(".strata/stacks/backend.json"))).contains("\"pg\"");
        // The pg schema is empty: dev has no state there yet.
        assertThat(cli.run("stacks", "list").stdout()).contains("dev\tnot applied");
    }
}
