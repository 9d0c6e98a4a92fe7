package dev.strata.sdk;

/** What {@code depends_on} may name: a resource, a data source or a module call. */
public sealed interface Dependable permits Resource, DataSource, ModuleCall {
    Address address();
}
