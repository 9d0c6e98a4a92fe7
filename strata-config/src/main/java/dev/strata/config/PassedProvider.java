package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;

/** One entry of a module call's {@code providers} map: the child's name for the parent's configuration. */
public record PassedProvider(LocalProviderConfig inChild, ProviderRef inParent) {}
