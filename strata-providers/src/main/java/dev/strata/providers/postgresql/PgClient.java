package dev.strata.providers.postgresql;

import dev.strata.provider.ConnectionFailure;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connections to the configured server, one per operation and database, and SQL helpers. SQL text
 * is never put in a diagnostic, since it may carry a password.
 */
final class PgClient {

    private static final Logger LOG = LoggerFactory.getLogger(PgClient.class);

    private final String host;
    private final int port;
    private final String defaultDatabase;
    private final Properties props;
    final String username;

    final String sslmode;

    PgClient(
            String host,
            int port,
            String database,
            String username,
            String password,
            String sslmode,
            int connectTimeout,
            java.util.Map<String, String> tls) {
        this.host = host;
        this.sslmode = sslmode;
        this.port = port;
        this.defaultDatabase = database;
        this.username = username;
        this.props = new Properties();
        props.setProperty("user", username);
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("sslmode", sslmode);
        props.setProperty("connectTimeout", Integer.toString(connectTimeout));
        props.setProperty("ApplicationName", "strata");
        tls.forEach(props::setProperty);
    }

    /** Where it connects, for diagnostics and tests: host:port/database as user (never the password). */
    String describe() {
        return username + "@" + host + ":" + port + "/" + defaultDatabase + "?sslmode=" + sslmode;
    }

    String defaultDatabase() {
        return defaultDatabase;
    }

    Connection connect(String database) throws SQLException {
        String db = database == null ? defaultDatabase : database;
        String url = "jdbc:postgresql://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/"
                + java.net.URLEncoder.encode(db, java.nio.charset.StandardCharsets.UTF_8);
        long started = System.nanoTime();
        try {
            Connection c = DriverManager.getConnection(url, props);
            LOG.debug(
                    "postgresql provider: connected to {}:{} database {} in {} ms",
                    host,
                    port,
                    db,
                    (System.nanoTime() - started) / 1_000_000);
            return c;
        } catch (SQLException e) {
            Optional<ConnectionFailure> f = ConnectionFailure.of(host + ":" + port, e);
            LOG.debug(
                    "postgresql provider: connecting to {}:{} failed after {} ms: {}",
                    host,
                    port,
                    (System.nanoTime() - started) / 1_000_000,
                    f.map(ConnectionFailure::reason).orElse("SQLSTATE " + e.getSQLState()));
            if (f.isPresent()) {
                throw new Unreachable(f.get(), e);
            }
            throw e;
        }
    }

    /**
     * The server could not be reached at all (refused, unknown host, no route, timed out, TLS): not a
     * transient database condition, so the engine does not retry it for minutes.
     */
    static final class Unreachable extends SQLException {
        Unreachable(ConnectionFailure f, SQLException cause) {
            super(f.message(), "08001", cause);
        }
    }

    static String ident(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Runs a query with string parameters and returns the first column of each row. */
    static List<String> column(Connection c, String sql, String... params) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    static <T> Optional<T> row(Connection c, String sql, RowReader<T> reader, String... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setString(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(reader.read(rs)) : Optional.empty();
            }
        }
    }

    static int serverVersion(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseMajorVersion();
    }

    /**
     * A database error as a diagnostic: a server that cannot be reached is permanent; a lost
     * connection, lack of resources, serialization
     * failures and deadlocks are transient; the rest permanent. {@code quoteServer} is false where the
     * statement carried a secret, so only the SQLSTATE is shown.
     */
    static ProviderDiagnostic error(String summary, SQLException e, boolean quoteServer) {
        if (e instanceof Unreachable) {
            return ProviderDiagnostic.error(
                    summary,
                    "PostgreSQL " + e.getMessage() + ". Check that the server is running "
                            + "and accepts connections there, and the provider's host and port.");
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String detail = (quoteServer && e.getMessage() != null ? e.getMessage() : "The server rejected the statement.")
                + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")");
        boolean transientError = state.startsWith("08")
                || state.startsWith("53")
                || state.equals("57P03")
                || state.equals("40001")
                || state.equals("40P01");
        return transientError
                ? ProviderDiagnostic.transientError(summary, detail, (Failure.Transient) Failure.transientFailure())
                : ProviderDiagnostic.error(summary, detail);
    }

    static void report(ProviderDiagnostics.Builder diags, String summary, SQLException e) {
        diags.add(error(summary, e, true));
    }
}
