package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.testing.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Copying every workspace between backends, as {@code init -migrate-state} does. */
class BackendMigrationTest {
    @TempDir
    Path dir;

    static final LockRequest LOCK = LockRequest.of("OperationTypeMigrate", Duration.ZERO);

    static void write(Backend b, String ws, long counter) {
        if (!b.workspaces().value().contains(ws)) {
            assertThat(b.createWorkspace(ws).diagnostics().asList()).isEmpty();
        }
        try (StateManager m = b.open(ws, LOCK).value()) {
            assertThat(m.persist(StateProcess.withCounter(m.state(), counter)).hasErrors())
                    .isFalse();
        }
    }

    static StateSnapshot read(Backend b, String ws) {
        try (StateManager m = b.open(ws, LockRequest.none()).value()) {
            return m.exists() ? m.state() : null;
        }
    }

    void copiesEveryWorkspaceAndKeepsTheSource(Backend from, Backend to) {
        write(from, "default", 3);
        write(from, "prod", 9);
        assertThat(from.createWorkspace("empty").hasErrors()).isFalse();
        StateSnapshot before = read(from, "prod");

        Result<BackendMigration.Plan> plan = BackendMigration.plan(from, to);
        assertThat(plan.diagnostics().asList()).isEmpty();
        assertThat(plan.value().workspaces()).containsExactly("default", "empty", "prod");
        assertThat(plan.value().withState()).containsExactly("default", "prod");
        assertThat(plan.value().conflicts()).isEmpty();

        Result<List<BackendMigration.Copied>> r = BackendMigration.copy(from, to, LOCK);
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value()).extracting(BackendMigration.Copied::workspace).containsExactly("default", "prod");
        assertThat(to.workspaces().value()).containsExactly("default", "empty", "prod");
        StateSnapshot copied = read(to, "prod");
        assertThat(copied.lineage()).isEqualTo(before.lineage());
        assertThat(copied.serial()).isEqualTo(before.serial());
        assertThat(StateProcess.counter(copied)).isEqualTo(9);
        assertThat(StateProcess.counter(read(to, "default"))).isEqualTo(3);
        assertThat(read(to, "empty")).isNull();
        assertThat(read(from, "prod")).as("the source is kept").isEqualTo(before);

        // A second run finds the copies identical: nothing would be overwritten.
        assertThat(BackendMigration.plan(from, to).value().conflicts()).isEmpty();
        // A destination that moved on is a conflict the caller must confirm.
        write(to, "prod", 10);
        assertThat(BackendMigration.plan(from, to).value().conflicts()).containsExactly("prod");
    }

    @Test
    void localToLocalWithOtherPaths() throws Exception {
        LocalBackend from = LocalBackend.in(dir, "0.1.0");
        LocalBackend to = LocalBackend.in(dir, "0.1.0").withPaths("new/main.tfstate", "new/envs");
        copiesEveryWorkspaceAndKeepsTheSource(from, to);
        assertThat(Files.exists(dir.resolve("new/envs/prod/terraform.tfstate"))).isTrue();
        assertThat(Files.exists(dir.resolve("terraform.tfstate.d/prod/terraform.tfstate")))
                .isTrue();
    }

    @Test
    void localToPostgres() {
        String url = PostgresServer.trusting().url();
        PgBackend to = PgBackend.connect(
                        url, "strata_migrate_" + ProcessHandle.current().pid(), Map.of(), "0.1.0")
                .value();
        copiesEveryWorkspaceAndKeepsTheSource(LocalBackend.in(dir, "0.1.0"), to);
    }

    @Test
    void theSameStorageIsNotCopiedOntoItself() {
        LocalBackend a = LocalBackend.in(dir, "0.1.0");
        write(a, "default", 1);
        LocalBackend same = LocalBackend.in(dir, "0.1.0").withPaths("./terraform.tfstate", null);
        assertThat(BackendMigration.plan(a, same).value().withState()).isEmpty();
        Result<List<BackendMigration.Copied>> r = BackendMigration.copy(a, same, LOCK);
        assertThat(r.diagnostics().asList()).isEmpty();
        assertThat(r.value()).isEmpty();
    }

    @Test
    void aLockedSourceStopsTheMigrationBeforeAnythingIsWritten() {
        LocalBackend from = LocalBackend.in(dir, "0.1.0");
        write(from, "default", 1);
        write(from, "prod", 2);
        LocalBackend to = LocalBackend.in(dir, "0.1.0").withPaths("new.tfstate", "new.d");
        try (StateManager held = from.open("prod", LOCK).value()) {
            Result<List<BackendMigration.Copied>> r = BackendMigration.copy(from, to, LOCK);
            assertThat(r.hasErrors()).isTrue();
            assertThat(r.diagnostics().asList().get(0).summary()).isEqualTo("Error acquiring the state lock");
            assertThat(read(to, "default")).as("nothing written").isNull();
        }
    }
}
