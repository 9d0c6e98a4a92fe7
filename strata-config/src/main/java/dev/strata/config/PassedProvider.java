package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.hcl.SourceRange;

/**
 * One entry of a module call's {@code providers} map: the child's name for the parent's configuration.
 * {@code inChildNameRange} is where the key's local name is ({@code aws} of {@code aws.west = aws.e}).
 */
public record PassedProvider(LocalProviderConfig inChild, ProviderRef inParent, SourceRange inChildNameRange) {}
