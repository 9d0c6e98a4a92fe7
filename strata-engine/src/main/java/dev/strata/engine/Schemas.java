package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.value.Value;
import dev.strata.provider.Block;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.ProviderSource;
import dev.strata.provider.Schema;
import dev.strata.provider.SchemaValues;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Provider schemas for reading a state without configuring anything, so {@code show} can decode
 * each object by its schema (typed values, dynamic attributes unwrapped, sensitive attributes
 * marked). Providers are created only to ask for their schema, and closed at once.
 */
public final class Schemas {
    private final ProviderSource source;
    private final Map<dev.strata.addr.Provider, Optional<ProviderSchema>> cache = new HashMap<>();

    public Schemas(ProviderSource source) {
        this.source = source;
    }

    private Optional<ProviderSchema> of(AbsProviderConfig stateProvider) {
        return of(stateProvider.provider());
    }

    private Optional<ProviderSchema> of(dev.strata.addr.Provider provider) {
        return cache.computeIfAbsent(provider, p -> {
            ProviderFactory f = source.resolve(p, VersionConstraint.ANY).value();
            if (f == null) {
                return Optional.empty();
            }
            try (Provider prov = f.create()) {
                return Optional.of(prov.schema());
            }
        });
    }

    /** The schema block of a resource type or data source of the provider a state or plan names. */
    public Optional<Block> block(AbsProviderConfig stateProvider, boolean data, String type) {
        return of(stateProvider)
                .map(ps -> data ? ps.dataSource(type) : ps.resourceType(type))
                .map(Schema::block);
    }

    /** The schema (block and version) of a resource type, data source or ephemeral resource type of a provider. */
    public Optional<Schema> resource(dev.strata.addr.Provider provider, dev.strata.addr.Resource resource) {
        return of(provider).map(ps -> Walk.schemaOf(ps, resource));
    }

    /** The schema of a provider's own configuration block. */
    public Optional<Block> provider(dev.strata.addr.Provider provider) {
        return of(provider).map(ps -> ps.provider().block());
    }

    /** An object of a resource as a value of its schema's type, with sensitive marks; empty without a schema. */
    public Optional<Value> decode(ResourceState rs, ResourceInstanceObject o) {
        Optional<ProviderSchema> ps = of(rs.provider());
        if (ps.isEmpty()) {
            return Optional.empty();
        }
        Schema s = Walk.schemaOf(ps.get(), new dev.strata.addr.Resource(rs.mode(), rs.type(), rs.name()));
        if (s == null || o.schemaVersion() != s.version()) {
            return Optional.empty();
        }
        Block b = s.block();
        try {
            Value v = StateValues.fromJson(o.attributes(), b.impliedType(), o.sensitiveAttributes());
            return Optional.of(SchemaValues.markSensitive(b, v));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
