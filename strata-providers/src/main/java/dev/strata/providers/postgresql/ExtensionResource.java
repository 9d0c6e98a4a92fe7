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

/** {@code postgresql_extension}: an extension in a database; id and import id {@code database.extension}. */
final class ExtensionResource implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute("name", Attribute.required(Type.STRING).withDescription("The name of the extension"))
            .attribute(
                    "schema",
                    Attribute.optionalComputed(Type.STRING).withDescription("Sets the schema of an extension"))
            .attribute(
                    "version",
                    Attribute.optionalComputed(Type.STRING).withDescription("Sets the version number of the extension"))
            .attribute(
                    "database",
                    Attribute.optionalComputed(Type.STRING)
                            .withDescription("Sets the database to add the extension to"))
            .attribute(
                    "drop_cascade",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription("When true, will also drop all the objects that depend on the extension"))
            .attribute(
                    "create_cascade",
                    Attribute.optionalComputed(Type.BOOL)
                            .withDescription(
                                    "When true, will also create any extensions that this extension depends on that are not already installed"))
            .attribute("id", Attribute.computed(Type.STRING))
            .build());

    private final PostgresProvider.Holder pg;

    ExtensionResource(PostgresProvider.Holder pg) {
        this.pg = pg;
    }

    @Override
    public String typeName() {
        return "postgresql_extension";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Set<String> forceNew() {
        return Set.of("name", "database");
    }

    @Override
    public Map<String, Value> defaults() {
        return Map.of("drop_cascade", Value.FALSE, "create_cascade", Value.FALSE);
    }

    @Override
    public Set<String> stableComputed() {
        return Set.of("id", "schema", "version", "database");
    }

    @Override
    public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        Value db = Attrs.get(plan.planned(), "database");
        return db.isKnown() && !db.isNull()
                ? plan.planned()
                : Attrs.with(
                        plan.planned(), "database", Value.string(pg.client().defaultDatabase()));
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        String db = Attrs.string(planned, "database", pg.client().defaultDatabase());
        String name = Attrs.string(planned, "name");
        String schema = Attrs.string(planned, "schema");
        String version = Attrs.string(planned, "version");
        try (Connection c = pg.client().connect(db)) {
            PgClient.exec(
                    c,
                    "CREATE EXTENSION IF NOT EXISTS " + ident(name) + (schema == null ? "" : " SCHEMA " + ident(schema))
                            + (version == null ? "" : " VERSION " + literal(version))
                            + (Boolean.TRUE.equals(Attrs.bool(planned, "create_cascade")) ? " CASCADE" : ""));
        } catch (SQLException e) {
            PgClient.report(diags, "Could not create extension " + name, e);
            return null;
        }
        return read(Attrs.with(planned, "database", Value.string(db), "id", Value.string(db + "." + name)), diags);
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        String db = Attrs.string(prior, "database");
        String name = Attrs.string(planned, "name");
        try (Connection c = pg.client().connect(db)) {
            String schema = Attrs.string(planned, "schema");
            if (schema != null && !schema.equals(Attrs.string(prior, "schema"))) {
                PgClient.exec(c, "ALTER EXTENSION " + ident(name) + " SET SCHEMA " + ident(schema));
            }
            String version = Attrs.string(planned, "version");
            if (version != null && !version.equals(Attrs.string(prior, "version"))) {
                PgClient.exec(c, "ALTER EXTENSION " + ident(name) + " UPDATE TO " + literal(version));
            }
        } catch (SQLException e) {
            PgClient.report(diags, "Could not update extension " + name, e);
            return null;
        }
        return read(planned, diags);
    }

    @Override
    public void delete(Value prior, ProviderDiagnostics.Builder diags) {
        String name = Attrs.string(prior, "name");
        try (Connection c = pg.client().connect(Attrs.string(prior, "database"))) {
            PgClient.exec(
                    c,
                    "DROP EXTENSION IF EXISTS " + ident(name)
                            + (Boolean.TRUE.equals(Attrs.bool(prior, "drop_cascade")) ? " CASCADE" : ""));
        } catch (SQLException e) {
            PgClient.report(diags, "Could not drop extension " + name, e);
        }
    }

    @Override
    public Value read(Value state, ProviderDiagnostics.Builder diags) {
        String id = Attrs.string(state, "id");
        int dot = id.indexOf('.');
        String db = id.substring(0, dot);
        String name = id.substring(dot + 1);
        try (Connection c = pg.client().connect(db)) {
            Optional<String[]> row = PgClient.row(
                    c,
                    "SELECT n.nspname, e.extversion FROM pg_extension e"
                            + " JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ?",
                    rs -> new String[] {rs.getString(1), rs.getString(2)},
                    name);
            if (row.isEmpty()) {
                return null;
            }
            Value v = Attrs.with(
                    state,
                    "name",
                    Value.string(name),
                    "database",
                    Value.string(db),
                    "schema",
                    Value.string(row.get()[0]),
                    "version",
                    Value.string(row.get()[1]));
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
            PgClient.report(diags, "Could not read extension " + name, e);
            return state;
        }
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        if (id.indexOf('.') <= 0) {
            diags.error("Invalid import ID", "The import ID of a postgresql_extension is DATABASE.EXTENSION.", null);
            return null;
        }
        return Attrs.with(SCHEMA.block().emptyValue(), "id", Value.string(id));
    }
}
