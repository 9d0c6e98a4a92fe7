package dev.strata.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/**
 * An {@code import} block. {@code to} may index with {@code each.key} when {@code forEach} is set, so it
 * stays an expression; {@code provider} is null unless given.
 */
public record ImportConfig(
        Expression to, Expression id, Expression forEach, ProviderRef provider, SourceRange declRange) {}
