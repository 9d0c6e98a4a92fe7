package dev.strata.state;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Drift reports kept beside the state history of the PostgreSQL backend: table
 * {@code <schema>.drift_reports}, one row per report with the workspace, the lineage and serial of
 * the state it was checked against, when it was made, its counts and the report document itself. The
 * table is created on first use, as the backend creates its own, so that a database set up by an
 * older Strata (or by Terraform) gains it without a migration step.
 */
public final class PgDriftReports {
    private final PgBackend backend;

    private PgDriftReports(PgBackend backend) {
        this.backend = backend;
    }

    /** The reports of {@code backend}'s database. */
    public static PgDriftReports of(PgBackend backend) {
        return new PgDriftReports(backend);
    }

    /** The reports of the database {@code state} was read from; empty unless it is the pg backend's. */
    public static Optional<PgDriftReports> of(StateManager state) {
        return state instanceof PgStateManager p ? Optional.of(new PgDriftReports(p.backend())) : Optional.empty();
    }

    /** One stored report; {@code report} is the JSON document as {@code strata drift -json} prints it. */
    public record Entry(
            long id,
            String workspace,
            String lineage,
            long serial,
            Instant checkedAt,
            int checked,
            int drifted,
            String report) {}

    /** Stores a report of {@code workspace} checked against the state {@code lineage}/{@code serial}. */
    public Result<Long> store(
            String workspace, String lineage, long serial, Instant checkedAt, int checked, int drifted, String json) {
        try (Connection c = backend.connection()) {
            create(c);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table()
                    + " (name, lineage, serial, checked_at, checked, drifted, report) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    + " RETURNING id")) {
                ps.setString(1, workspace);
                ps.setString(2, lineage);
                ps.setLong(3, serial);
                ps.setTimestamp(4, Timestamp.from(checkedAt));
                ps.setInt(5, checked);
                ps.setInt(6, drifted);
                ps.setString(7, json);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return Result.of(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            return Result.of(null, Diagnostics.of(backend.sqlError("Failed to store the drift report", e)));
        }
    }

    /** Every report of {@code workspace}, newest first (ties in time: the later stored first). */
    public Result<List<Entry>> list(String workspace) {
        List<Entry> out = new ArrayList<>();
        try (Connection c = backend.connection()) {
            create(c);
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT id, name, lineage, serial, checked_at, checked, drifted, report FROM "
                            + table() + " WHERE name = ? ORDER BY checked_at DESC, id DESC")) {
                ps.setString(1, workspace);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Entry(
                                rs.getLong(1),
                                rs.getString(2),
                                rs.getString(3),
                                rs.getLong(4),
                                rs.getTimestamp(5).toInstant(),
                                rs.getInt(6),
                                rs.getInt(7),
                                rs.getString(8)));
                    }
                }
            }
            return Result.of(List.copyOf(out));
        } catch (SQLException e) {
            return Result.of(List.of(), Diagnostics.of(backend.sqlError("Failed to read the drift reports", e)));
        }
    }

    private String table() {
        return backend.schema() + ".drift_reports";
    }

    private void create(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + table()
                    + " (id bigserial primary key, name text not null, lineage text not null, serial bigint not null, "
                    + "checked_at timestamptz not null, checked integer not null, drifted integer not null, "
                    + "report text not null)");
            st.execute("CREATE INDEX IF NOT EXISTS drift_reports_by_name ON " + table() + " (name, checked_at)");
        }
    }
}
