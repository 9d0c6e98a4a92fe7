package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.hcl.Body;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/**
 * A {@code provider} block. {@code forEach} makes it a set of configurations (OpenTofu 1.9 style), each
 * body evaluated with {@code each.*}; {@code config} is kept for the provider's own schema. {@code empty}
 * is a block with nothing in it but {@code alias} (and {@code for_each}): no argument, no nested block, no
 * {@code version}. In a module such a block is what Terraform calls a proxy configuration, the old way to
 * say that the caller passes the configuration in; any other block configures the provider itself.
 */
public record ProviderConfig(
        String name,
        String alias,
        Expression forEach,
        Body config,
        SourceRange declRange,
        SourceRange nameRange,
        boolean empty) {
    public LocalProviderConfig addr() {
        return new LocalProviderConfig(name, alias);
    }

    public boolean isInstanced() {
        return forEach != null;
    }
}
