package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/**
 * A reference to a provider configuration, as in a resource's {@code provider = aws.west} or a
 * module's {@code providers} map; {@code key} is the instance key expression when the configuration
 * has {@code for_each} ({@code aws.by_region[each.key]}), else null.
 */
public record ProviderRef(LocalProviderConfig config, Expression key, SourceRange range) {
    @Override
    public String toString() {
        return config.toString() + (key == null ? "" : "[...]");
    }
}
