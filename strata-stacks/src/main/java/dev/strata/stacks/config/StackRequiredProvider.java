package dev.strata.stacks.config;

import dev.strata.addr.Provider;
import dev.strata.hcl.SourceRange;

/**
 * An entry of a stack's {@code required_providers}: local name, source address and the version
 * constraint as written (null when absent).
 */
public record StackRequiredProvider(String name, Provider source, String version, SourceRange declRange) {}
