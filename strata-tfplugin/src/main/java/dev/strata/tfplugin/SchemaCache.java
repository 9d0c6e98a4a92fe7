package dev.strata.tfplugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.tfplugin.ProviderSchema.FunctionParameter;
import dev.strata.tfplugin.ProviderSchema.FunctionSignature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
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
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int FORMAT = 1;

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

    /** The schema stored for the package with this hash, if any. */
    public Optional<ProviderSchema> load(String packageHash) {
        Path f = file(packageHash);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            JsonNode root = MAPPER.readTree(f.toFile());
            if (root.path("format").asInt() != FORMAT
                    || !packageHash.equals(root.path("package_hash").asText())) {
                return Optional.empty();
            }
            JsonNode caps = root.path("server_capabilities");
            Optional<ProviderSchema.Schema> meta = root.has("provider_meta")
                    ? Optional.of(SchemaJson.readSchema(root.get("provider_meta")))
                    : Optional.empty();
            ProviderSchema s = SchemaJson.read(
                    root.path("schema"),
                    meta,
                    new ProviderSchema.ServerCapabilities(
                            caps.path("plan_destroy").asBoolean(),
                            caps.path("get_provider_schema_optional").asBoolean(),
                            caps.path("move_resource_state").asBoolean()));
            return Optional.of(withUnknownArguments(s, root.path("functions_allow_unknown")));
        } catch (IOException | RuntimeException e) {
            LOG.debug("schema cache entry {} is unusable ({}); fetching the schema from the provider", f, e.toString());
            return Optional.empty();
        }
    }

    /** Stores {@code schema} for the package with this hash; failures only cost a slower next run. */
    public void store(String packageHash, ProviderSchema schema) {
        ObjectNode root = MAPPER.createObjectNode();
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
        root.set("schema", SchemaJson.write(schema));
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "schema", ".tmp");
            try {
                MAPPER.writeValue(tmp.toFile(), root);
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
