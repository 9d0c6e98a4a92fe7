package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * States in PostgreSQL, laid out as Terraform's {@code pg} backend lays them out so that both can share
 * a database: table {@code <schema>.states(id, name, data)}, one row per workspace, locked with
 * {@code pg_try_advisory_lock(id)} held by the session (a crashed client's lock disappears with its
 * connection). Strata adds {@code state_locks} (who holds a lock, so waiters can be told; Terraform
 * keeps that only in the holder's memory) and {@code state_history} (every serial ever written).
 */
public final class PgBackend implements Backend {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PgBackend.class);
    public static final String DEFAULT_SCHEMA = "terraform_remote_state";
    private static final Pattern SCHEMA_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final String jdbcUrl;
    private final Properties props;
    private final String schema;
    private final String version;
    private final LockTiming timing;
    private final Encryption encryption;

    private PgBackend(
            String jdbcUrl, Properties props, String schema, String version, LockTiming timing, Encryption encryption) {
        this.encryption = encryption;
        this.jdbcUrl = jdbcUrl;
        this.props = props;
        this.schema = schema;
        this.version = version;
        this.timing = timing;
    }

    /**
     * Connects, creating the schema and tables if needed. {@code connStr} is a libpq URL
     * ({@code postgres://user:pass@host:5432/db?sslmode=disable}, as Terraform's pg backend takes) or a
     * JDBC URL; when null, {@code PG_CONN_STR} from {@code env} is used.
     */
    public static Result<PgBackend> connect(
            String connStr, String schemaName, java.util.Map<String, String> env, String version) {
        String cs = connStr == null || connStr.isEmpty() ? env.get("PG_CONN_STR") : connStr;
        if (cs == null || cs.isEmpty()) {
            return fail(
                    "Missing PostgreSQL connection string",
                    "Set conn_str in the backend \"pg\" block or the "
                            + "PG_CONN_STR environment variable, e.g. postgres://user:password@localhost/terraform_backend?sslmode=disable.");
        }
        String schema = schemaName == null || schemaName.isEmpty()
                ? env.getOrDefault("PG_SCHEMA_NAME", DEFAULT_SCHEMA)
                : schemaName;
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            return fail(
                    "Invalid schema_name",
                    "\"" + schema + "\" is not a plain PostgreSQL identifier (letters, digits and _, at most 63).");
        }
        Properties props = new Properties();
        String url;
        try {
            url = jdbcUrl(cs, props);
        } catch (URISyntaxException | IllegalArgumentException e) {
            return fail(
                    "Invalid PostgreSQL connection string",
                    "The connection string is not a postgres:// or " + "jdbc:postgresql:// URL: " + e.getMessage()
                            + ".");
        }
        PgBackend b = new PgBackend(url, props, schema, version, LockTiming.DEFAULT, Encryption.NONE);
        try (Connection c = b.connection()) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
                st.execute("CREATE TABLE IF NOT EXISTS " + schema
                        + ".states (id bigserial primary key, name text, data text)");
                st.execute("CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON " + schema + ".states (name)");
                st.execute("CREATE TABLE IF NOT EXISTS " + schema
                        + ".state_locks (name text primary key, info text not null)");
                st.execute("CREATE TABLE IF NOT EXISTS " + schema
                        + ".state_history (name text not null, lineage text not null, "
                        + "serial bigint not null, written_at timestamptz not null default now(), data text not null, "
                        + "primary key (name, lineage, serial))");
                st.execute(
                        "CREATE TABLE IF NOT EXISTS " + schema + ".state_journal (name text not null, seq bigserial, "
                                + "entry text not null, primary key (name, seq))");
            }
        } catch (SQLException e) {
            return Result.of(null, Diagnostics.of(b.sqlError("Failed to prepare the PostgreSQL backend", e)));
        }
        return Result.of(b);
    }

    PgBackend withTiming(LockTiming t) {
        return new PgBackend(jdbcUrl, props, schema, version, t, encryption);
    }

    /** The same backend, storing states encrypted (or reading them) as {@code e} says. */
    public PgBackend withEncryption(Encryption e) {
        return new PgBackend(jdbcUrl, props, schema, version, timing, e);
    }

    Encryption encryption() {
        return encryption;
    }

    static String jdbcUrl(String cs, Properties props) throws URISyntaxException {
        if (cs.startsWith("jdbc:postgresql:")) {
            return cs;
        }
        if (!cs.startsWith("postgres://") && !cs.startsWith("postgresql://")) {
            throw new IllegalArgumentException("it must start with postgres:// (key=value strings are not supported)");
        }
        URI u = new URI(cs);
        if (u.getRawUserInfo() != null) {
            String[] ui = u.getRawUserInfo().split(":", 2);
            props.setProperty("user", URLDecoder.decode(ui[0], StandardCharsets.UTF_8));
            if (ui.length > 1) {
                props.setProperty("password", URLDecoder.decode(ui[1], StandardCharsets.UTF_8));
            }
        }
        if (u.getHost() == null) {
            throw new IllegalArgumentException("it names no host");
        }
        String db = u.getPath() == null || u.getPath().length() <= 1
                ? ""
                : u.getPath().substring(1);
        if (u.getRawQuery() != null) {
            for (String kv : u.getRawQuery().split("&")) {
                String[] p = kv.split("=", 2);
                if (p.length == 2) {
                    String v = URLDecoder.decode(p[1], StandardCharsets.UTF_8);
                    // libpq's sslmode=disable means no TLS; the JDBC driver spells it the same.
                    props.setProperty(p[0], v);
                }
            }
        }
        return "jdbc:postgresql://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "") + "/" + db;
    }

    Connection connection() throws SQLException {
        Properties p = new Properties();
        p.putAll(props);
        p.putIfAbsent("connectTimeout", "10");
        p.putIfAbsent("ApplicationName", "strata");
        long started = System.nanoTime();
        try {
            Connection c = DriverManager.getConnection(jdbcUrl, p);
            LOG.debug("connected to PostgreSQL at {} in {} ms", where(), (System.nanoTime() - started) / 1_000_000);
            return c;
        } catch (SQLException e) {
            String reason = connectReason(e);
            LOG.debug(
                    "connecting to PostgreSQL at {} failed after {} ms: {}",
                    where(),
                    (System.nanoTime() - started) / 1_000_000,
                    reason != null ? reason : "SQLSTATE " + e.getSQLState());
            throw e;
        }
    }

    /** Server and database, without credentials (they are in the properties, never in the URL we build). */
    private String where() {
        return jdbcUrl.replaceFirst("^jdbc:postgresql://", "").replaceFirst("\\?.*$", "");
    }

    /** A diagnostic that says what to do, for the failures people meet: unreachable server, bad password, missing grants. */
    Diagnostic sqlError(String summary, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String where = where();
        String detail;
        String unreachable = connectReason(e);
        if (unreachable != null) {
            detail = "Could not connect to PostgreSQL at " + where + ": " + unreachable
                    + ". Check that the server runs and accepts connections there, and the conn_str (or PG_CONN_STR).";
        } else if (state.startsWith("08")) {
            detail = "Could not connect to PostgreSQL at " + where + ": " + e.getMessage()
                    + " Check that the server runs and accepts connections there, and the conn_str (or PG_CONN_STR).";
        } else if (state.equals("28P01") || state.equals("28000")) {
            detail = "PostgreSQL at " + where + " refused the login: " + e.getMessage()
                    + ". Check the user and password in conn_str.";
        } else if (state.equals("42501")) {
            detail = "Permission denied in PostgreSQL at " + where + ": " + e.getMessage()
                    + ". The user needs CREATE on the " + "database (for the schema " + schema
                    + ") or USAGE and SELECT/INSERT/UPDATE/DELETE on its tables.";
        } else if (state.equals("3D000")) {
            detail = "The database in conn_str does not exist at " + where + ": " + e.getMessage()
                    + ". Create it first.";
        } else {
            detail = "PostgreSQL at " + where + " reported: " + e.getMessage()
                    + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")") + ".";
        }
        return Diagnostic.error(summary, detail, null);
    }

    /**
     * Why no connection could be made, in words, from the driver's cause chain; null when the failure
     * is not a connect failure. The driver's own texts name Java exceptions or say only "The connection
     * attempt failed.", which tells a user nothing.
     */
    static String connectReason(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            switch (t) {
                case java.net.UnknownHostException u -> {
                    return "host name not found (DNS lookup failed)";
                }
                case java.net.NoRouteToHostException n -> {
                    return "no route to host";
                }
                case java.net.ConnectException c -> {
                    String m = c.getMessage() == null ? "" : c.getMessage().toLowerCase(java.util.Locale.ROOT);
                    return m.contains("timed out") ? "connection timed out" : "connection refused";
                }
                case java.net.SocketTimeoutException s
                when "08001".equals(e.getSQLState()) -> {
                    return "connection timed out";
                }
                case javax.net.ssl.SSLHandshakeException h -> {
                    return "TLS handshake failed";
                }
                default -> {}
            }
        }
        return null;
    }

    String schema() {
        return schema;
    }

    /** Where the states are: server, database and schema (no credentials). */
    String location() {
        return jdbcUrl + "#" + schema;
    }

    String version() {
        return version;
    }

    @Override
    public Result<List<String>> workspaces() {
        List<String> names = new ArrayList<>();
        names.add(Workspaces.DEFAULT);
        try (Connection c = connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name FROM " + schema + ".states ORDER BY name")) {
            while (rs.next()) {
                if (!rs.getString(1).equals(Workspaces.DEFAULT)) {
                    names.add(rs.getString(1));
                }
            }
            return Result.of(List.copyOf(names));
        } catch (SQLException e) {
            return Result.of(names, Diagnostics.of(sqlError("Failed to list workspaces", e)));
        }
    }

    @Override
    public Result<String> createWorkspace(String name) {
        Diagnostic bad = Workspaces.checkName(name);
        if (bad != null) {
            return Result.of(name, Diagnostics.of(bad));
        }
        try (Connection c = connection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema
                        + ".states (name, data) VALUES (?, '') ON CONFLICT (name) DO NOTHING")) {
            ps.setString(1, name);
            if (ps.executeUpdate() == 0 || name.equals(Workspaces.DEFAULT)) {
                return Result.of(
                        name,
                        Diagnostics.of(Diagnostic.error(
                                "Workspace already exists", "Workspace \"" + name + "\" already exists.", null)));
            }
            return Result.of(name);
        } catch (SQLException e) {
            return Result.of(name, Diagnostics.of(sqlError("Failed to create workspace", e)));
        }
    }

    @Override
    public Result<String> deleteWorkspace(String name) {
        if (name.equals(Workspaces.DEFAULT)) {
            return Result.of(name, Diagnostics.of(Workspaces.defaultCannotBeDeleted()));
        }
        try (Connection c = connection();
                PreparedStatement ps = c.prepareStatement("DELETE FROM " + schema + ".states WHERE name = ?")) {
            ps.setString(1, name);
            if (ps.executeUpdate() == 0) {
                return Result.of(name, Diagnostics.of(Workspaces.notFound(name)));
            }
            return Result.of(name);
        } catch (SQLException e) {
            return Result.of(name, Diagnostics.of(sqlError("Failed to delete workspace", e)));
        }
    }

    @Override
    public Result<StateManager> open(String workspace, LockRequest request) {
        Diagnostic bad = Workspaces.checkName(workspace);
        if (bad != null) {
            return Result.of(null, Diagnostics.of(bad));
        }
        Connection c = null;
        try {
            c = connection();
            long id = rowId(c, workspace);
            if (id < 0) {
                c.close();
                return Result.of(null, Diagnostics.of(Workspaces.notCreated(workspace)));
            }
            Diagnostics warnings = Diagnostics.NONE;
            LockInfo lock = null;
            if (request.enabled()) {
                Result<LockInfo> l = lock(c, workspace, id, request);
                if (l.hasErrors()) {
                    c.close();
                    return Result.of(null, l.diagnostics());
                }
                lock = l.value();
                warnings = l.diagnostics();
            }
            Result<PgStateManager.Loaded> loaded = PgStateManager.load(c, schema, workspace, encryption);
            if (loaded.hasErrors()) {
                PgStateManager.unlock(c, schema, workspace, id, lock);
                c.close();
                return Result.of(null, warnings.with(loaded.diagnostics()));
            }
            PgStateManager m = new PgStateManager(this, c, workspace, id, lock, loaded.value());
            Diagnostics journal = m.loadJournal();
            if (journal.hasErrors()) {
                m.close();
                return Result.of(null, warnings.with(journal));
            }
            return Result.of(m, warnings.with(journal));
        } catch (SQLException e) {
            closeQuietly(c);
            return Result.of(null, Diagnostics.of(sqlError("Failed to open the state", e)));
        }
    }

    /** The row id of a workspace; the default workspace's row is created on first use. -1 if it does not exist. */
    private long rowId(Connection c, String workspace) throws SQLException {
        if (workspace.equals(Workspaces.DEFAULT)) {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO " + schema + ".states (name, data) VALUES (?, '') ON CONFLICT (name) DO NOTHING")) {
                ps.setString(1, workspace);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + schema + ".states WHERE name = ?")) {
            ps.setString(1, workspace);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    private Result<LockInfo> lock(Connection c, String workspace, long id, LockRequest request) throws SQLException {
        LockWait wait = new LockWait(request, timing);
        while (true) {
            boolean got;
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    got = rs.getBoolean(1);
                }
            }
            if (got) {
                Instant now = timing.clock().instant();
                LockInfo previous = readLockInfo(c, workspace);
                LockInfo mine = new LockInfo(
                        UUID.randomUUID().toString(),
                        request.operation(),
                        request.info(),
                        Hosts.who(),
                        version,
                        now,
                        schema + ".states/" + workspace,
                        Hosts.hostName(),
                        Hosts.pid(),
                        Hosts.processStart(),
                        now);
                try (PreparedStatement ps =
                        c.prepareStatement("INSERT INTO " + schema + ".state_locks (name, info) VALUES (?, ?) "
                                + "ON CONFLICT (name) DO UPDATE SET info = excluded.info")) {
                    ps.setString(1, workspace);
                    ps.setString(2, new String(mine.toJson(), StandardCharsets.UTF_8));
                    ps.executeUpdate();
                }
                LOG.debug(
                        "lock {} on PostgreSQL {}.states[{}] acquired for {} in {} ms",
                        mine.id(),
                        schema,
                        workspace,
                        request.operation(),
                        wait.waited().toMillis());
                Diagnostics warnings = previous == null
                        ? Diagnostics.NONE
                        : Diagnostics.of(Diagnostic.warning(
                                "Previous lock holder ended without unlocking",
                                "Lock " + previous.id() + " of " + previous.who() + " for " + previous.operation()
                                        + " was not released; its database session has ended, which released the lock. If that "
                                        + "operation was interrupted, check that the state matches your infrastructure (strata plan) before applying.",
                                null));
                return Result.of(mine, warnings);
            }
            if (wait.expired()) {
                LockInfo holder = readLockInfo(c, workspace);
                String who = holder == null
                        ? "another session (not Strata, or one that has not recorded itself yet)"
                        : holder.who() + (holder.pid() > 0 ? " (pid " + holder.pid() + ")" : "") + " for "
                                + holder.operation() + ", held for "
                                + Durations.human(holder.age(timing.clock().instant()));
                StringBuilder d = new StringBuilder("Error message: the state is locked by " + who + ".\n");
                if (holder != null) {
                    d.append(holder.describe());
                }
                if (!request.timeout().isZero()) {
                    d.append("\nGave up after waiting ")
                            .append(Durations.human(wait.waited()))
                            .append(".\n");
                }
                d.append(
                        "\nThe lock is a PostgreSQL advisory lock held by the holder's database session; it is released "
                                + "when that session ends, even if the holder crashed. For most commands, you can disable locking "
                                + "with the \"-lock=false\" flag, but this is not recommended.");
                return Result.of(
                        null, Diagnostics.of(Diagnostic.error("Error acquiring the state lock", d.toString(), null)));
            }
            if (LOG.isDebugEnabled()) {
                LockInfo holder = readLockInfo(c, workspace);
                LOG.debug(
                        "lock on PostgreSQL {}.states[{}] is busy: held by {}; waited {} ms, next try in {} ms",
                        schema,
                        workspace,
                        holder == null
                                ? "an unknown session"
                                : holder.who() + " (pid " + holder.pid() + ", " + holder.operation() + ", lock "
                                        + holder.id() + ")",
                        wait.waited().toMillis(),
                        wait.backoff().toMillis());
            }
            if (!wait.pause()) {
                return Result.of(null, Diagnostics.of(LockWait.interrupted()));
            }
        }
    }

    LockInfo readLockInfo(Connection c, String workspace) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT info FROM " + schema + ".state_locks WHERE name = ?")) {
            ps.setString(1, workspace);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? LockInfo.parse(rs.getString(1).getBytes(StandardCharsets.UTF_8), "state_locks")
                                .value()
                        : null;
            }
        }
    }

    /**
     * Removes a recorded lock whose session has ended. A lock held by a live session cannot be broken
     * from outside (as with Terraform's pg backend); it ends with that session.
     */
    @Override
    public Result<LockInfo> forceUnlock(String workspace, String lockId) {
        try (Connection c = connection()) {
            long id = rowId(c, workspace);
            LockInfo holder = readLockInfo(c, workspace);
            if (id < 0 || holder == null) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Failed to unlock state",
                                "The state of workspace \"" + workspace + "\" is not locked.",
                                null)));
            }
            if (!holder.id().equals(lockId)) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Failed to unlock state",
                                "Lock ID \"" + lockId + "\" does not match the existing lock ID \"" + holder.id()
                                        + "\".",
                                null)));
            }
            boolean free;
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    free = rs.getBoolean(1);
                }
            }
            if (!free) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Failed to unlock state",
                                "The lock is held by a live "
                                        + "database session of " + holder.who()
                                        + ". It is released when that session ends; stop the process "
                                        + "holding it, or end its session with pg_terminate_backend.",
                                null)));
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + schema + ".state_locks WHERE name = ?")) {
                ps.setString(1, workspace);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                ps.setLong(1, id);
                ps.execute();
            }
            return Result.of(holder);
        } catch (SQLException e) {
            return Result.of(null, Diagnostics.of(sqlError("Failed to unlock state", e)));
        }
    }

    /** One stored serial of a workspace. */
    public record HistoryEntry(String lineage, long serial, Instant writtenAt, long bytes) {}

    /** Every snapshot written to a workspace, newest first. */
    public Result<List<HistoryEntry>> history(String workspace) {
        List<HistoryEntry> out = new ArrayList<>();
        try (Connection c = connection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT lineage, serial, written_at, " + "octet_length(data) FROM " + schema
                                + ".state_history WHERE name = ? ORDER BY written_at DESC, serial DESC")) {
            ps.setString(1, workspace);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new HistoryEntry(
                            rs.getString(1), rs.getLong(2), rs.getTimestamp(3).toInstant(), rs.getLong(4)));
                }
            }
            return Result.of(out);
        } catch (SQLException e) {
            return Result.of(out, Diagnostics.of(sqlError("Failed to read the state history", e)));
        }
    }

    /** A snapshot from the history, to inspect or to restore with {@link StateManager#replace}. */
    public Result<StateSnapshot> historic(String workspace, String lineage, long serial) {
        try (Connection c = connection();
                PreparedStatement ps = c.prepareStatement("SELECT data FROM " + schema
                        + ".state_history WHERE name = ? AND lineage = ? AND serial = ?")) {
            ps.setString(1, workspace);
            ps.setString(2, lineage);
            ps.setLong(3, serial);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return fail(
                            "No such state in the history",
                            "Workspace \"" + workspace + "\" has no stored serial " + serial + " of lineage " + lineage
                                    + ".");
                }
                return encryption.decode(
                        rs.getString(1).getBytes(StandardCharsets.UTF_8), "history serial " + serial, "");
            }
        } catch (SQLException e) {
            return Result.of(null, Diagnostics.of(sqlError("Failed to read the state history", e)));
        }
    }

    private static <T> Result<T> fail(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }

    static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing ends the session, which releases its advisory locks either way
            }
        }
    }
}
