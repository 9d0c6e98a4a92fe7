package dev.strata.providers.postgresql;

import static dev.strata.providers.postgresql.PgClient.ident;

import dev.strata.addr.AttributePath;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code postgresql_grant}: the privileges one role holds on a database, a schema, the tables,
 * sequences, functions, procedures or routines of a schema (all of them, or those named in
 * {@code objects}; a function may be named with its argument types, {@code f(integer)}), some
 * columns of one table, or a foreign data wrapper or foreign server. The grant is
 * authoritative: creating it first revokes what the role held there, and a refresh reads the
 * privileges actually held, so a revoke made outside Strata is drift that the next plan repairs.
 */
final class GrantResource implements ManagedResource {

    static final Map<String, Set<String>> PRIVILEGES = Map.of(
            "database", Set.of("CREATE", "CONNECT", "TEMPORARY"),
            "schema", Set.of("CREATE", "USAGE"),
            "table", Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"),
            "sequence", Set.of("USAGE", "SELECT", "UPDATE"),
            "function", Set.of("EXECUTE"),
            "procedure", Set.of("EXECUTE"),
            "routine", Set.of("EXECUTE"),
            "foreign_data_wrapper", Set.of("USAGE"),
            "foreign_server", Set.of("USAGE"),
            "column", Set.of("SELECT", "INSERT", "UPDATE", "REFERENCES"));

