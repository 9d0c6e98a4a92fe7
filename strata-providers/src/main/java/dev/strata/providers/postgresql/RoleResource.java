package dev.strata.providers.postgresql;

import static dev.strata.providers.postgresql.PgClient.ident;
import static dev.strata.providers.postgresql.PgClient.literal;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code postgresql_role}: a role with its attributes, memberships and per-role settings. A refresh
 * reads everything back except the password, which PostgreSQL does not reveal, so changes made
 * outside Strata show up as drift. Import by role name.
 */
final class RoleResource implements ManagedResource {

    /** Boolean attributes and the keyword pair that sets them. */
    private static final Map<String, String[]> FLAGS = new LinkedHashMap<>();

    static {
        FLAGS.put("superuser", new String[] {"SUPERUSER", "NOSUPERUSER", "rolsuper"});
        FLAGS.put("create_database", new String[] {"CREATEDB", "NOCREATEDB", "rolcreatedb"});
        FLAGS.put("create_role", new String[] {"CREATEROLE", "NOCREATEROLE", "rolcreaterole"});
        FLAGS.put("inherit", new String[] {"INHERIT", "NOINHERIT", "rolinherit"});
        FLAGS.put("login", new String[] {"LOGIN", "NOLOGIN", "rolcanlogin"});
        FLAGS.put("replication", new String[] {"REPLICATION", "NOREPLICATION", "rolreplication"});
        FLAGS.put("bypass_row_level_security", new String[] {"BYPASSRLS", "NOBYPASSRLS", "rolbypassrls"});
    }

    private static final Schema SCHEMA;

