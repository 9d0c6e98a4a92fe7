package dev.strata.addr;

/** What a {@code -target} or {@code -replace} argument may name. */
public sealed interface Targetable permits ModuleInstance, AbsResource, AbsResourceInstance {}
