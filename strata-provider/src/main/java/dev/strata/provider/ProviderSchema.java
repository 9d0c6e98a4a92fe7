package dev.strata.provider;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/** Everything a provider declares: its own configuration block, its resource types and data sources. */
public record ProviderSchema(
        Schema provider,
        SortedMap<String, Schema> resourceTypes,
        SortedMap<String, Schema> dataSources) {

    public ProviderSchema {
        Objects.requireNonNull(provider, "provider");
        resourceTypes = Collections.unmodifiableSortedMap(new TreeMap<>(resourceTypes));
        dataSources = Collections.unmodifiableSortedMap(new TreeMap<>(dataSources));
    }

    public Schema resourceType(String name) {
        return resourceTypes.get(name);
    }

    public Schema dataSource(String name) {
        return dataSources.get(name);
    }
}
