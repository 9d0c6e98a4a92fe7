package dev.strata.providers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.AttributePath;
import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.testkit.Action;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.provider.testkit.ResourceTester;
import dev.strata.provider.testkit.Step;
import dev.strata.testing.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PostgresProviderTest {

    private static final AtomicInteger SEQ = new AtomicInteger();

    private static ProviderTester tester() {
        int port = PostgresServer.withPassword().port();
        var factory = ProviderRegistry.load()
                .resolve(
                        Provider.parse("cyrilgdn/postgresql").value(),
                        VersionConstraint.parse("~> 1.22").value())
                .value();
        return ProviderTester.configure(
                factory.create(),
                Map.of(
                        "host",
                        Value.string("127.0.0.1"),
                        "port",
                        Value.number(port),
                        "username",
                        Value.string(PostgresServer.SUPERUSER),
                        "password",
                        Value.string(PostgresServer.PASSWORD),
                        "sslmode",
                        Value.string("disable"),
                        "connect_timeout",
                        Value.number(15)));
    }

    private static String unique(String prefix) {
        return prefix + "_" + ProcessHandle.current().pid() + "_" + SEQ.incrementAndGet();
    }

    private static void sql(String database, String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:"
                                + PostgresServer.withPassword().port() + "/" + database,
                        PostgresServer.SUPERUSER,
                        PostgresServer.PASSWORD);
                Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static Value strings(String... s) {
        return Value.set(
                Type.STRING, java.util.Arrays.stream(s).map(Value::string).toList());
    }

    /**
     * A {@code postgresql_grant} configuration of {@code objectType} for {@code role} in {@code database},
     * with more arguments as alternating names and values.
     */
    private static Map<String, Value> grant(String role, String database, String objectType, Object... more) {
        Map<String, Value> g = new java.util.HashMap<>(Map.of(
                "role",
                Value.string(role),
                "database",
                Value.string(database),
                "object_type",
                Value.string(objectType)));
        for (int i = 0; i < more.length; i += 2) {
            g.put((String) more[i], (Value) more[i + 1]);
        }
        return Map.copyOf(g);
    }

    @Test
    void roleLifecycleWithDriftAndImport() throws Exception {
        String name = unique("app");
        ResourceTester r = tester().resource("postgresql_role");
        Map<String, Value> cfg = new HashMap<>(Map.of(
                "name",
                Value.string(name),
                "login",
                Value.TRUE,
                "password",
                Value.string("s3cret-pw"),
                "connection_limit",
                Value.number(5)));
        Step s = r.apply(cfg);
        assertThat(s.action()).isEqualTo(Action.CREATE);
        assertThat(s.state().attributes().get("inherit")).isEqualTo(Value.TRUE);
        assertThat(s.state().attributes().get("id")).isEqualTo(Value.string(name));
        // The password really works.
        try (Connection c = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + PostgresServer.withPassword().port() + "/postgres",
                name,
                "s3cret-pw")) {
            assertThat(c.isValid(5)).isTrue();
        }

        cfg.put("create_database", Value.TRUE);
        cfg.put("search_path", Value.list(Type.STRING, List.of(Value.string("app"), Value.string("public"))));
        cfg.put("statement_timeout", Value.number(30000));
        assertThat(r.apply(cfg).action()).isEqualTo(Action.UPDATE);

        sql("postgres", "ALTER ROLE \"" + name + "\" NOLOGIN CONNECTION LIMIT 1");
        Value drifted = r.refresh();
        assertThat(drifted.attributes().get("login")).isEqualTo(Value.FALSE);
        assertThat(drifted.attributes().get("connection_limit")).isEqualTo(Value.number(1));
        assertThat(r.apply(cfg).action()).isEqualTo(Action.UPDATE);

        cfg.put("valid_until", Value.string("2099-01-01T00:00:00Z"));
        r.apply(cfg);
        sql("postgres", "ALTER ROLE \"" + name + "\" VALID UNTIL '2098-01-01'");
        assertThat(r.refresh().attributes().get("valid_until").asString()).startsWith("2098-01-01");
        assertThat(r.apply(cfg).action()).isEqualTo(Action.UPDATE);
        assertThat(r.state().attributes().get("valid_until")).isEqualTo(Value.string("2099-01-01T00:00:00Z"));

        Value imported = r.importAndVerify(name, Set.of("password", "valid_until"));
        assertThat(imported.attributes().get("password").isNull()).isTrue();

        String other = unique("group");
        ResourceTester g = tester().resource("postgresql_role");
        g.apply(Map.of("name", Value.string(other)));
        cfg.put("roles", strings(other));
        r.apply(cfg);
        assertThat(r.state().attributes().get("roles")).isEqualTo(strings(other));

        r.destroy();
        g.destroy();
        try (Connection c = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + PostgresServer.withPassword().port() + "/postgres",
                PostgresServer.SUPERUSER,
                PostgresServer.PASSWORD)) {
            assertThat(dev.strata.providers.postgresql.PgClient.column(
                            c, "SELECT 1 FROM pg_roles WHERE rolname = ?", name))
                    .isEmpty();
        }
    }

    @Test
    void roleDroppedOutsideIsRecreated() throws Exception {
        String name = unique("gone");
        ResourceTester r = tester().resource("postgresql_role");
        r.apply(Map.of("name", Value.string(name)));
        sql("postgres", "DROP ROLE \"" + name + "\"");
        assertThat(r.refresh().isNull()).isTrue();
        assertThat(r.apply(Map.of("name", Value.string(name))).action()).isEqualTo(Action.CREATE);
        r.destroy();
    }

    @Test
    void databaseSchemaExtensionAndGrant() throws Exception {
        ProviderTester t = tester();
        String owner = unique("owner");
        t.resource("postgresql_role").apply(Map.of("name", Value.string(owner)));
        String dbName = unique("db");
        ResourceTester db = t.resource("postgresql_database");
        Value d = db.apply(Map.of("name", Value.string(dbName), "owner", Value.string(owner)))
                .state();
        assertThat(d.attributes().get("encoding")).isEqualTo(Value.string("UTF8"));
        assertThat(d.attributes().get("owner")).isEqualTo(Value.string(owner));
        assertThat(d.attributes().get("lc_collate")).isEqualTo(Value.string("C"));
        Step limit = db.apply(Map.of(
                "name", Value.string(dbName), "owner", Value.string(owner), "connection_limit", Value.number(10)));
        assertThat(limit.action()).isEqualTo(Action.UPDATE);
        sql("postgres", "ALTER DATABASE \"" + dbName + "\" CONNECTION LIMIT 3");
        assertThat(db.refresh().attributes().get("connection_limit")).isEqualTo(Value.number(3));
        db.apply(Map.of(
                "name", Value.string(dbName), "owner", Value.string(owner), "connection_limit", Value.number(10)));
        db.importAndVerify(dbName, Set.of());
        Step enc = db.plan(Map.of(
                "name",
                Value.string(dbName),
                "owner",
                Value.string(owner),
                "connection_limit",
                Value.number(10),
                "encoding",
                Value.string("SQL_ASCII")));
        assertThat(enc.action()).isEqualTo(Action.REPLACE);
        assertThat(enc.requiresReplace()).containsExactly(AttributePath.of("encoding"));

        ResourceTester schema = t.resource("postgresql_schema");
        Value s = schema.apply(Map.of(
                        "name", Value.string("app"), "database", Value.string(dbName), "owner", Value.string(owner)))
                .state();
        assertThat(s.attributes().get("id")).isEqualTo(Value.string(dbName + ".app"));
        schema.importAndVerify(dbName + ".app", Set.of());
        sql(dbName, "DROP SCHEMA app");
        assertThat(schema.refresh().isNull()).as("dropped outside").isTrue();
        schema.apply(
                Map.of("name", Value.string("app"), "database", Value.string(dbName), "owner", Value.string(owner)));
        sql(dbName, "ALTER SCHEMA app OWNER TO postgres");
        assertThat(schema.refresh().attributes().get("owner")).isEqualTo(Value.string("postgres"));
        assertThat(schema.apply(Map.of(
                                "name",
                                Value.string("app"),
                                "database",
                                Value.string(dbName),
                                "owner",
                                Value.string(owner)))
                        .action())
                .isEqualTo(Action.UPDATE);

        ResourceTester ext = t.resource("postgresql_extension");
        Value e = ext.apply(Map.of(
                        "name",
                        Value.string("pgcrypto"),
                        "database",
                        Value.string(dbName),
                        "schema",
                        Value.string("app")))
                .state();
        assertThat(e.attributes().get("version").asString()).matches("[0-9.]+");
        ext.importAndVerify(dbName + ".pgcrypto", Set.of());
        sql(dbName, "ALTER EXTENSION pgcrypto SET SCHEMA public");
        assertThat(ext.refresh().attributes().get("schema")).as("moved outside").isEqualTo(Value.string("public"));
        assertThat(ext.apply(Map.of(
                                "name",
                                Value.string("pgcrypto"),
                                "database",
                                Value.string(dbName),
                                "schema",
                                Value.string("app")))
                        .action())
                .isEqualTo(Action.UPDATE);
        sql(dbName, "DROP EXTENSION pgcrypto");
        assertThat(ext.refresh().isNull()).as("dropped outside").isTrue();
        assertThat(ext.apply(Map.of(
                                "name",
                                Value.string("pgcrypto"),
                                "database",
                                Value.string(dbName),
                                "schema",
                                Value.string("app")))
                        .action())
                .isEqualTo(Action.CREATE);

        String reader = unique("reader");
        t.resource("postgresql_role").apply(Map.of("name", Value.string(reader)));
        sql(dbName, "CREATE TABLE app.t1 (id int)");
        ResourceTester grant = t.resource("postgresql_grant");
        Map<String, Value> g = grant(
                reader, dbName, "table", "schema", Value.string("app"), "privileges", strings("SELECT", "INSERT"));
        grant.apply(g);
        sql(dbName, "REVOKE INSERT ON app.t1 FROM \"" + reader + "\"");
        assertThat(grant.refresh().attributes().get("privileges")).isEqualTo(strings("SELECT"));
        assertThat(grant.apply(g).action()).isEqualTo(Action.REPLACE);
        ResourceTester dbGrant = t.resource("postgresql_grant");
        dbGrant.apply(grant(reader, dbName, "database", "privileges", strings("CONNECT")));
        assertThat(t.validateResource(
                                "postgresql_grant", grant(reader, dbName, "database", "privileges", strings("SELECT")))
                        .hasErrors())
                .isTrue();
        dbGrant.destroy();
        grant.destroy();
        ext.destroy();
        // RESTRICT, as drop_cascade defaults to false: a table made outside Strata keeps the schema.
        var blocked = t.provider()
                .applyResourceChange(new dev.strata.provider.Provider.ApplyRequest(
                        "postgresql_schema",
                        schema.state(),
                        t.provider()
                                .schema()
                                .resourceType("postgresql_schema")
                                .block()
                                .nullValue(),
                        t.provider()
                                .schema()
                                .resourceType("postgresql_schema")
                                .block()
                                .nullValue(),
                        null,
                        null));
        assertThat(blocked.diagnostics().asList().get(0).detail()).contains("other objects depend on it");
        assertThat(blocked.newState()).isEqualTo(schema.state());
        sql(dbName, "DROP TABLE app.t1");
        schema.destroy();
        db.destroy();
    }

    @Test
    void grantsOnRoutinesColumnsAndForeignObjectsWithDrift() throws Exception {
        ProviderTester t = tester();
        String dbName = unique("gdb");
        ResourceTester db = t.resource("postgresql_database");
        db.apply(Map.of("name", Value.string(dbName)));
        String role = unique("grantee");
        ResourceTester roleR = t.resource("postgresql_role");
        roleR.apply(Map.of("name", Value.string(role)));
        sql(dbName, "CREATE SCHEMA s");
        sql(dbName, "CREATE FUNCTION s.add1(i integer) RETURNS integer LANGUAGE sql AS 'SELECT i + 1'");
        sql(dbName, "CREATE PROCEDURE s.noop() LANGUAGE sql AS 'SELECT 1'");
        sql(dbName, "CREATE TABLE s.people (id int, name text, secret text)");
        sql(dbName, "GRANT USAGE ON SCHEMA s TO \"" + role + "\"");
        sql(dbName, "CREATE FOREIGN DATA WRAPPER w1");
        sql(dbName, "CREATE SERVER srv1 FOREIGN DATA WRAPPER w1");

        ResourceTester fn = t.resource("postgresql_grant");
        Map<String, Value> fnCfg = grant(
                role,
                dbName,
                "function",
                "schema",
                Value.string("s"),
                "objects",
                strings("add1(integer)"),
                "privileges",
                strings("EXECUTE"));
        fn.apply(fnCfg);
        sql(dbName, "REVOKE EXECUTE ON FUNCTION s.add1(integer) FROM \"" + role + "\"");
        assertThat(fn.refresh().attributes().get("privileges")).isEqualTo(strings());
        assertThat(fn.apply(fnCfg).action()).as("drift is repaired").isEqualTo(Action.REPLACE);
        assertThat(fn.refresh().attributes().get("privileges")).isEqualTo(strings("EXECUTE"));

        ResourceTester procs = t.resource("postgresql_grant");
        procs.apply(grant(role, dbName, "procedure", "schema", Value.string("s"), "privileges", strings("EXECUTE")));
        assertThat(procs.refresh().attributes().get("privileges")).isEqualTo(strings("EXECUTE"));

        ResourceTester cols = t.resource("postgresql_grant");
        Map<String, Value> colCfg = grant(
                role,
                dbName,
                "column",
                "schema",
                Value.string("s"),
                "objects",
                strings("people"),
                "columns",
                strings("id", "name"),
                "privileges",
                strings("SELECT", "UPDATE"));
        cols.apply(colCfg);
        sql(dbName, "REVOKE UPDATE (name) ON s.people FROM \"" + role + "\"");
        assertThat(cols.refresh().attributes().get("privileges")).isEqualTo(strings("SELECT"));
        cols.apply(colCfg);
        // The role can read the granted columns and not the others.
        sql(dbName, "SET ROLE \"" + role + "\"; SELECT id, name FROM s.people; RESET ROLE");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> sql(dbName, "SET ROLE \"" + role + "\"; SELECT secret FROM s.people"))
                .isInstanceOf(SQLException.class);

        ResourceTester fdw = t.resource("postgresql_grant");
        fdw.apply(
                grant(role, dbName, "foreign_data_wrapper", "objects", strings("w1"), "privileges", strings("USAGE")));
        ResourceTester srv = t.resource("postgresql_grant");
        Map<String, Value> srvCfg =
                grant(role, dbName, "foreign_server", "objects", strings("srv1"), "privileges", strings("USAGE"));
        srv.apply(srvCfg);
        sql(dbName, "REVOKE USAGE ON FOREIGN SERVER srv1 FROM \"" + role + "\"");
        assertThat(srv.refresh().attributes().get("privileges")).isEqualTo(strings());

        assertThat(t.validateResource(
                                "postgresql_grant",
                                grant(
                                        role,
                                        dbName,
                                        "column",
                                        "schema",
                                        Value.string("s"),
                                        "objects",
                                        strings("people"),
                                        "privileges",
                                        strings("SELECT")))
                        .hasErrors())
                .as("column grants need columns")
                .isTrue();
        assertThat(t.validateResource(
                                "postgresql_grant",
                                grant(role, dbName, "foreign_server", "privileges", strings("USAGE")))
                        .hasErrors())
                .as("a foreign server grant names its server")
                .isTrue();
        assertThat(t.validateResource(
                                "postgresql_grant",
                                grant(
                                        role,
                                        dbName,
                                        "function",
                                        "schema",
                                        Value.string("s"),
                                        "privileges",
                                        strings("SELECT")))
                        .hasErrors())
                .isTrue();

        for (ResourceTester r : List.of(fn, procs, cols, fdw, srv)) {
            r.destroy();
        }
        try (Connection c = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + PostgresServer.withPassword().port() + "/" + dbName,
                PostgresServer.SUPERUSER,
                PostgresServer.PASSWORD)) {
            assertThat(PgClient.column(
                            c,
                            "SELECT 1 FROM pg_attribute t, aclexplode(t.attacl) a JOIN pg_roles r ON r.oid = a.grantee"
                                    + " WHERE r.rolname = ?",
                            role))
                    .as("column privileges revoked on destroy")
                    .isEmpty();
        }
        sql("postgres", "DROP DATABASE \"" + dbName + "\" WITH (FORCE)");
        roleR.destroy();
    }

    @Test
    void connectionSettingsComeFromTheEnvironmentTheEngineGives() throws Exception {
        int port = PostgresServer.withPassword().port();
        Map<String, String> env = Map.of(
                "PGHOST",
                "127.0.0.1",
                "PGPORT",
                Integer.toString(port),
                "PGUSER",
                PostgresServer.SUPERUSER,
                "PGPASSWORD",
                PostgresServer.PASSWORD,
                "PGSSLMODE",
                "disable");
        PostgresProvider p = new PostgresProvider();
        ProviderTester t = ProviderTester.configure(p, Map.of(), null, env);
        assertThat(p.client().describe()).isEqualTo("postgres@127.0.0.1:" + port + "/postgres?sslmode=disable");
        String name = unique("envrole");
        ResourceTester r = t.resource("postgresql_role");
        r.apply(Map.of("name", Value.string(name)));
        assertThat(r.refresh().attributes().get("name")).isEqualTo(Value.string(name));
        r.destroy();
        // The configuration wins over the environment; unset everywhere means the Go provider's defaults.
        PostgresProvider q = new PostgresProvider();
        ProviderTester.configure(
                q, Map.of("host", Value.string("db.example"), "sslmode", Value.string("verify-full")), null, env);
        assertThat(q.client().describe()).isEqualTo("postgres@db.example:" + port + "/postgres?sslmode=verify-full");
        PostgresProvider d = new PostgresProvider();
        ProviderTester.configure(d, Map.of(), null, Map.of());
        assertThat(d.client().describe()).isEqualTo("postgres@localhost:5432/postgres?sslmode=require");
    }

    @Test
    void unreachableServerIsAPermanentErrorNamingTheServer() {
        var factory = ProviderRegistry.load()
                .resolve(Provider.parse("cyrilgdn/postgresql").value(), VersionConstraint.ANY)
                .value();
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closedPort = s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ProviderTester t = ProviderTester.configure(
                factory.create(),
                Map.of(
                        "host",
                        Value.string("127.0.0.1"),
                        "port",
                        Value.number(closedPort),
                        "sslmode",
                        Value.string("disable"),
                        "connect_timeout",
                        Value.number(2)));
        var p = t.provider();
        var block = p.schema().resourceType("postgresql_role").block();
        Value cfg = dev.strata.provider.SchemaValues.coerce(block, Value.objectOf("name", Value.string("x")))
                .value();
        var plan = p.planResourceChange(new dev.strata.provider.Provider.PlanRequest(
                "postgresql_role",
                block.nullValue(),
                dev.strata.provider.ProposedNewState.of(block, block.nullValue(), cfg),
                cfg,
                null));
        var applied = p.applyResourceChange(new dev.strata.provider.Provider.ApplyRequest(
                "postgresql_role", block.nullValue(), plan.plannedState(), cfg, null, "token"));
        // A refused connection is not a transient database condition: the engine must not retry it for minutes.
        assertThat(applied.diagnostics().failure()).containsInstanceOf(Failure.Permanent.class);
        assertThat(applied.diagnostics().asList().getFirst().detail())
                .contains("could not connect to 127.0.0.1:" + closedPort + ": connection refused");
        assertThat(applied.newState().isNull()).isTrue();
    }

    @Test
    void aConnectionStringConfiguresTheProvider() {
        int port = PostgresServer.withPassword().port();
        var factory = ProviderRegistry.load()
                .resolve(Provider.parse("cyrilgdn/postgresql").value(), VersionConstraint.ANY)
                .value();
        String uri = "postgres://" + PostgresServer.SUPERUSER + ":"
                + java.net.URLEncoder.encode(PostgresServer.PASSWORD, java.nio.charset.StandardCharsets.UTF_8)
                + "@127.0.0.1:" + port + "/postgres?sslmode=disable&connect_timeout=15";
        ProviderTester t = ProviderTester.configure(factory.create(), Map.of("connection_string", Value.string(uri)));
        String name = unique("uri_role");
        var role = t.resource("postgresql_role");
        role.apply(Map.of("name", Value.string(name)));
        role.destroy();
    }
}
