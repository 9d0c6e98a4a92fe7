package dev.strata.sdk.gen;

import dev.strata.provider.ProviderSchema;
import java.util.Objects;

/**
 * What bindings are generated from: a provider's source address, the version its schema belongs to
 * (shown in the generated sources; may be empty when unknown) and the schema itself.
 */
public record ProviderBinding(dev.strata.addr.Provider address, String version, ProviderSchema schema) {
    public ProviderBinding {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(schema, "schema");
        version = version == null ? "" : version;
    }
}
