package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * {@link StateManager} of the PostgreSQL backend. It owns one connection for its whole life: the
 * advisory lock belongs to that session, so losing the connection means losing the lock, and every
 * write checks the connection first.
 */
final class PgStateManager implements StateManager {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PgStateManager.class);
    private final PgBackend backend;
    private final Connection connection;
    private final String workspace;
    private final long rowId;
    private final LockInfo lock;
    private StateSnapshot state;
    private boolean exists;
    /** md5 of the row's data as last read or written: a writer that ignored the lock changes it. */
    private String dataMd5;

    private boolean closed;
    private int journalSize;
    private final OpenIntents openIntents = new OpenIntents();

    record Loaded(StateSnapshot snapshot, String md5) {}

    PgStateManager(
            PgBackend backend, Connection connection, String workspace, long rowId, LockInfo lock, Loaded loaded) {
        this.backend = backend;
        this.connection = connection;
        this.workspace = workspace;
        this.rowId = rowId;
        this.lock = lock;
        this.exists = loaded.snapshot() != null;
        this.state = exists ? loaded.snapshot() : StateSnapshot.empty(backend.version());
        this.dataMd5 = loaded.md5();
    }

    /** The backend this state was read from (its drift reports live beside it). */
    PgBackend backend() {
        return backend;
    }

    static Result<Loaded> load(Connection c, String schema, String workspace, Encryption encryption)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT data FROM " + schema + ".states WHERE name = ?")) {
            ps.setString(1, workspace);
            try (ResultSet rs = ps.executeQuery()) {
                String data = rs.next() ? rs.getString(1) : null;
                if (data == null || data.isEmpty()) {
                    return Result.of(new Loaded(null, md5(data == null ? "" : data)));
                }
                Result<StateSnapshot> r = encryption.decode(
                        data.getBytes(StandardCharsets.UTF_8),
                        schema + ".states[" + workspace + "]",
                        "Earlier serials are kept in " + schema + ".state_history.");
                LOG.debug(
                        "state read from PostgreSQL {}.states[{}]: {} bytes, serial {}",
                        schema,
                        workspace,
                        data.length(),
                        r.value() == null ? "-" : r.value().serial());
                return r.hasErrors() ? Result.of(null, r.diagnostics()) : Result.of(new Loaded(r.value(), md5(data)));
            }
        }
    }

    static String md5(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    @Override
    public String workspace() {
        return workspace;
    }

    @Override
    public synchronized StateSnapshot state() {
        return state;
    }

    @Override
    public synchronized boolean exists() {
        return exists;
    }

    @Override
    public LockInfo lock() {
        return lock;
    }

    @Override
    public synchronized Result<StateSnapshot> persist(StateSnapshot next) {
        Result<StateSnapshot> refused = WriteChecks.persist(exists, state, next, "workspace \"" + workspace + "\"");
        if (refused != null) {
            return refused;
        }
        return write(next, false, false);
    }

    @Override
    public synchronized Result<StateSnapshot> replace(StateSnapshot incoming, boolean force) {
        Result<StateSnapshot> refused = WriteChecks.replace(exists, state, incoming, force);
        if (refused != null) {
            return refused;
        }
        return write(incoming, true, false);
    }

    private Result<StateSnapshot> write(StateSnapshot next, boolean lineageMayChange, boolean placeholder) {
        if (closed) {
            throw new IllegalStateException("state manager of workspace " + workspace + " is closed");
        }
        boolean sameHistory = next.lineage().equals(state.lineage());
        if (exists && sameHistory && next.sameContentAs(state) && journalSize == 0) {
            return Result.of(state);
        }
        long serial = WriteChecks.serial(exists, lineageMayChange, placeholder, next, state);
        StateSnapshot toWrite = next.withSerial(serial).withTerraformVersion(backend.version());
        if (!lineageMayChange) {
            toWrite = toWrite.withLineage(state.lineage());
        }
        String schema = backend.schema();
        try {
            if (lock != null && !connection.isValid(10)) {
                return WriteChecks.lockLost("The database session holding the lock of workspace \"" + workspace
                        + "\" has ended, and with it the lock");
            }
            long started = System.nanoTime();
            String data = new String(backend.encryption().encode(toWrite), StandardCharsets.UTF_8);
            connection.setAutoCommit(false);
            try {
                String current;
                try (PreparedStatement ps = connection.prepareStatement(
                        "SELECT md5(coalesce(data, '')) FROM " + schema + ".states WHERE name = ? FOR UPDATE")) {
                    ps.setString(1, workspace);
                    try (ResultSet rs = ps.executeQuery()) {
                        current = rs.next() ? rs.getString(1) : null;
                    }
                }
                if (current == null) {
                    connection.rollback();
                    return error(
                            "Workspace does not exist",
                            "Workspace \"" + workspace + "\" was deleted while it was open.");
                }
                if (!Objects.equals(current, dataMd5)) {
                    connection.rollback();
                    return WriteChecks.changedSinceRead(
                            "The state of workspace \"" + workspace + "\"",
                            "client",
                            lock == null ? " (locking is off: -lock=false)" : "");
                }
                try (PreparedStatement ps =
                        connection.prepareStatement("UPDATE " + schema + ".states SET data = ? WHERE name = ?")) {
                    ps.setString(1, data);
                    ps.setString(2, workspace);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + schema + ".state_history "
                        + "(name, lineage, serial, data) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                    ps.setString(1, workspace);
                    ps.setString(2, toWrite.lineage());
                    ps.setLong(3, toWrite.serial());
                    ps.setString(4, data);
                    ps.executeUpdate();
                }
                // The snapshot now holds every journaled change: empty the journal in the same transaction.
                try (PreparedStatement ps =
                        connection.prepareStatement("DELETE FROM " + schema + ".state_journal WHERE name = ?")) {
                    ps.setString(1, workspace);
                    ps.executeUpdate();
                }
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
            LOG.debug(
                    "state written to PostgreSQL {}.states[{}]: serial {}, {} bytes, in {} ms",
                    schema,
                    workspace,
                    serial,
                    data.length(),
                    (System.nanoTime() - started) / 1_000_000);
            dataMd5 = md5(data);
            state = toWrite;
            exists = true;
            journalSize = 0;
            Result<StateSnapshot> failed = openIntents.reappend(this::append);
            return failed != null ? failed : Result.of(state);
        } catch (SQLException e) {
            return Result.of(null, Diagnostics.of(backend.sqlError("Failed to write the state", e)));
        }
    }

    /** Replays the journal rows over the snapshot; rows already folded in (a crashed compaction) are removed. */
    synchronized Diagnostics loadJournal() {
        String schema = backend.schema();
        StringBuilder lines = new StringBuilder();
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT entry FROM " + schema + ".state_journal WHERE name = ? ORDER BY seq")) {
            ps.setString(1, workspace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.append(rs.getString(1)).append('\n');
                }
            }
        } catch (SQLException e) {
            return Diagnostics.of(backend.sqlError("Failed to read the state journal", e));
        }
        if (lines.isEmpty()) {
            return Diagnostics.NONE;
        }
        if (!exists) {
            return Diagnostics.of(Diagnostic.error(
                    "State journal without a state",
                    "Workspace \"" + workspace + "\" has journal entries but no snapshot to replay them on.",
                    null));
        }
        Result<Journal.Replay> r = Journal.replay(
                state, lines.toString().getBytes(StandardCharsets.UTF_8), "state_journal[" + workspace + "]");
        if (r.hasErrors()) {
            return r.diagnostics();
        }
        state = r.value().state();
        journalSize = r.value().applied();
        openIntents.addAll(r.value().openIntents());
        if (r.value().stale() && journalSize == 0 && lock != null) {
            try (PreparedStatement ps =
                    connection.prepareStatement("DELETE FROM " + schema + ".state_journal WHERE name = ?")) {
                ps.setString(1, workspace);
                ps.executeUpdate();
            } catch (SQLException e) {
                return Diagnostics.of(backend.sqlError("Failed to clean the state journal", e));
            }
        }
        return Diagnostics.NONE;
    }

    @Override
    public synchronized Result<StateSnapshot> append(JournalEntry entry) {
        if (lock == null) {
            return WriteChecks.journalNeedsLock("workspace \"" + workspace + "\"", "");
        }
        if (!exists) {
            // The journal needs a snapshot to extend. This empty one keeps serial 0, so that the first
            // compaction writes serial 1, as Terraform's first write does.
            Result<StateSnapshot> first = write(state, false, true);
            if (first.hasErrors()) {
                return first;
            }
        }
        long started = System.nanoTime();
        try {
            if (!connection.isValid(10)) {
                return error(
                        "State lock lost",
                        "The database session holding the lock of workspace \"" + workspace + "\" has ended.");
            }
            byte[] line = Journal.line(entry, state.lineage(), state.serial(), journalSize + 1L);
            try (PreparedStatement ps = connection.prepareStatement(
                    "INSERT INTO " + backend.schema() + ".state_journal (name, entry) VALUES (?, ?)")) {
                ps.setString(1, workspace);
                ps.setString(2, new String(line, 0, line.length - 1, StandardCharsets.UTF_8));
                ps.executeUpdate();
            }
            LOG.trace(
                    "journal append ({}) to PostgreSQL {}.state_journal[{}], {} bytes, in {} ms",
                    Journal.describe(entry),
                    backend.schema(),
                    workspace,
                    line.length,
                    (System.nanoTime() - started) / 1_000_000);
        } catch (SQLException e) {
            return Result.of(null, Diagnostics.of(backend.sqlError("Failed to append to the state journal", e)));
        }
        journalSize++;
        state = Journal.apply(state, entry);
        openIntents.track(entry);
        return Result.of(state);
    }

    @Override
    public synchronized Result<StateSnapshot> compact() {
        if (journalSize == 0) {
            return Result.of(state);
        }
        LOG.debug(
                "compacting the journal of PostgreSQL {}.states[{}]: {} entries into the snapshot",
                backend.schema(),
                workspace,
                journalSize);
        return write(state, false, false);
    }

    @Override
    public synchronized int journalSize() {
        return journalSize;
    }

    @Override
    public synchronized java.util.List<JournalEntry.Intent> openIntents() {
        return openIntents.list();
    }

    private static Result<StateSnapshot> error(String summary, String detail) {
        return WriteChecks.error(summary, detail);
    }

    static void unlock(Connection c, String schema, String workspace, long rowId, LockInfo lock) {
        if (lock == null) {
            return;
        }
        try (PreparedStatement del =
                        c.prepareStatement("DELETE FROM " + schema + ".state_locks WHERE name = ? AND info LIKE ?");
                PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            del.setString(1, workspace);
            del.setString(2, "{\"ID\":\"" + lock.id() + "\"%");
            del.executeUpdate();
            ps.setLong(1, rowId);
            ps.execute();
        } catch (SQLException e) {
            // Closing the connection ends the session, which releases the advisory lock anyway.
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            unlock(connection, backend.schema(), workspace, rowId, lock);
            if (lock != null) {
                LOG.debug(
                        "lock {} on PostgreSQL {}.states[{}] released after {} ms",
                        lock.id(),
                        backend.schema(),
                        workspace,
                        lock.age(java.time.Instant.now()).toMillis());
            }
            PgBackend.closeQuietly(connection);
        }
    }
}
