package dev.strata.providers.postgresql;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.NestedBlock;
import dev.strata.provider.NestingMode;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.EngineContext;
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
            .attribute(
                    "scheme",
                    Attribute.optional(Type.STRING).withDescription("Connection scheme; only `postgres` is supported."))
            .attribute(
                    "connection_string",
                    Attribute.optional(Type.STRING)
                            .withSensitive()
                            .withDescription(
                                    "A libpq "
                                            + "connection URI, postgres://user:password@host:port/database?sslmode=...&connect_timeout=...; "
                                            + "the separate arguments, when set, take precedence over its parts. (A Strata extension.)"))
            .attribute(
                    "host",
                    Attribute.optional(Type.STRING).withDescription("Name of PostgreSQL server address to connect to"))
            .attribute(
                    "port",
                    Attribute.optional(Type.NUMBER)
                            .withDescription(
                                    "The PostgreSQL port number to connect to at the server host, or socket file name extension for Unix-domain connections"))
            .attribute(
                    "database",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "The name of the database to connect to in order to connect to (defaults to `postgres`)."))
            .attribute(
                    "username", Attribute.optional(Type.STRING).withDescription("PostgreSQL user name to connect as"))
            .attribute(
                    "password",
                    Attribute.optional(Type.STRING)
                            .withSensitive()
                            .withDescription(
                                    "Password to be used if the PostgreSQL server demands password authentication"))
            .attribute(
                    "hostaddr",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "Numeric IP address of host to connect to; used instead of host for the connection"))
            .attribute(
                    "database_username",
                    Attribute.optional(Type.STRING)
                            .withDescription("Database username associated to the connected user (for user name maps)"))
            .attribute(
                    "sslmode",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "This option determines whether or with what priority a secure SSL TCP/IP connection will be negotiated with the PostgreSQL server"))
            .attribute(
                    "ssl_mode",
                    Attribute.optional(Type.STRING)
                            .withDeprecated()
                            .withDescription("Rename PostgreSQL provider `ssl_mode` attribute to `sslmode`"))
            .attribute(
                    "sslrootcert",
                    Attribute.optional(Type.STRING)
                            .withDescription(
                                    "The SSL server root certificate file path. The file must contain PEM encoded data."))
            .block(
                    "clientcert",
                    new NestedBlock(
                            NestingMode.LIST,
                            Block.builder()
                                    .attribute(
                                            "cert",
                                            Attribute.required(Type.STRING)
                                                    .withDescription(
                                                            "The SSL client certificate file path. The file must contain PEM encoded data."))
                                    .attribute(
                                            "key",
                                            Attribute.required(Type.STRING)
                                                    .withDescription(
                                                            "The SSL client certificate private key file path. The file must contain PEM encoded data."))
                                    .attribute(
                                            "sslinline",
                                            Attribute.optional(Type.BOOL)
                                                    .withDescription(
                                                            "Must be set to true if you are inlining the cert/key instead of using a file path."))
                                    .build(),
                            0,
                            1))
            .attribute(
                    "connect_timeout",
                    Attribute.optional(Type.NUMBER)
                            .withDescription(
                                    "Maximum wait for connection, in seconds. Zero or not specified means wait indefinitely."))
            .attribute(
                    "superuser",
                    Attribute.optional(Type.BOOL)
                            .withDescription("Specify if the user to connect as is a Postgres superuser or not."))
            .attribute(
                    "max_connections",
                    Attribute.optional(Type.NUMBER)
                            .withDescription(
                                    "Maximum number of connections to establish to the database. Zero means unlimited."))
            .attribute(
                    "expected_version",
                    Attribute.optional(Type.STRING).withDescription("Specify the expected version of PostgreSQL."))
            .build());

    private static final Set<String> SSL_MODES =
            Set.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

    private volatile PgClient client;

    PostgresProvider() {
        this(new Holder());
    }

    private PostgresProvider(Holder holder) {
        super(
                CONFIG,
                List.of(
                        new RoleResource(holder),
                        new DatabaseResource(holder),
                        new SchemaResource(holder),
                        new ExtensionResource(holder),
                        new GrantResource(holder)),
                List.of());
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
        for (String a : List.of("sslmode", "ssl_mode")) {
            Value mode = Attrs.get(config, a).unmarkDeep();
            if (mode.isKnownAndNotNull() && !SSL_MODES.contains(mode.asString())) {
                diags.error(
                        "Invalid sslmode",
                        "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full.",
                        AttributePath.of(a));
            }
        }
        String cs = Attrs.string(config, "connection_string");
        if (cs != null && ConnectionUri.parse(cs) == null) {
            diags.error(
                    "Invalid connection_string",
                    "connection_string must be a URI such as "
                            + "postgres://user@host:5432/database?sslmode=disable (the value is not shown: it may hold a password).",
                    AttributePath.of("connection_string"));
        }
        Value scheme = Attrs.get(config, "scheme").unmarkDeep();
        if (scheme.isKnownAndNotNull() && !scheme.asString().equals("postgres")) {
            diags.error(
                    "Unsupported scheme",
                    "Only the \"postgres\" scheme is supported; cloud IAM schemes (awspostgres,"
                            + " gcppostgres) are not.",
                    AttributePath.of("scheme"));
        }
    }

    /**
     * The connection settings, each from the configuration, else its libpq environment variable
     * (from the environment the engine configures the provider with), else the Go provider's default:
     * host {@code PGHOST} (localhost), port {@code PGPORT} (5432), database {@code PGDATABASE}
     * (postgres), username {@code PGUSER} (postgres), password {@code PGPASSWORD}, sslmode
     * {@code PGSSLMODE} (require, as lib/pq's default), connect_timeout {@code PGCONNECT_TIMEOUT} (180).
     */
    @Override
    protected void configure(Value config, ProviderDiagnostics.Builder diags) {
        EngineContext ctx = context();
        String cs = Attrs.string(config, "connection_string");
        ConnectionUri uri = cs == null ? null : ConnectionUri.parse(cs);
        if (uri != null) {
            config = uri.under(config);
        }
        String host = or(
                Attrs.string(config, "hostaddr"),
                or(Attrs.string(config, "host"), ctx.env("PGHOST"), "localhost"),
                null);
        BigDecimal p = Attrs.number(config, "port");
        BigDecimal t = Attrs.number(config, "connect_timeout");
        int port;
        int timeout;
        try {
            port = p != null ? p.intValueExact() : Integer.parseInt(or(null, ctx.env("PGPORT"), "5432"));
            timeout = t != null ? t.intValueExact() : Integer.parseInt(or(null, ctx.env("PGCONNECT_TIMEOUT"), "180"));
        } catch (ArithmeticException | NumberFormatException e) {
            diags.error(
                    "Invalid connection settings",
                    "port and connect_timeout (and PGPORT, PGCONNECT_TIMEOUT) must be whole numbers.",
                    null);
            return;
        }
        String database = or(Attrs.string(config, "database"), ctx.env("PGDATABASE"), "postgres");
        String user = or(Attrs.string(config, "username"), ctx.env("PGUSER"), "postgres");
        String password = or(Attrs.string(config, "password"), ctx.env("PGPASSWORD"), null);
        String sslmode = or(
                or(Attrs.string(config, "sslmode"), Attrs.string(config, "ssl_mode"), null),
                ctx.env("PGSSLMODE"),
                "require");
        Map<String, String> tls = new java.util.TreeMap<>();
        String rootCert = Attrs.string(config, "sslrootcert");
        if (rootCert != null) {
            tls.put("sslrootcert", ctx.resolve(rootCert).toString());
        }
        Value cc = Attrs.get(config, "clientcert").unmarkDeep();
        if (cc.isKnownAndNotNull() && !cc.elements().isEmpty()) {
            Value c = cc.elements().get(0);
            try {
                boolean inline = Boolean.TRUE.equals(Attrs.bool(c, "sslinline"));
                tls.put(
                        "sslcert",
                        inline
                                ? secretFile("cert", Attrs.string(c, "cert"))
                                : ctx.resolve(Attrs.string(c, "cert")).toString());
                tls.put(
                        "sslkey",
                        inline
                                ? secretFile("key", Attrs.string(c, "key"))
                                : ctx.resolve(Attrs.string(c, "key")).toString());
            } catch (java.io.IOException e) {
                diags.error(
                        "Invalid clientcert",
                        "The inline client certificate could not be written to a private temporary file ("
                                + e.getClass().getSimpleName() + ").",
                        AttributePath.of("clientcert"));
                return;
            }
        }
        client = new PgClient(host, port, database, user, password, sslmode, timeout, tls);
    }

    /** Inline PEM for the JDBC driver, which takes files: an owner-only temp file removed at exit. */
    private static String secretFile(String what, String pem) throws java.io.IOException {
        java.nio.file.Path f = java.nio.file.Files.createTempFile(
                "strata-pg-" + what + "-",
                ".pem",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        f.toFile().deleteOnExit();
        java.nio.file.Files.writeString(f, pem);
        return f.toString();
    }

    private static String or(String a, String b, String c) {
        return a != null ? a : b != null && !b.isEmpty() ? b : c;
    }

    /** For tests: the connection settings in effect, without the password. */
    PgClient client() {
        return client;
    }
}
