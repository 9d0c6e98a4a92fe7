package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/**
 * One entry of a {@code providers = { NAME = EXPR }} argument: the module's provider configuration
 * slot {@code name} and the expression giving the provider configuration for it.
 */
public record ProviderArgument(String name, SourceRange nameRange, Expression value) {}
