package dev.strata.provider;

import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything a provider declares: its own configuration block, its resource types, data sources and ephemeral resource types,
 * and the schema of the {@code provider_meta} block modules may write for it (empty when the provider
 * does not support one: a module's {@code provider_meta} block for it is then an error).
 */
public record ProviderSchema(
        Schema provider,
        SortedMap<String, Schema> resourceTypes,
        SortedMap<String, Schema> dataSources,
        Optional<Schema> providerMeta,
        SortedMap<String, Schema> ephemeralResources) {

    public ProviderSchema {
        Objects.requireNonNull(provider, "provider");
        resourceTypes = immutable(resourceTypes);
        dataSources = immutable(dataSources);
        Objects.requireNonNull(providerMeta, "providerMeta");
        ephemeralResources = immutable(ephemeralResources);
    }

    /** A copy, except of a {@link LazySortedMap}: already immutable, and copying would compute every value. */
    private static SortedMap<String, Schema> immutable(SortedMap<String, Schema> m) {
        return m instanceof LazySortedMap<Schema> lazy ? lazy : Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }

    /** A provider without ephemeral resource types. */
    public ProviderSchema(
            Schema provider,
            SortedMap<String, Schema> resourceTypes,
            SortedMap<String, Schema> dataSources,
            Optional<Schema> providerMeta) {
        this(provider, resourceTypes, dataSources, providerMeta, Collections.emptySortedMap());
    }

    /** A provider without a {@code provider_meta} schema. */
    public ProviderSchema(
            Schema provider, SortedMap<String, Schema> resourceTypes, SortedMap<String, Schema> dataSources) {
        this(provider, resourceTypes, dataSources, Optional.empty());
    }

    public Schema resourceType(String name) {
        return resourceTypes.get(name);
    }

    public Schema dataSource(String name) {
        return dataSources.get(name);
    }

    public Schema ephemeralResource(String name) {
        return ephemeralResources.get(name);
    }
}
