package dev.strata.cli.command;

import dev.strata.cli.version.Version;
import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.Encryption;
import dev.strata.state.LocalBackend;
import dev.strata.state.PgBackend;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * A backend as chosen for a working directory: its type and its settings as strings (the block's,
 * merged with {@code -backend-config} at init). Two specs are the same backend when they are equal.
 */
record BackendSpec(String type, SortedMap<String, String> settings) {

    /** No backend block: state in {@code terraform.tfstate} of the working directory. */
    static final BackendSpec DEFAULT_LOCAL = new BackendSpec("local", Map.of());

    BackendSpec(String type, Map<String, String> settings) {
        this(type, new TreeMap<>(settings));
    }

    BackendSpec {
        settings = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(settings));
    }

    /** The same backend with {@code overrides} set on top (later {@code -backend-config} wins). */
    BackendSpec with(Map<String, String> overrides) {
        TreeMap<String, String> merged = new TreeMap<>(settings);
        merged.putAll(overrides);
        return new BackendSpec(type, merged);
    }

    /**
     * A fingerprint of the backend block as written in the files, recorded at init so that a later
     * change of the block is noticed (Terraform records a hash there for the same reason).
     */
    long hash() {
        CRC32 crc = new CRC32();
        StringBuilder sb = new StringBuilder(type).append('\n');
        settings.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        crc.update(sb.toString().getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    /** Connects to (or, for local, addresses) the backend; errors are diagnostics. */
    Result<Backend> open(CommandContext context, Encryption encryption) {
        return switch (type) {
            case "local" ->
                Result.of(LocalBackend.in(context.workingDir(), Version.current())
                        .withPaths(settings.get("path"), settings.get("workspace_dir"))
                        .withEncryption(encryption));
            case "pg" -> {
                Result<PgBackend> pg = PgBackend.connect(
                        settings.get("conn_str"), settings.get("schema_name"), context.env(), Version.current());
                yield Result.of(pg.hasErrors() ? null : pg.value().withEncryption(encryption), pg.diagnostics());
            }
            case "s3" -> {
                Result<dev.strata.state.S3Backend> s3 =
                        dev.strata.state.S3Backend.configure(settings, context.env(), Version.current());
                yield Result.of(s3.hasErrors() ? null : s3.value().withEncryption(encryption), s3.diagnostics());
            }
            case "http" -> {
                Result<dev.strata.state.HttpBackend> http =
                        dev.strata.state.HttpBackend.configure(settings, context.env(), Version.current());
                yield Result.of(http.hasErrors() ? null : http.value().withEncryption(encryption), http.diagnostics());
            }
            default ->
                Result.of(
                        null,
                        dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                "Unsupported backend type",
                                "The working directory was initialized with the \"" + type
                                        + "\" backend, which Strata does not implement. Run \"strata init -reconfigure\" with a "
                                        + "\"local\", \"pg\", \"s3\" or \"http\" backend.",
                                null)));
        };
    }

    /** {@code "pg"}, for messages. Settings are not shown: a connection string may hold a password. */
    @Override
    public String toString() {
        return "\"" + type + "\"";
    }
}
