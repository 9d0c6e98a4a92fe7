package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Result;
import dev.strata.testing.PostgresServer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Drift reports beside the pg backend's state history (skipped where PostgreSQL is not installed). */
class PgDriftReportsTest {

    private static PgBackend backend(String suffix) {
        String schema = "strata_drift_" + ProcessHandle.current().pid() + "_" + suffix;
        Result<PgBackend> r = PgBackend.connect(PostgresServer.trusting().url(), schema, Map.of(), "0.1.0");
        assertThat(r.diagnostics().asList()).isEmpty();
        return r.value();
    }

    @Test
    void storesReportsPerWorkspaceAndListsThemNewestFirst() {
        PgBackend b = backend("list");
        PgDriftReports reports = PgDriftReports.of(b);
        assertThat(reports.list("default").value()).isEmpty();
        Instant t0 = Instant.parse("2026-11-26T10:00:00Z");
        long first = reports.store("default", "lin", 3, t0, 2, 0, "{\"drifted\":false}")
                .value();
        long second = reports.store("default", "lin", 4, t0.plusSeconds(60), 2, 1, "{\"drifted\":true}")
                .value();
        reports.store("other", "lin2", 1, t0.plusSeconds(30), 1, 1, "{}");
        List<PgDriftReports.Entry> listed = reports.list("default").value();
        assertThat(listed).extracting(PgDriftReports.Entry::id).containsExactly(second, first);
        PgDriftReports.Entry newest = listed.get(0);
        assertThat(newest.serial()).isEqualTo(4);
        assertThat(newest.lineage()).isEqualTo("lin");
        assertThat(newest.checkedAt()).isEqualTo(t0.plusSeconds(60));
        assertThat(newest.checked()).isEqualTo(2);
        assertThat(newest.drifted()).isEqualTo(1);
        assertThat(newest.report()).isEqualTo("{\"drifted\":true}");
        assertThat(reports.list("other").value()).hasSize(1);
    }

    @Test
    void foundThroughAPgStateButNotALocalOne() throws Exception {
        PgBackend b = backend("of");
        try (StateManager m = b.open("default", LockRequest.none()).value()) {
            assertThat(PgDriftReports.of(m)).isPresent();
            PgDriftReports.of(m).get().store("default", "l", 0, Instant.now(), 0, 0, "{}");
            assertThat(PgDriftReports.of(b).list("default").value()).hasSize(1);
        }
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("drift-local");
        try (StateManager m = LocalBackend.in(dir, "0.1.0")
                .open("default", LockRequest.none())
                .value()) {
            assertThat(PgDriftReports.of(m)).isEmpty();
        }
    }
}
