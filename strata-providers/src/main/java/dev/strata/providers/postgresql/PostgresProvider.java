package dev.strata.providers.postgresql;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.AttributePath;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.SdkProvider;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code cyrilgdn/postgresql}: roles, databases, schemas, extensions and grants on a PostgreSQL
 * server. Unset connection arguments fall back to the libpq environment variables ({@code PGHOST},
 * {@code PGPORT}, {@code PGUSER}, {@code PGPASSWORD}, {@code PGDATABASE}, {@code PGSSLMODE}) and then
 * to the provider's defaults, as the Go provider does.
 */
final class PostgresProvider extends SdkProvider {

    private static final Schema CONFIG = Schema.of(Block.builder()
            .attribute("scheme", Attribute.optional(Type.STRING).withDescription("Connection scheme; only `postgres` is supported."))
            .attribute("host", Attribute.optional(Type.STRING).withDescription("Name of PostgreSQL server address to connect to"))
            .attribute("port", Attribute.optional(Type.NUMBER).withDescription("The PostgreSQL port number to connect to at the server host, or socket file name extension for Unix-domain connections"))
            .attribute("database", Attribute.optional(Type.STRING).withDescription("The name of the database to connect to in order to connect to (defaults to `postgres`)."))
            .attribute("username", Attribute.optional(Type.STRING).withDescription("PostgreSQL user name to connect as"))
            .attribute("password", Attribute.optional(Type.STRING).withSensitive().withDescription("Password to be used if the PostgreSQL server demands password authentication"))
            .attribute("sslmode", Attribute.optional(Type.STRING).withDescription("This option determines whether or with what priority a secure SSL TCP/IP connection will be negotiated with the PostgreSQL server"))
            .attribute("connect_timeout", Attribute.optional(Type.NUMBER).withDescription("Maximum wait for connection, in seconds. Zero or not specified means wait indefinitely."))
            .attribute("superuser", Attribute.optional(Type.BOOL).withDescription("Specify if the user to connect as is a Postgres superuser or not."))
            .attribute("max_connections", Attribute.optional(Type.NUMBER).withDescription("Maximum number of connections to establish to the database. Zero means unlimited."))
            .attribute("expected_version", Attribute.optional(Type.STRING).withDescription("Specify the expected version of PostgreSQL."))
            .build());

    private static final Set<String> SSL_MODES = Set.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

    private final Map<String, String> env;
    private volatile PgClient client;

    PostgresProvider(Map<String, String> env) {
        this(env, new Holder());
    }

    private PostgresProvider(Map<String, String> env, Holder holder) {
        super(CONFIG, List.of(new RoleResource(holder), new DatabaseResource(holder), new SchemaResource(holder),
                new ExtensionResource(holder), new GrantResource(holder)), List.of());
        this.env = env;
        holder.provider = this;
    }

    /** Lets the resources, made before the provider, reach its client once configured. */
    static final class Holder {
        PostgresProvider provider;

        PgClient client() {
            PgClient c = provider.client;
            if (c == null) {
                throw new IllegalStateException("the provider is not configured");
            }
            return c;
        }
    }

    @Override
    protected void validateConfig(Value config, ProviderDiagnostics.Builder diags) {
        Value mode = Attrs.get(config, "sslmode").unmarkDeep();
        if (mode.isKnownAndNotNull() && !SSL_MODES.contains(mode.asString())) {
            diags.error("Invalid sslmode", "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full.",
                    AttributePath.of("sslmode"));
        }
        Value scheme = Attrs.get(config, "scheme").unmarkDeep();
        if (scheme.isKnownAndNotNull() && !scheme.asString().equals("postgres")) {
            diags.error("Unsupported scheme", "Only the \"postgres\" scheme is supported; cloud IAM schemes (awspostgres,"
                    + " gcppostgres) are not.", AttributePath.of("scheme"));
        }
    }

    @Override
    protected void configure(Value config, ProviderDiagnostics.Builder diags) {
        String host = or(Attrs.string(config, "host"), env.get("PGHOST"), "localhost");
        BigDecimal p = Attrs.number(config, "port");
        int port = p != null ? p.intValue() : Integer.parseInt(or(null, env.get("PGPORT"), "5432"));
        String database = or(Attrs.string(config, "database"), env.get("PGDATABASE"), "postgres");
        String user = or(Attrs.string(config, "username"), env.get("PGUSER"), "postgres");
        String password = or(Attrs.string(config, "password"), env.get("PGPASSWORD"), null);
        String sslmode = or(Attrs.string(config, "sslmode"), env.get("PGSSLMODE"), "prefer");
        BigDecimal t = Attrs.number(config, "connect_timeout");
        int timeout = t != null ? t.intValue() : Integer.parseInt(or(null, env.get("PGCONNECT_TIMEOUT"), "180"));
        client = new PgClient(host, port, database, user, password, sslmode, timeout);
    }

    private static String or(String a, String b, String c) {
        return a != null ? a : b != null && !b.isEmpty() ? b : c;
    }
}
