package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.hcl.Body;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/**
 * A {@code provider} block. {@code forEach} makes it a set of configurations (OpenTofu 1.9 style), each
 * body evaluated with {@code each.*}; {@code config} is kept for the provider's own schema.
 */
public record ProviderConfig(
        String name, String alias, Expression forEach, Body config, SourceRange declRange, SourceRange nameRange) {
    public LocalProviderConfig addr() {
        return new LocalProviderConfig(name, alias);
    }

    public boolean isInstanced() {
        return forEach != null;
    }
}