    /** Object types that live outside schemas. */
    private static final Set<String> SCHEMALESS = Set.of("database", "foreign_data_wrapper", "foreign_server");

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(
                    "role",
                    Attribute.required(Type.STRING).withDescription("The name of the role to grant privileges on"))
            .attribute(
                    "database",
                    Attribute.required(Type.STRING)
                            .withDescription("The database to grant privileges on for this role"))
            .attribute(
                    "schema",
                    Attribute.optional(Type.STRING)
                            .withDescription("The database schema to grant privileges on for this role"))
            .attribute(
                    "object_type",
                    Attribute.required(Type.STRING)
                            .withDescription(
                                    "The PostgreSQL object type to grant the privileges on (one of: database, schema, table, sequence, function,"
                                            + " procedure, routine, foreign_data_wrapper, foreign_server, column)"))
            .attribute(
                    "objects",
                    Attribute.optional(Type.set(Type.STRING))
                            .withDescription(
                                    "The specific objects to grant privileges on for this role (empty means all objects of the requested type)"))
            .attribute(
                    "columns",
                    Attribute.optional(Type.set(Type.STRING))
                            .withDescription("The specific columns to grant privileges on for this role"))
            .attribute(
                    "privileges",
                    Attribute.required(Type.set(Type.STRING)).withDescription("The list of privileges to grant"))
            .attribute(
                    "with_grant_option",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription("Permit the grant recipient to grant it to others"))
            .attribute("id", Attribute.computed(Type.STRING))
            .build());

    private final PostgresProvider.Holder pg;

    GrantResource(PostgresProvider.Holder pg) {
        this.pg = pg;
    }

    @Override
    public String typeName() {
        return "postgresql_grant";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of(
                "role", "database", "schema", "object_type", "objects", "columns", "privileges", "with_grant_option");
    }

    @Override
    public Map<String, Value> defaults() {
        return Map.of("with_grant_option", Value.FALSE);
    }

    @Override
    public void validate(Value config, ProviderDiagnostics.Builder diags) {
        Value type = Attrs.get(config, "object_type").unmarkDeep();
        if (!type.isKnownAndNotNull()) {
            return;
        }
        String t = type.asString();
        if (!PRIVILEGES.containsKey(t)) {
            diags.error(
                    "Unsupported object_type",
                    "object_type must be one of " + new TreeSet<>(PRIVILEGES.keySet()) + "; got \"" + t + "\".",
                    AttributePath.of("object_type"));
            return;
        }
        if (!SCHEMALESS.contains(t)
                && !t.equals("schema")
                && Attrs.get(config, "schema").isNull()) {
            diags.error(
                    "Missing schema",
                    "schema is required when object_type is \"" + t + "\".",
                    AttributePath.of("schema"));
        }
        Value columns = Attrs.get(config, "columns");
        Value objects = Attrs.get(config, "objects");
        if (t.equals("column")) {
            if (columns.isNull()
                    || (columns.isKnown() && columns.unmarkDeep().elements().isEmpty())) {
                diags.error(
                        "Missing columns",
                        "columns must be set when object_type is \"column\".",
                        AttributePath.of("columns"));
            }
            if (objects.isKnown()
                    && (objects.isNull() || objects.unmarkDeep().elements().size() != 1)) {
                diags.error(
                        "Invalid objects",
                        "objects must name exactly one table when object_type is \"column\".",
                        AttributePath.of("objects"));
            }
        } else if (!columns.isNull()) {
            diags.error(
                    "Invalid columns",
                    "columns is only valid with object_type \"column\".",
                    AttributePath.of("columns"));
        }
        if ((t.equals("foreign_data_wrapper") || t.equals("foreign_server"))
                && objects.isKnown()
                && (objects.isNull() || objects.unmarkDeep().elements().size() != 1)) {
            diags.error(
                    "Invalid objects",
                    "objects must name exactly one " + t.replace('_', ' ') + " when object_type is \"" + t + "\".",
                    AttributePath.of("objects"));
        }
        if ((t.equals("database") || t.equals("schema")) && !objects.isNull()) {
            diags.error(
                    "Invalid objects",
                    "objects cannot be specified when object_type is \"" + t + "\".",
                    AttributePath.of("objects"));
        }
        Value privs = Attrs.get(config, "privileges").unmarkDeep();
        if (privs.isKnownAndNotNull()) {
            for (Value p : privs.elements()) {
                if (p.isKnownAndNotNull()
                        && !p.asString().equals("ALL")
                        && !PRIVILEGES.get(t).contains(p.asString())) {
                    diags.error(
                            "Invalid privilege",
                            "\"" + p.asString() + "\" is not a privilege of a " + t + "; valid privileges are "
                                    + new TreeSet<>(PRIVILEGES.get(t)) + ".",
                            AttributePath.of("privileges"));
                }
            }
        }
    }

    private static String target(Value v) {
        String t = Attrs.string(v, "object_type");
        String schema = Attrs.string(v, "schema");
        List<String> objects = Attrs.stringList(v, "objects");
        return switch (t) {
            case "database" -> "DATABASE " + ident(Attrs.string(v, "database"));
            case "schema" -> "SCHEMA " + ident(schema);
            case "foreign_data_wrapper" -> "FOREIGN DATA WRAPPER " + ident(objects.get(0));
            case "foreign_server" -> "FOREIGN SERVER " + ident(objects.get(0));
            case "column" -> "TABLE " + ident(schema) + "." + ident(objects.get(0));
            case "function", "procedure", "routine" ->
                objects.isEmpty()
                        ? "ALL " + t.toUpperCase(Locale.ROOT) + "S IN SCHEMA " + ident(schema)
                        : t.toUpperCase(Locale.ROOT) + " "
                                + String.join(
                                        ", ",
                                        objects.stream()
                                                .map(o -> routine(schema, o))
                                                .toList());
            default ->
                objects.isEmpty()
                        ? "ALL " + t.toUpperCase(Locale.ROOT) + "S IN SCHEMA " + ident(schema)
                        : t.toUpperCase(Locale.ROOT) + " "
                                + String.join(
                                        ", ",
                                        objects.stream()
                                                .map(o -> ident(schema) + "." + ident(o))
                                                .toList());
        };
    }

    /** {@code f} or {@code f(integer, text)}: the name quoted, the argument types as written. */
    private static String routine(String schema, String object) {
        int paren = object.indexOf('(');
        return paren < 0
                ? ident(schema) + "." + ident(object)
                : ident(schema) + "." + ident(object.substring(0, paren).trim()) + object.substring(paren);
    }

    private static String routineName(String object) {
        int paren = object.indexOf('(');
        return paren < 0 ? object : object.substring(0, paren).trim();
    }

    /** The privilege list of a GRANT: column privileges each carry the column list. */
    private static String privilegeList(Value v, List<String> privs) {
        List<String> ps = privs.contains("ALL") ? List.of("ALL PRIVILEGES") : privs;
        if (!Attrs.string(v, "object_type").equals("column")) {
            return String.join(", ", ps);
        }
        String cols = "("
                + String.join(
                        ", ",
                        Attrs.stringList(v, "columns").stream()
                                .map(PgClient::ident)
                                .toList()) + ")";
        return String.join(", ", ps.stream().map(p -> p + " " + cols).toList());
    }

    private static String revokeAll(Value v) {
        String role = ident(Attrs.string(v, "role"));
        if (Attrs.string(v, "object_type").equals("column")) {
            String cols = "("
                    + String.join(
                            ", ",
                            Attrs.stringList(v, "columns").stream()
                                    .map(PgClient::ident)
                                    .toList()) + ")";
            return "REVOKE ALL " + cols + " ON " + target(v) + " FROM " + role;
        }
        return "REVOKE ALL PRIVILEGES ON " + target(v) + " FROM " + role;
    }

    private String connectDb(Value v) {
        return Attrs.string(v, "object_type").equals("database") ? null : Attrs.string(v, "database");
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String role = Attrs.string(planned, "role");
        List<String> privs = Attrs.stringList(planned, "privileges");
        try (Connection c = pg.client().connect(connectDb(planned))) {
            PgClient.exec(c, revokeAll(planned));
            if (!privs.isEmpty()) {
                PgClient.exec(
                        c,
                        "GRANT " + privilegeList(planned, privs) + " ON " + target(planned) + " TO " + ident(role)
                                + (Boolean.TRUE.equals(Attrs.bool(planned, "with_grant_option"))
                                        ? " WITH GRANT OPTION"
                                        : ""));
            }
        } catch (SQLException e) {
            PgClient.report(diags, "Could not grant privileges to " + role, e);
            return null;
        }
        return Attrs.with(planned, "id", Value.string(id(planned)));
    }

    private static String id(Value v) {
        String schema = Attrs.string(v, "schema");
        return Attrs.string(v, "role") + "_" + Attrs.string(v, "database") + (schema == null ? "" : "_" + schema)
                + "_" + Attrs.string(v, "object_type")
                + (Attrs.stringList(v, "objects").isEmpty()
                        ? ""
                        : "_" + String.join("_", new TreeSet<>(Attrs.stringList(v, "objects"))));
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        String role = Attrs.string(prior, "role");
        try (Connection c = pg.client().connect(connectDb(prior))) {
            if (PgClient.column(c, "SELECT 1 FROM pg_roles WHERE rolname = ?", role)
                    .isEmpty()) {
                return;
            }
            PgClient.exec(c, revokeAll(prior));
        } catch (SQLException e) {
            // Gone already: the database, the schema, or the object (table, function, wrapper, server, column).
            if (Set.of("3D000", "3F000", "42P01", "42883", "42704", "42703").contains(e.getSQLState())) {
                return;
            }
            PgClient.report(diags, "Could not revoke privileges from " + role, e);
        }
    }

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        String role = Attrs.string(state, "role");
        String type = Attrs.string(state, "object_type");
        String schema = Attrs.string(state, "schema");
        try (Connection c = pg.client().connect(connectDb(state))) {
            if (PgClient.column(c, "SELECT 1 FROM pg_roles WHERE rolname = ?", role)
                    .isEmpty()) {
                return null;
            }
            Set<String> held;
            switch (type) {
                case "database" ->
                    held = new TreeSet<>(PgClient.column(
                            c,
                            "SELECT a.privilege_type FROM pg_database d,"
                                    + " aclexplode(d.datacl) a JOIN pg_roles r ON r.oid = a.grantee WHERE d.datname = ? AND r.rolname = ?",
                            Attrs.string(state, "database"),
                            role));
                case "schema" ->
                    held = new TreeSet<>(PgClient.column(
                            c,
                            "SELECT a.privilege_type FROM pg_namespace n,"
                                    + " aclexplode(n.nspacl) a JOIN pg_roles r ON r.oid = a.grantee WHERE n.nspname = ? AND r.rolname = ?",
                            schema,
                            role));
                case "foreign_data_wrapper" ->
                    held = new TreeSet<>(PgClient.column(
                            c,
                            "SELECT a.privilege_type FROM"
                                    + " pg_foreign_data_wrapper w, aclexplode(w.fdwacl) a JOIN pg_roles r ON r.oid = a.grantee"
                                    + " WHERE w.fdwname = ? AND r.rolname = ?",
                            Attrs.stringList(state, "objects").get(0),
                            role));
                case "foreign_server" ->
                    held = new TreeSet<>(PgClient.column(
                            c,
                            "SELECT a.privilege_type FROM"
                                    + " pg_foreign_server s, aclexplode(s.srvacl) a JOIN pg_roles r ON r.oid = a.grantee"
                                    + " WHERE s.srvname = ? AND r.rolname = ?",
                            Attrs.stringList(state, "objects").get(0),
                            role));
                case "column" -> {
                    held = null;
                    for (String col : Attrs.stringList(state, "columns")) {
                        Set<String> p = new TreeSet<>(PgClient.column(
                                c,
                                "SELECT a.privilege_type FROM pg_attribute t"
                                        + " JOIN pg_class c ON c.oid = t.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace,"
                                        + " aclexplode(t.attacl) a JOIN pg_roles r ON r.oid = a.grantee"
                                        + " WHERE n.nspname = ? AND c.relname = ? AND t.attname = ? AND r.rolname = ?",
                                schema,
                                Attrs.stringList(state, "objects").get(0),
                                col,
                                role));
                        if (held == null) {
                            held = p;
                        } else {
                            held.retainAll(p);
                        }
                    }
                    if (held == null) {
                        return state;
                    }
                }
                case "function", "procedure", "routine" -> {
                    String kinds = switch (type) {
                        case "function" -> "('f')";
                        case "procedure" -> "('p')";
                        default -> "('f','p')";
                    };
                    List<String> objects = Attrs.stringList(state, "objects");
                    List<String> names = objects.isEmpty()
                            ? PgClient.column(
                                    c,
                                    "SELECT p.oid::text FROM pg_proc p JOIN"
                                            + " pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = ? AND p.prokind IN "
                                            + kinds,
                                    schema)
                            : objects;
                    held = null;
                    for (String o : names) {
                        // A name without argument types stands for all its overloads, read together.
                        String where = objects.isEmpty() ? "p.oid::text = ?" : "p.proname = ?";
                        Set<String> p = new TreeSet<>(PgClient.column(
                                c,
                                "SELECT a.privilege_type FROM pg_proc p JOIN"
                                        + " pg_namespace n ON n.oid = p.pronamespace, aclexplode(p.proacl) a JOIN pg_roles r"
                                        + " ON r.oid = a.grantee WHERE n.nspname = ? AND " + where
                                        + " AND r.rolname = ?",
                                schema,
                                objects.isEmpty() ? o : routineName(o),
                                role));
                        if (held == null) {
                            held = p;
                        } else {
                            held.retainAll(p);
                        }
                    }
                    if (held == null) {
                        return state;
                    }
                }
                default -> {
                    String kinds = type.equals("sequence") ? "('S')" : "('r','v','m','f','p')";
                    List<String> objects = Attrs.stringList(state, "objects");
                    List<String> relations = objects.isEmpty()
                            ? PgClient.column(
                                    c,
                                    "SELECT c.relname FROM pg_class c JOIN"
                                            + " pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind IN "
                                            + kinds,
                                    schema)
                            : objects;
                    held = null;
                    for (String rel : relations) {
                        Set<String> p = new TreeSet<>(PgClient.column(
                                c,
                                "SELECT a.privilege_type FROM pg_class c JOIN"
                                        + " pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) a JOIN pg_roles r"
                                        + " ON r.oid = a.grantee WHERE n.nspname = ? AND c.relname = ? AND r.rolname = ?",
                                schema,
                                rel,
                                role));
                        if (held == null) {
                            held = p;
                        } else {
                            held.retainAll(p);
                        }
                    }
                    if (held == null) {
                        // No objects to hold privileges on yet: nothing contradicts the recorded grant.
                        return state;
                    }
                }
            }
            List<String> configured = Attrs.stringList(state, "privileges");
            if (configured.contains("ALL") && held.containsAll(PRIVILEGES.get(type))) {
                return state;
            }
            return Attrs.with(
                    state,
                    "privileges",
                    Value.set(Type.STRING, held.stream().map(Value::string).toList()));
        } catch (SQLException e) {
            if ("3D000".equals(e.getSQLState())) {
                return null;
            }
            PgClient.report(diags, "Could not read the privileges of " + role, e);
            return state;
        }
    }
}
