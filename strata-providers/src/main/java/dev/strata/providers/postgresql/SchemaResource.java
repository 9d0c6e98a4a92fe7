package dev.strata.providers.postgresql;

import static dev.strata.providers.postgresql.PgClient.ident;

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

/** {@code postgresql_schema}: a schema in a database; id {@code database.schema}, which is also the import id. */
final class SchemaResource implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute("name", Attribute.required(Type.STRING).withDescription("The name of the schema"))
            .attribute(
                    "database",
                    Attribute.optionalComputed(Type.STRING).withDescription("The database name to alter schema"))
            .attribute(
                    "owner",
                    Attribute.optionalComputed(Type.STRING).withDescription("The ROLE name who owns the schema"))
            .attribute(
                    "if_not_exists",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription("When true, use the existing schema if it exists"))
            .attribute(
                    "drop_cascade",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription(
                                    "When true, will also drop all the objects that are contained in the schema"))
            .attribute("id", Attribute.computed(Type.STRING))
            .build());

    private final PostgresProvider.Holder pg;

    SchemaResource(PostgresProvider.Holder pg) {
        this.pg = pg;
    }

    @Override
    public String typeName() {
        return "postgresql_schema";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of("database");
    }

    @Override
    public Map<String, Value> defaults() {
        return Map.of("if_not_exists", Value.TRUE, "drop_cascade", Value.FALSE);
    }

    @Override
    public Set<String> stableComputed() {
        return Set.of("id", "owner", "database");
    }

    @Override
    public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        if (Attrs.get(plan.planned(), "database").isKnown()
                && !Attrs.get(plan.planned(), "database").isNull()) {
            return plan.planned();
        }
        return Attrs.with(plan.planned(), "database", Value.string(pg.client().defaultDatabase()));
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String db = Attrs.string(planned, "database", pg.client().defaultDatabase());
        String name = Attrs.string(planned, "name");
        String owner = Attrs.string(planned, "owner");
        try (Connection c = pg.client().connect(db)) {
            PgClient.exec(
                    c,
                    "CREATE SCHEMA "
                            + (Boolean.TRUE.equals(Attrs.bool(planned, "if_not_exists")) ? "IF NOT EXISTS " : "")
                            + ident(name) + (owner == null ? "" : " AUTHORIZATION " + ident(owner)));
            if (owner != null) {
                PgClient.exec(c, "ALTER SCHEMA " + ident(name) + " OWNER TO " + ident(owner));
            }
        } catch (SQLException e) {
            PgClient.report(diags, "Could not create schema " + name, e);
            return null;
        }
        return read(Attrs.with(planned, "database", Value.string(db), "id", Value.string(db + "." + name)), diags);
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        String db = Attrs.string(prior, "database");
        String before = Attrs.string(prior, "name");
        String name = Attrs.string(planned, "name");
        try (Connection c = pg.client().connect(db)) {
            if (!before.equals(name)) {
                PgClient.exec(c, "ALTER SCHEMA " + ident(before) + " RENAME TO " + ident(name));
            }
            String owner = Attrs.string(planned, "owner");
            if (owner != null && !owner.equals(Attrs.string(prior, "owner"))) {
                PgClient.exec(c, "ALTER SCHEMA " + ident(name) + " OWNER TO " + ident(owner));
            }
        } catch (SQLException e) {
            PgClient.report(diags, "Could not update schema " + name, e);
            return null;
        }
        return read(Attrs.with(planned, "database", Value.string(db), "id", Value.string(db + "." + name)), diags);
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(prior, "name");
        try (Connection c = pg.client().connect(Attrs.string(prior, "database"))) {
            PgClient.exec(
                    c,
                    "DROP SCHEMA IF EXISTS " + ident(name)
                            + (Boolean.TRUE.equals(Attrs.bool(prior, "drop_cascade")) ? " CASCADE" : " RESTRICT"));
        } catch (SQLException e) {
            PgClient.report(diags, "Could not drop schema " + name, e);
        }
    }

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        String id = Attrs.string(state, "id");
        int dot = id.indexOf('.');
        String db = id.substring(0, dot);
        String name = id.substring(dot + 1);
        try (Connection c = pg.client().connect(db)) {
            Optional<String> owner = PgClient.row(
                    c,
                    "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = ?",
                    rs -> rs.getString(1),
                    name);
            if (owner.isEmpty()) {
                return null;
            }
            Value v = Attrs.with(
                    state,
                    "name",
                    Value.string(name),
                    "database",
                    Value.string(db),
                    "owner",
                    Value.string(owner.get()));
            for (Map.Entry<String, Value> d : defaults().entrySet()) {
                if (Attrs.get(v, d.getKey()).isNull()) {
                    v = Attrs.with(v, d.getKey(), d.getValue());
                }
            }
            return v;
        } catch (SQLException e) {
            if ("3D000".equals(e.getSQLState())) {
                return null;
            }
            PgClient.report(diags, "Could not read schema " + name, e);
            return state;
        }
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        if (id.indexOf('.') <= 0) {
            diags.error("Invalid import ID", "The import ID of a postgresql_schema is DATABASE.SCHEMA.", null);
            return null;
        }
        return Attrs.with(SCHEMA.block().emptyValue(), "id", Value.string(id));
    }
}