    static {
        Block.Builder b = Block.builder()
                .attribute("name", Attribute.required(Type.STRING).withDescription("The name of the role"))
                .attribute(
                        "password",
                        Attribute.optional(Type.STRING).withSensitive().withDescription("Sets the role's password"))
                .attribute(
                        "encrypted_password",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Control whether the password is stored encrypted in the system catalogs"))
                .attribute(
                        "connection_limit",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription("How many concurrent connections can be made with this role"))
                .attribute(
                        "valid_until",
                        Attribute.optionalComputed(Type.STRING)
                                .withDescription(
                                        "Sets a date and time after which the role's password is no longer valid"))
                .attribute(
                        "roles",
                        Attribute.optional(Type.set(Type.STRING)).withDescription("Role(s) to grant to this new role"))
                .attribute(
                        "search_path",
                        Attribute.optional(Type.list(Type.STRING)).withDescription("Sets the role's search path"))
                .attribute(
                        "statement_timeout",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "Abort any statement that takes more than the specified number of milliseconds"))
                .attribute(
                        "idle_in_transaction_session_timeout",
                        Attribute.optionalComputed(Type.NUMBER)
                                .withDescription(
                                        "Terminate any session with an open transaction that has been idle for longer than the specified"
                                                + " duration in milliseconds"))
                .attribute("assume_role", Attribute.optional(Type.STRING).withDescription("Role to switch to at login"))
                .attribute(
                        "skip_drop_role",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Skip actually running the DROP ROLE command when removing a ROLE from PostgreSQL"))
                .attribute(
                        "skip_reassign_owned",
                        Attribute.optionalComputed(Type.BOOL)
                                .withDescription(
                                        "Skip actually running the REASSIGN OWNED command when removing a role from PostgreSQL"))
                .attribute("id", Attribute.computed(Type.STRING));
        for (String f : FLAGS.keySet()) {
            b.attribute(f, Attribute.optionalComputed(Type.BOOL));
        }
        SCHEMA = Schema.of(b.build());
    }

    private final PostgresProvider.Holder pg;

    RoleResource(PostgresProvider.Holder pg) {
        this.pg = pg;
    }

    @Override
    public String typeName() {
        return "postgresql_role";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Map<String, Value> defaults() {
        Map<String, Value> d = new LinkedHashMap<>();
        for (String f : FLAGS.keySet()) {
            d.put(f, Value.bool(f.equals("inherit")));
        }
        d.put("encrypted_password", Value.TRUE);
        d.put("connection_limit", Value.number(-1));
        d.put("valid_until", Value.string("infinity"));
        d.put("statement_timeout", Value.number(0));
        d.put("idle_in_transaction_session_timeout", Value.number(0));
        d.put("skip_drop_role", Value.FALSE);
        d.put("skip_reassign_owned", Value.FALSE);
        return d;
    }

    @Override
    public Set<String> stableComputed() {
        return Set.of("id");
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(planned, "name");
        try (Connection c = pg.client().connect(null)) {
            try {
                PgClient.exec(c, "CREATE ROLE " + ident(name) + " WITH " + options(planned, true));
            } catch (SQLException e) {
                diags.add(
                        PgClient.error("Could not create role " + name, e, Attrs.string(planned, "password") == null));
                return null;
            }
            Value state = Attrs.with(planned, "id", Value.string(name));
            try {
                applyMemberships(c, name, Set.of(), stringSet(planned, "roles"));
                applySettings(c, name, planned);
            } catch (SQLException e) {
                PgClient.report(diags, "Could not configure role " + name, e);
            }
            return state;
        } catch (SQLException e) {
            PgClient.report(diags, "Could not connect to PostgreSQL", e);
            return null;
        }
    }

    private static String options(Value v, boolean creating) {
        List<String> o = new ArrayList<>();
        FLAGS.forEach((attr, kw) -> o.add(Boolean.TRUE.equals(Attrs.bool(v, attr)) ? kw[0] : kw[1]));
        o.add("CONNECTION LIMIT " + Attrs.number(v, "connection_limit").intValue());
        String pw = Attrs.string(v, "password");
        if (pw != null) {
            o.add((Boolean.FALSE.equals(Attrs.bool(v, "encrypted_password")) ? "" : "ENCRYPTED ") + "PASSWORD "
                    + literal(pw));
        } else {
            o.add("PASSWORD NULL");
        }
        o.add("VALID UNTIL " + literal(Attrs.string(v, "valid_until", "infinity")));
        return String.join(" ", o);
    }

    private static Set<String> stringSet(Value v, String attr) {
        return new TreeSet<>(Attrs.stringList(v, attr));
    }

    private static void applyMemberships(Connection c, String name, Set<String> before, Set<String> after)
            throws SQLException {
        for (String r : before) {
            if (!after.contains(r)) {
                PgClient.exec(c, "REVOKE " + ident(r) + " FROM " + ident(name));
            }
        }
        for (String r : after) {
            if (!before.contains(r)) {
                PgClient.exec(c, "GRANT " + ident(r) + " TO " + ident(name));
            }
        }
    }

    private static void applySettings(Connection c, String name, Value v) throws SQLException {
        List<String> path = Attrs.stringList(v, "search_path");
        PgClient.exec(
                c,
                "ALTER ROLE " + ident(name)
                        + (path.isEmpty()
                                ? " RESET search_path"
                                : " SET search_path TO "
                                        + String.join(
                                                ", ",
                                                path.stream()
                                                        .map(PgClient::ident)
                                                        .toList())));
        setting(
                c,
                name,
                "statement_timeout",
                Attrs.number(v, "statement_timeout").longValue());
        setting(
                c,
                name,
                "idle_in_transaction_session_timeout",
                Attrs.number(v, "idle_in_transaction_session_timeout").longValue());
        String assume = Attrs.string(v, "assume_role");
        PgClient.exec(
                c,
                "ALTER ROLE " + ident(name)
                        + (assume == null || assume.isEmpty() ? " RESET role" : " SET role TO " + ident(assume)));
    }

    private static void setting(Connection c, String name, String key, long value) throws SQLException {
        PgClient.exec(c, "ALTER ROLE " + ident(name) + (value == 0 ? " RESET " + key : " SET " + key + " TO " + value));
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        String before = Attrs.string(prior, "name");
        String name = Attrs.string(planned, "name");
        try (Connection c = pg.client().connect(null)) {
            if (!before.equals(name)) {
                PgClient.exec(c, "ALTER ROLE " + ident(before) + " RENAME TO " + ident(name));
            }
            try {
                PgClient.exec(c, "ALTER ROLE " + ident(name) + " WITH " + options(planned, false));
            } catch (SQLException e) {
                diags.add(
                        PgClient.error("Could not update role " + name, e, Attrs.string(planned, "password") == null));
                return Attrs.with(prior, "name", Value.string(name), "id", Value.string(name));
            }
            applyMemberships(c, name, stringSet(prior, "roles"), stringSet(planned, "roles"));
            applySettings(c, name, planned);
            return Attrs.with(planned, "id", Value.string(name));
        } catch (SQLException e) {
            PgClient.report(diags, "Could not update role " + name, e);
            return null;
        }
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(prior, "name");
        try (Connection c = pg.client().connect(null)) {
            if (!Boolean.TRUE.equals(Attrs.bool(prior, "skip_reassign_owned"))) {
                PgClient.exec(c, "REASSIGN OWNED BY " + ident(name) + " TO CURRENT_USER");
                PgClient.exec(c, "DROP OWNED BY " + ident(name));
            }
            if (!Boolean.TRUE.equals(Attrs.bool(prior, "skip_drop_role"))) {
                PgClient.exec(c, "DROP ROLE IF EXISTS " + ident(name));
            }
        } catch (SQLException e) {
            PgClient.report(diags, "Could not delete role " + name, e);
        }
    }

    private record RoleRow(Map<String, Boolean> flags, int connLimit, String validUntil, List<String> config) {}

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(state, "id");
        try (Connection c = pg.client().connect(null)) {
            Optional<RoleRow> row = PgClient.row(
                    c,
                    "SELECT rolsuper, rolcreatedb, rolcreaterole, rolinherit, rolcanlogin,"
                            + " rolreplication, rolbypassrls, rolconnlimit, rolvaliduntil::text,"
                            + " (SELECT s.setconfig FROM pg_db_role_setting s WHERE s.setrole = r.oid AND s.setdatabase = 0)"
                            + " FROM pg_roles r WHERE rolname = ?",
                    rs -> {
                        Map<String, Boolean> flags = new LinkedHashMap<>();
                        int i = 1;
                        for (String[] kw : FLAGS.values()) {
                            flags.put(kw[2], rs.getBoolean(i++));
                        }
                        java.sql.Array cfg = rs.getArray(10);
                        List<String> settings = cfg == null ? List.of() : List.of((String[]) cfg.getArray());
                        return new RoleRow(flags, rs.getInt(8), rs.getString(9), settings);
                    },
                    name);
            if (row.isEmpty()) {
                return null;
            }
            RoleRow r = row.get();
            Value v = Attrs.with(
                    state,
                    "name",
                    Value.string(name),
                    "id",
                    Value.string(name),
                    "connection_limit",
                    Value.number(r.connLimit()));
            for (Map.Entry<String, String[]> f : FLAGS.entrySet()) {
                v = Attrs.with(v, f.getKey(), Value.bool(r.flags().get(f.getValue()[2])));
            }
            String stateValid = Attrs.string(state, "valid_until");
            String valid = r.validUntil() == null ? "infinity" : r.validUntil();
            // PostgreSQL prints the timestamp its own way; keep the configured spelling while it
            // names the same instant, so only a real change shows as drift.
            if (r.validUntil() != null && stateValid != null && !stateValid.equals(valid)) {
                try {
                    List<String> same = PgClient.column(
                            c,
                            "SELECT (rolvaliduntil = CAST(? AS timestamptz))::text"
                                    + " FROM pg_roles WHERE rolname = ?",
                            stateValid,
                            name);
                    if (same.equals(List.of("true"))) {
                        valid = stateValid;
                    }
                } catch (SQLException e) {
                    // not a timestamp PostgreSQL reads: the server's spelling stands
                }
            }
            v = Attrs.with(v, "valid_until", Value.string(valid));
            Map<String, String> settings = new LinkedHashMap<>();
            for (String s : r.config()) {
                int eq = s.indexOf('=');
                settings.put(s.substring(0, eq), s.substring(eq + 1));
            }
            List<Value> path = new ArrayList<>();
            if (settings.containsKey("search_path")) {
                for (String p : settings.get("search_path").split(",\\s*")) {
                    path.add(Value.string(
                            p.startsWith("\"") && p.endsWith("\"")
                                    ? p.substring(1, p.length() - 1).replace("\"\"", "\"")
                                    : p));
                }
            }
            v = Attrs.with(
                    v,
                    "search_path",
                    path.isEmpty() ? Value.nullValue(Type.list(Type.STRING)) : Value.list(Type.STRING, path),
                    "statement_timeout",
                    Value.number(millis(settings.get("statement_timeout"))),
                    "idle_in_transaction_session_timeout",
                    Value.number(millis(settings.get("idle_in_transaction_session_timeout"))),
                    "assume_role",
                    settings.containsKey("role") ? Value.string(settings.get("role")) : Value.nullValue(Type.STRING));
            List<String> roles = PgClient.column(
                    c,
                    "SELECT b.rolname FROM pg_auth_members m JOIN pg_roles b ON m.roleid = b.oid"
                            + " JOIN pg_roles u ON m.member = u.oid WHERE u.rolname = ? ORDER BY 1",
                    name);
            v = Attrs.with(
                    v,
                    "roles",
                    roles.isEmpty() && Attrs.get(state, "roles").isNull()
                            ? Value.nullValue(Type.set(Type.STRING))
                            : Value.set(
                                    Type.STRING,
                                    roles.stream().map(Value::string).toList()));
            for (String d : List.of("encrypted_password", "skip_drop_role", "skip_reassign_owned")) {
                if (Attrs.get(v, d).isNull()) {
                    v = Attrs.with(v, d, defaults().get(d));
                }
            }
            return v;
        } catch (SQLException e) {
            PgClient.report(diags, "Could not read role " + name, e);
            return state;
        }
    }

    private static long millis(String setting) {
        if (setting == null) {
            return 0;
        }
        String s = setting.strip();
        long unit = 1;
        if (s.endsWith("ms")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            s = s.substring(0, s.length() - 1);
            unit = 1000;
        } else if (s.endsWith("min")) {
            s = s.substring(0, s.length() - 3);
            unit = 60_000;
        }
        return Long.parseLong(s.strip()) * unit;
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        return Attrs.with(SCHEMA.block().emptyValue(), "name", Value.string(id), "id", Value.string(id));
    }
}
