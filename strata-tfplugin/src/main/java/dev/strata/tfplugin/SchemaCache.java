package dev.strata.tfplugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.provider.LazySortedMap;
import dev.strata.tfplugin.ProviderSchema.FunctionParameter;
import dev.strata.tfplugin.ProviderSchema.FunctionSignature;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provider schemas kept on disk, keyed by the provider package's hash ({@code h1:...} from the lock
 * file), so that a later run does not have to start the provider and decode its schema again: the
 * AWS provider's is tens of megabytes and takes seconds to fetch. A package with another hash is
 * another key, so an upgraded provider never sees a stale schema. The file is the schema in
 * Terraform's JSON form ({@link SchemaJson}) plus what that form leaves out (server capabilities,
 * the provider-meta schema, which function parameters accept unknown values).
 *
 * <p>A damaged or unreadable entry is treated as missing; writes go to a temporary file that is
 * renamed into place, so concurrent runs never read a half-written entry.
 */
public final class SchemaCache {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaCache.class);
    /**
     * Made on first use: every plan and validate builds an {@link InstalledProviders}, and with it this
     * class, but most never read or write a schema; creating a Jackson mapper is a tenth of a small
     * command's CPU.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    /** 2: a header line with an index, then each type's schema on its own (1: one JSON document). */
    private static final int FORMAT = 2;

    private static final String RESOURCES = "resource_schemas";
    private static final String DATA_SOURCES = "data_source_schemas";
    private static final String EPHEMERAL_RESOURCES = "ephemeral_resource_schemas";

    private final Path dir;

    public SchemaCache(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    private Path file(String packageHash) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(packageHash.getBytes(StandardCharsets.UTF_8));
            return dir.resolve(HexFormat.of().formatHex(d) + ".json");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * The schema stored for the package with this hash, if any. Only the provider's own schema, its
     * functions and the index are decoded here; each resource type's, data source's and ephemeral
     * resource type's schema is decoded when first asked for ({@link LazySortedMap}), so a
     * configuration using 20 of the AWS provider's 2,000 pays for those 20.
     */
    public Optional<ProviderSchema> load(String packageHash) {
        Path f = file(packageHash);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            byte[] bytes = Files.readAllBytes(f);
            int newline = indexOf(bytes, (byte) '\n');
            if (newline < 0) {
                return Optional.empty();
            }
            JsonNode root = Json.MAPPER.readTree(bytes, 0, newline);
            int bodyStart = newline + 1;
            int bodyLength = bytes.length - bodyStart;
            if (root.path("format").asInt() != FORMAT
                    || !packageHash.equals(root.path("package_hash").asText())
                    || root.path("body_length").asLong(-1) != bodyLength
                    || root.path("body_crc32").asLong(-1) != crc32(bytes, bodyStart, bodyLength)) {
                // Another format, or damaged: the lazily decoded parts could fail later, so none is used.
                return Optional.empty();
            }
            JsonNode caps = root.path("server_capabilities");
            Optional<ProviderSchema.Schema> meta = root.has("provider_meta")
                    ? Optional.of(SchemaJson.readSchema(root.get("provider_meta")))
                    : Optional.empty();
            ProviderSchema.ServerCapabilities capabilities = new ProviderSchema.ServerCapabilities(
                    caps.path("plan_destroy").asBoolean(),
                    caps.path("get_provider_schema_optional").asBoolean(),
                    caps.path("move_resource_state").asBoolean());
            ProviderSchema eager = SchemaJson.read(root.path("schema"), meta, capabilities);
            JsonNode index = root.path("index");
            ProviderSchema s = new ProviderSchema(
                    eager.provider(),
                    meta,
                    lazy(index.path(RESOURCES), bytes, bodyStart, f),
                    lazy(index.path(DATA_SOURCES), bytes, bodyStart, f),
                    eager.functions(),
                    capabilities,
                    lazy(index.path(EPHEMERAL_RESOURCES), bytes, bodyStart, f));
            return Optional.of(withUnknownArguments(s, root.path("functions_allow_unknown")));
        } catch (IOException | RuntimeException e) {
            LOG.debug("schema cache entry {} is unusable ({}); fetching the schema from the provider", f, e.toString());
            return Optional.empty();
        }
    }

    /** The schemas {@code index} locates ({@code name: [offset, length]} in the body), each decoded on first use. */
    private static LazySortedMap<ProviderSchema.Schema> lazy(JsonNode index, byte[] bytes, int bodyStart, Path f) {
        List<String> names = new ArrayList<>();
        index.fieldNames().forEachRemaining(names::add);
        for (String n : names) {
            JsonNode at = index.get(n);
            long off = at.path(0).asLong(-1);
            long len = at.path(1).asLong(-1);
            if (off < 0 || len <= 0 || bodyStart + off + len > bytes.length) {
                throw new IllegalStateException("index entry " + n + " is outside the body");
            }
        }
        return LazySortedMap.of(names, n -> {
            JsonNode at = index.get(n);
            try {
                return SchemaJson.readSchema(Json.MAPPER.readTree(
                        bytes, bodyStart + at.get(0).asInt(), at.get(1).asInt()));
            } catch (IOException e) {
                // The body's checksum was verified when the entry was loaded, so this is a bug, not damage.
                throw new UncheckedIOException("schema of " + n + " in " + f + " cannot be read", e);
            }
        });
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static long crc32(byte[] bytes, int off, int len) {
        CRC32 c = new CRC32();
        c.update(bytes, off, len);
        return c.getValue();
    }

    /**
     * Stores {@code schema} for the package with this hash; failures only cost a slower next run.
     * The file is one line of JSON (the header: capabilities, the provider's own schema, functions,
     * and an index) followed by the body: each resource type's, data source's and ephemeral resource
     * type's schema as its own JSON document, at the offset and length the index gives, so that
     * {@link #load} can decode them one by one.
     */
    public void store(String packageHash, ProviderSchema schema) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("package_hash", packageHash);
        ObjectNode caps = root.putObject("server_capabilities");
        caps.put("plan_destroy", schema.capabilities().planDestroy());
        caps.put("get_provider_schema_optional", schema.capabilities().getProviderSchemaOptional());
        caps.put("move_resource_state", schema.capabilities().moveResourceState());
        schema.providerMeta().ifPresent(m -> root.set("provider_meta", SchemaJson.schema(m)));
        ObjectNode unknown = root.putObject("functions_allow_unknown");
        schema.functions().forEach((n, f) -> {
            ArrayNode a = unknown.putArray(n);
            f.parameters().forEach(p -> a.add(p.allowUnknownValues()));
            f.variadicParameter().ifPresent(p -> a.add(p.allowUnknownValues()));
        });
        ObjectNode whole = SchemaJson.write(schema);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ObjectNode index = root.putObject("index");
        try {
            for (String kind : List.of(RESOURCES, DATA_SOURCES, EPHEMERAL_RESOURCES)) {
                ObjectNode at = index.putObject(kind);
                JsonNode schemas = whole.remove(kind);
                if (schemas == null) {
                    continue;
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = schemas.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    byte[] b = Json.MAPPER.writeValueAsBytes(e.getValue());
                    at.putArray(e.getKey()).add(body.size()).add(b.length);
                    body.write(b);
                }
            }
            root.set("schema", whole);
            byte[] bodyBytes = body.toByteArray();
            root.put("body_length", bodyBytes.length);
            root.put("body_crc32", crc32(bodyBytes, 0, bodyBytes.length));
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "schema", ".tmp");
            try {
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp))) {
                    // Jackson writes no raw newline in compact JSON, so the first one ends the header.
                    out.write(Json.MAPPER.writeValueAsBytes(root));
                    out.write('\n');
                    out.write(bodyBytes);
                }
                Files.move(tmp, file(packageHash), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            LOG.debug("could not write schema cache entry in {}: {}", dir, e.toString());
        }
    }

    private static ProviderSchema withUnknownArguments(ProviderSchema s, JsonNode flags) {
        TreeMap<String, FunctionSignature> fns = new TreeMap<>();
        s.functions().forEach((n, f) -> {
            JsonNode a = flags.path(n);
            List<FunctionParameter> ps = new ArrayList<>();
            for (int i = 0; i < f.parameters().size(); i++) {
                ps.add(allowUnknown(f.parameters().get(i), a.path(i).asBoolean()));
            }
            Optional<FunctionParameter> v = f.variadicParameter()
                    .map(p -> allowUnknown(p, a.path(f.parameters().size()).asBoolean()));
            fns.put(
                    n,
                    new FunctionSignature(
                            ps, v, f.returnType(), f.summary(), f.description(), f.deprecationMessage(), f.markdown()));
        });
        return new ProviderSchema(
                s.provider(),
                s.providerMeta(),
                s.resourceSchemas(),
                s.dataSourceSchemas(),
                fns,
                s.capabilities(),
                s.ephemeralResourceSchemas());
    }

    private static FunctionParameter allowUnknown(FunctionParameter p, boolean allow) {
        return new FunctionParameter(p.name(), p.type(), p.allowNullValue(), allow, p.description(), p.markdown());
    }
}
