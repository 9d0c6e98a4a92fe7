package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.InstanceKey;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.testing.PostgresServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The PostgreSQL backend against a real server the test starts (skipped where PostgreSQL is not installed). */
class PgBackendTest {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    String url;
    String schema;
    PgBackend backend;

    @BeforeEach
    void setUp() {
        url = PostgresServer.trusting().url();
        schema = "strata_test_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        Result<PgBackend> r = PgBackend.connect(url, schema, Map.of(), "0.1.0");
        assertThat(r.diagnostics().asList()).isEmpty();
        backend = r.value();
    }

    StateManager open(String ws) {
        Result<StateManager> r = backend.open(ws, LockRequest.of("OperationTypeApply", Duration.ZERO));
        assertThat(r.diagnostics().asList()).isEmpty();
        return r.value();
    }

    @Test
    void writesIncrementSerialAndKeepHistory() {
        StateSnapshot first;
        try (StateManager m = open("default")) {
            assertThat(m.exists()).isFalse();
            first = m.persist(StateProcess.withCounter(m.state(), 1)).value();
            assertThat(first.serial()).isEqualTo(1);
            assertThat(m.persist(StateProcess.withCounter(m.state(), 2)).value().serial())
                    .isEqualTo(2);
            assertThat(m.persist(StateProcess.withCounter(m.state(), 2)).value().serial())
                    .as("no change, no write")
                    .isEqualTo(2);
            assertThat(m.persist(StateProcess.withCounter(m.state(), 3).withLineage("x"))
                            .diagnostics()
                            .asList()
                            .get(0)
                            .summary())
                    .isEqualTo("Refusing to write a state of another lineage");
        }
        try (StateManager m = open("default")) {
            assertThat(m.state().serial()).isEqualTo(2);
            assertThat(StateProcess.counter(m.state())).isEqualTo(2);
            // Restoring an old serial from the history writes it as the next serial.
            List<PgBackend.HistoryEntry> h = backend.history("default").value();
            assertThat(h).extracting(PgBackend.HistoryEntry::serial).containsExactly(2L, 1L);
            StateSnapshot old = backend.historic("default", first.lineage(), 1).value();
            assertThat(StateProcess.counter(old)).isEqualTo(1);
            assertThat(m.replace(old, false).diagnostics().asList().get(0).detail())
                    .contains("over newer state with serial 2");
            StateSnapshot restored = m.replace(old, true).value();
            assertThat(restored.serial()).isEqualTo(3);
            assertThat(StateProcess.counter(restored)).isEqualTo(1);
        }
    }

