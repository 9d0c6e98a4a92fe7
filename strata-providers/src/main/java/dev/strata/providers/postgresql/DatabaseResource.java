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
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code postgresql_database}: a database; a refresh reads its settings back. Import by name. */
final class DatabaseResource implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(
                    "name",
                    Attribute.required(Type.STRING).withDescription("The PostgreSQL database name to connect to"))
            .attribute(
                    "owner",
                    Attribute.optionalComputed(Type.STRING).withDescription("The ROLE which owns the database"))
            .attribute(
                    "template",
                    Attribute.optionalComputed(Type.STRING)
                            .withDescription("The name of the template from which to create the new database"))
            .attribute(
                    "encoding",
                    Attribute.optionalComputed(Type.STRING)
                            .withDescription("Character set encoding to use in the new database"))
            .attribute(
                    "lc_collate",
                    Attribute.optionalComputed(Type.STRING)
                            .withDescription("Collation order (LC_COLLATE) to use in the new database"))
            .attribute(
                    "lc_ctype",
                    Attribute.optionalComputed(Type.STRING)
                            .withDescription("Character classification (LC_CTYPE) to use in the new database"))
            .attribute(
                    "tablespace_name",
                    Attribute.optionalComputed(Type.STRING)
                            .withDescription(
                                    "The name of the tablespace that will be associated with the new database"))
            .attribute(
                    "connection_limit",
                    Attribute.optionalComputed(Type.NUMBER)
                            .withDescription("How many concurrent connections can be made to this database"))
            .attribute(
                    "allow_connections",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription("If false then no one can connect to this database"))
            .attribute(
                    "is_template",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription(
                                    "If true, then this database can be cloned by any user with CREATEDB privileges"))
            .attribute(
                    "alter_object_ownership",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription(
                                    "If true, the owner of already existing objects will change if the owner changes"))
            .attribute("id", Attribute.computed(Type.STRING))
            .build());

    private final PostgresProvider.Holder pg;

    DatabaseResource(PostgresProvider.Holder pg) {
        this.pg = pg;
    }

    @Override
    public String typeName() {
        return "postgresql_database";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of("template", "encoding", "lc_collate", "lc_ctype");
    }

    @Override
    public Map<String, Value> defaults() {
        return Map.of(
                "template",
                Value.string("template0"),
                "encoding",
                Value.string("UTF8"),
                "connection_limit",
                Value.number(-1),
                "allow_connections",
                Value.TRUE,
                "is_template",
                Value.FALSE,
                "alter_object_ownership",
                Value.FALSE);
    }

    @Override
    public Set<String> stableComputed() {
        return Set.of("id", "owner", "lc_collate", "lc_ctype", "tablespace_name");
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(planned, "name");
        StringBuilder sql = new StringBuilder("CREATE DATABASE ").append(ident(name));
        String owner = Attrs.string(planned, "owner");
        if (owner != null) {
            sql.append(" OWNER ").append(ident(owner));
        }
        sql.append(" TEMPLATE ").append(ident(Attrs.string(planned, "template")));
        sql.append(" ENCODING ").append(literal(Attrs.string(planned, "encoding")));
        for (String lc : new String[] {"lc_collate", "lc_ctype"}) {
            String v = Attrs.string(planned, lc);
            if (v != null) {
                sql.append(' ').append(lc.toUpperCase()).append(' ').append(literal(v));
            }
        }
        String ts = Attrs.string(planned, "tablespace_name");
        if (ts != null) {
            sql.append(" TABLESPACE ").append(ident(ts));
        }
        sql.append(" CONNECTION LIMIT ")
                .append(Attrs.number(planned, "connection_limit").intValue());
        sql.append(" ALLOW_CONNECTIONS ").append(Attrs.bool(planned, "allow_connections"));
        sql.append(" IS_TEMPLATE ").append(Attrs.bool(planned, "is_template"));
        try (Connection c = pg.client().connect(null)) {
            PgClient.exec(c, sql.toString());
        } catch (SQLException e) {
            PgClient.report(diags, "Could not create database " + name, e);
            return null;
        }
        Value v = read(Attrs.with(planned, "id", Value.string(name)), diags);
        return v == null ? null : Attrs.with(v, "template", Attrs.get(planned, "template"));
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        String before = Attrs.string(prior, "name");
        String name = Attrs.string(planned, "name");
        try (Connection c = pg.client().connect(null)) {
            if (!before.equals(name)) {
                PgClient.exec(c, "ALTER DATABASE " + ident(before) + " RENAME TO " + ident(name));
            }
            String owner = Attrs.string(planned, "owner");
            if (owner != null && !owner.equals(Attrs.string(prior, "owner"))) {
                PgClient.exec(c, "ALTER DATABASE " + ident(name) + " OWNER TO " + ident(owner));
            }
            String ts = Attrs.string(planned, "tablespace_name");
            if (ts != null && !ts.equals(Attrs.string(prior, "tablespace_name"))) {
                PgClient.exec(c, "ALTER DATABASE " + ident(name) + " SET TABLESPACE " + ident(ts));
            }
            PgClient.exec(
                    c,
                    "ALTER DATABASE " + ident(name) + " WITH CONNECTION LIMIT "
                            + Attrs.number(planned, "connection_limit").intValue() + " ALLOW_CONNECTIONS "
                            + Attrs.bool(planned, "allow_connections") + " IS_TEMPLATE "
                            + Attrs.bool(planned, "is_template"));
        } catch (SQLException e) {
            PgClient.report(diags, "Could not update database " + name, e);
            return null;
        }
        Value v = read(Attrs.with(planned, "id", Value.string(name)), diags);
        return v == null ? null : Attrs.with(v, "template", Attrs.get(planned, "template"));
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(prior, "name");
        try (Connection c = pg.client().connect(null)) {
            if (Boolean.TRUE.equals(Attrs.bool(prior, "is_template"))) {
                PgClient.exec(c, "ALTER DATABASE " + ident(name) + " IS_TEMPLATE false");
            }
            // Sessions still connected would make DROP fail; the Go provider ends them too.
            PgClient.exec(
                    c,
                    "DROP DATABASE IF EXISTS " + ident(name)
                            + (PgClient.serverVersion(c) >= 13 ? " WITH (FORCE)" : ""));
        } catch (SQLException e) {
            PgClient.report(diags, "Could not drop database " + name, e);
        }
    }

    private record Row(
            String owner,
            String encoding,
            String collate,
            String ctype,
            int connLimit,
            boolean allow,
            boolean template,
            String tablespace) {}

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(state, "id");
        try (Connection c = pg.client().connect(null)) {
            Optional<Row> row = PgClient.row(
                    c,
                    "SELECT pg_get_userbyid(d.datdba), pg_encoding_to_char(d.encoding),"
                            + " d.datcollate, d.datctype, d.datconnlimit, d.datallowconn, d.datistemplate, t.spcname"
                            + " FROM pg_database d JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE d.datname = ?",
                    rs -> new Row(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getInt(5),
                            rs.getBoolean(6),
                            rs.getBoolean(7),
                            rs.getString(8)),
                    name);
            if (row.isEmpty()) {
                return null;
            }
            Row r = row.get();
            Value v = Attrs.with(
                    state,
                    "name",
                    Value.string(name),
                    "id",
                    Value.string(name),
                    "owner",
                    Value.string(r.owner()),
                    "encoding",
                    Value.string(r.encoding()),
                    "lc_collate",
                    Value.string(r.collate()),
                    "lc_ctype",
                    Value.string(r.ctype()),
                    "connection_limit",
                    Value.number(r.connLimit()),
                    "allow_connections",
                    Value.bool(r.allow()),
                    "is_template",
                    Value.bool(r.template()),
                    "tablespace_name",
                    Value.string(r.tablespace()));
            // The template is not recorded by PostgreSQL; an import assumes the default.
            if (Attrs.get(v, "template").isNull()) {
                v = Attrs.with(v, "template", Value.string("template0"));
            }
            if (Attrs.get(v, "alter_object_ownership").isNull()) {
                v = Attrs.with(v, "alter_object_ownership", Value.FALSE);
            }
            return v;
        } catch (SQLException e) {
            PgClient.report(diags, "Could not read database " + name, e);
            return state;
        }
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        return Attrs.with(SCHEMA.block().emptyValue(), "name", Value.string(id), "id", Value.string(id));
    }
}
