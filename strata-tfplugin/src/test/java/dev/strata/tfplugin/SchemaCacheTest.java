package dev.strata.tfplugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.types.Type;
import dev.strata.provider.LazySortedMap;
import dev.strata.tfplugin.ProviderSchema.Attribute;
import dev.strata.tfplugin.ProviderSchema.Block;
import dev.strata.tfplugin.ProviderSchema.FunctionParameter;
import dev.strata.tfplugin.ProviderSchema.FunctionSignature;
import dev.strata.tfplugin.ProviderSchema.NestedBlock;
import dev.strata.tfplugin.ProviderSchema.NestingMode;
import dev.strata.tfplugin.ProviderSchema.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaCacheTest {
    private static final String HASH = "h1:aGFzaA==";

    @TempDir
    Path dir;

    private static Schema schema(String attribute, long version) {
        TreeMap<String, Attribute> attrs = new TreeMap<>();
        attrs.put(
                attribute,
                new Attribute(
                        attribute, Type.STRING, Optional.empty(), "a\nb", false, true, false, false, false, false));
        attrs.put(
                "id", new Attribute("id", Type.STRING, Optional.empty(), "", false, false, true, false, false, false));
        TreeMap<String, NestedBlock> blocks = new TreeMap<>();
        blocks.put(
                "rule",
                new NestedBlock(
                        "rule", NestingMode.LIST, new Block(new TreeMap<>(attrs), new TreeMap<>(), "", false), 0, 2));
        return new Schema(version, new Block(attrs, blocks, "the " + attribute, false));
    }

    /** 50 resource types, 10 data sources, one ephemeral resource type and a function. */
    private static ProviderSchema provider() {
        TreeMap<String, Schema> resources = new TreeMap<>();
        for (int i = 0; i < 50; i++) {
            resources.put("acme_thing_" + i, schema("name_" + i, i));
        }
        TreeMap<String, Schema> data = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            data.put("acme_lookup_" + i, schema("filter_" + i, 0));
        }
        TreeMap<String, Schema> ephemeral = new TreeMap<>();
        ephemeral.put("acme_secret", schema("path", 0));
        TreeMap<String, FunctionSignature> functions = new TreeMap<>();
        functions.put(
                "parse",
                new FunctionSignature(
                        List.of(new FunctionParameter("s", Type.STRING, false, true, "")),
                        Optional.empty(),
                        Type.STRING,
                        "",
                        "",
                        ""));
        return new ProviderSchema(
                schema("region", 0),
                Optional.of(schema("module_name", 0)),
                resources,
                data,
                functions,
                new ProviderSchema.ServerCapabilities(true, true, false),
                ephemeral);
    }

    @Test
    void aStoredSchemaLoadsEqual() {
        SchemaCache cache = new SchemaCache(dir);
        ProviderSchema original = provider();
        cache.store(HASH, original);
        ProviderSchema loaded = cache.load(HASH).orElseThrow();
        assertThat(loaded).isEqualTo(original);
        assertThat(loaded.functions().get("parse").parameters().get(0).allowUnknownValues())
                .isTrue();
        assertThat(cache.load("h1:b3RoZXI=")).isEmpty();
    }

    @Test
    void onlyTheTypesAskedForAreDecoded() {
        SchemaCache cache = new SchemaCache(dir);
        cache.store(HASH, provider());
        ProviderSchema loaded = cache.load(HASH).orElseThrow();
        assertThat(loaded.resourceSchemas()).isInstanceOf(LazySortedMap.class);
        LazySortedMap<Schema> resources = (LazySortedMap<Schema>) loaded.resourceSchemas();
        assertThat(resources.keySet()).hasSize(50).contains("acme_thing_0", "acme_thing_49");
        assertThat(resources.computedCount()).isZero();
        assertThat(resources.get("acme_thing_7")).isEqualTo(schema("name_7", 7));
        assertThat(resources.get("acme_thing_none")).isNull();
        assertThat(resources.computedCount()).isEqualTo(1);

        // The SPI schema the engine sees converts lazily too, and agrees with converting it all at once.
        dev.strata.provider.ProviderSchema spi = SpiSchemas.toSpi(loaded);
        LazySortedMap<?> spiResources = (LazySortedMap<?>) spi.resourceTypes();
        assertThat(spi.resourceType("acme_thing_3"))
                .isEqualTo(SpiSchemas.toSpi(provider()).resourceType("acme_thing_3"));
        assertThat(spiResources.computedCount()).isEqualTo(1);
        assertThat(resources.computedCount()).isEqualTo(2);
        assertThat(spi).isEqualTo(SpiSchemas.toSpi(provider()));
    }

    @Test
    void aDamagedOrOldEntryIsMissing() throws IOException {
        SchemaCache cache = new SchemaCache(dir);
        cache.store(HASH, provider());
        Path file;
        try (Stream<Path> s = Files.list(dir)) {
            file = s.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(file);
        // One byte of one type's schema changed: the checksum no longer matches.
        bytes[bytes.length - 5] ^= 1;
        Files.write(file, bytes);
        assertThat(cache.load(HASH)).isEmpty();
        // The format before the index (one JSON document) is not read as this one.
        Files.writeString(file, "{\"format\":1,\"package_hash\":\"" + HASH + "\",\"schema\":{}}");
        assertThat(cache.load(HASH)).isEmpty();
        // Truncated.
        cache.store(HASH, provider());
        bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        assertThat(cache.load(HASH)).isEmpty();
    }
}