    @Test
    void workspacesAreRows() {
        assertThat(backend.workspaces().value()).containsExactly("default");
        assertThat(backend.createWorkspace("dev").hasErrors()).isFalse();
        assertThat(backend.createWorkspace("dev").diagnostics().asList().get(0).detail())
                .contains("already exists");
        assertThat(backend.workspaces().value()).containsExactly("default", "dev");
        try (StateManager m = open("dev")) {
            m.persist(StateProcess.withCounter(m.state(), 1));
        }
        assertThat(backend.open("nope", LockRequest.none())
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("doesn't exist");
        assertThat(backend.deleteWorkspace("dev").hasErrors()).isFalse();
        assertThat(backend.workspaces().value()).containsExactly("default");
    }

    @Test
    void secondClientIsToldWhoHoldsTheLock() {
        try (StateManager holder = open("default")) {
            holder.persist(StateProcess.withCounter(holder.state(), 1));
            Result<StateManager> r =
                    backend.open("default", LockRequest.of("OperationTypePlan", Duration.ofMillis(150)));
            assertThat(r.value()).isNull();
            Diagnostic d = r.diagnostics().asList().get(0);
            assertThat(d.summary()).isEqualTo("Error acquiring the state lock");
            assertThat(d.detail())
                    .contains(holder.lock().id())
                    .contains("OperationTypeApply")
                    .contains("Gave up after waiting");
            assertThat(backend.forceUnlock("default", holder.lock().id())
                            .diagnostics()
                            .asList()
                            .get(0)
                            .detail())
                    .contains("held by a live database session");
            // A reader without the lock that then writes is caught if the holder wrote in between.
            StateManager sneaky = backend.open("default", LockRequest.none()).value();
            holder.persist(StateProcess.withCounter(holder.state(), 2));
            assertThat(sneaky.persist(StateProcess.withCounter(sneaky.state(), 9))
                            .diagnostics()
                            .asList()
                            .get(0)
                            .summary())
                    .isEqualTo("The state changed since it was read");
            sneaky.close();
        }
        try (StateManager again = open("default")) {
            assertThat(StateProcess.counter(again.state())).isEqualTo(2);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void lockOfAKilledClientDisappearsWithItsSession() throws Exception {
        Process holder = StateProcess.start("pg-hold", url, schema);
        try {
            String line = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertThat(line).startsWith("LOCKED ");
            String id = line.substring(7);
            Result<StateManager> busy = backend.open("default", LockRequest.of("apply", Duration.ZERO));
            assertThat(busy.diagnostics().asList().get(0).detail()).contains(id).contains("pid " + holder.pid());
            StateProcess.killHard(holder);
            // The server notices the dead connection when the socket closes; wait for it, bounded.
            Result<StateManager> taken = backend.open("default", LockRequest.of("apply", Duration.ofSeconds(60)));
            assertThat(taken.value()).isNotNull();
            assertThat(taken.diagnostics().asList().get(0).summary())
                    .isEqualTo("Previous lock holder ended without unlocking");
            assertThat(taken.diagnostics().asList().get(0).detail()).contains(id);
            taken.value().close();
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void concurrentReadModifyWriteLosesNoUpdate() throws Exception {
        int processes = 8;
        int cycles = 25;
        List<Process> ps = new ArrayList<>();
        try {
            for (int i = 0; i < processes; i++) {
                ps.add(StateProcess.start("pg-rmw", url, schema, Integer.toString(cycles)));
            }
            for (Process p : ps) {
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(200, TimeUnit.SECONDS)).isTrue();
                assertThat(out).as(out).contains("DONE");
            }
        } finally {
            ps.forEach(Process::destroyForcibly);
        }
        try (StateManager m = open("default")) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(processes * cycles);
            assertThat(m.state().serial()).isEqualTo(processes * cycles);
        }
        assertThat(backend.history("default").value()).hasSize(processes * cycles);
    }

    @Test
    void journalRowsReplayAndCompactInOneTransaction() {
        try (StateManager m = open("default")) {
            m.append(JournalTest.set(0));
            m.append(new JournalEntry.Intent("op-1", JournalTest.THING.instance(InstanceKey.of(1)), "create"));
            m.append(JournalTest.set(1));
        }
        try (StateManager m = open("default")) {
            assertThat(m.journalSize()).isEqualTo(3);
            assertThat(m.state().instanceAddresses()).hasSize(2);
            assertThat(m.openIntents())
                    .extracting(JournalEntry.Intent::operationId)
                    .containsExactly("op-1");
            assertThat(m.compact().value().serial()).isEqualTo(1);
            assertThat(m.journalSize()).isEqualTo(1);
        }
        try (StateManager m = open("default")) {
            assertThat(m.state().serial()).isEqualTo(1);
            assertThat(m.state().instanceAddresses()).hasSize(2);
            assertThat(m.openIntents()).hasSize(1);
        }
    }

    @Test
    void unreachableServerAndMissingDatabaseAreExplained() {
        Result<PgBackend> down =
                PgBackend.connect("postgres://u:p@127.0.0.1:1/db?sslmode=disable", null, Map.of(), "0.1.0");
        assertThat(down.value()).isNull();
        assertThat(down.diagnostics().asList().get(0).detail())
                .contains("Could not connect to PostgreSQL at 127.0.0.1:1/db")
                .contains("conn_str (or PG_CONN_STR)");
        Result<PgBackend> noDb = PgBackend.connect(url.replace("/postgres?", "/nosuchdb?"), null, Map.of(), "0.1.0");
        assertThat(noDb.diagnostics().asList().get(0).detail()).contains("does not exist");
    }

    @Test
    void unknownUserAndMissingGrantsAreExplained() throws Exception {
        Result<PgBackend> nobody =
                PgBackend.connect(url.replace("user=postgres", "user=strata_nobody"), schema, Map.of(), "0.1.0");
        assertThat(nobody.value()).isNull();
        assertThat(nobody.diagnostics().asList().get(0).detail())
                .contains("refused the login")
                .contains("Check the user and password in conn_str");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
                java.sql.Statement st = c.createStatement()) {
            st.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'strata_reader') THEN "
                    + "CREATE ROLE strata_reader LOGIN; END IF; END $$");
        }
        // PostgreSQL 15 grants PUBLIC no CREATE on the database: the schema cannot be created.
        Result<PgBackend> reader = PgBackend.connect(
                url.replace("user=postgres", "user=strata_reader"), schema + "_ro", Map.of(), "0.1.0");
        assertThat(reader.value()).isNull();
        assertThat(reader.diagnostics().asList().get(0).detail())
                .contains("Permission denied")
                .contains("The user needs CREATE on the database");
    }

    @Test
    void connectionStringForms() throws Exception {
        Properties p = new Properties();
        assertThat(PgBackend.jdbcUrl("postgres://ann:s%40cret@db.example:5433/tf?sslmode=disable", p))
                .isEqualTo("jdbc:postgresql://db.example:5433/tf");
        assertThat(p)
                .containsEntry("user", "ann")
                .containsEntry("password", "s@cret")
                .containsEntry("sslmode", "disable");
        assertThat(PgBackend.connect(null, null, Map.of(), "0.1.0")
                        .diagnostics()
                        .asList()
                        .get(0)
                        .summary())
                .isEqualTo("Missing PostgreSQL connection string");
        assertThat(PgBackend.connect("host=x dbname=y", null, Map.of(), "0.1.0")
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("key=value strings are not supported");
        assertThat(PgBackend.connect(url, "bad-name;", Map.of(), "0.1.0")
                        .diagnostics()
                        .asList()
                        .get(0)
                        .summary())
                .isEqualTo("Invalid schema_name");
        assertThat(PgBackend.connect(null, schema, Map.of("PG_CONN_STR", url), "0.1.0")
                        .hasErrors())
                .isFalse();
    }
}
