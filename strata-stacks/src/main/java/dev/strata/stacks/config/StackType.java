package dev.strata.stacks.config;

import dev.strata.addr.Provider;
import dev.strata.lang.value.TypeConstraint;

/**
 * The declared type of a stack variable or output: an ordinary type constraint, or a provider
 * configuration reference ({@code providerconfig(aws)}), which only the Stacks language has.
 */
public sealed interface StackType {
    /** An ordinary value type constraint, as in the modules language. */
    record Value(TypeConstraint constraint) implements StackType {}

    /**
     * {@code providerconfig(LOCAL_NAME)}: a reference to a provider configuration of the provider
     * {@code required_providers} names {@code localName} (or a built-in one).
     */
    record ProviderConfig(String localName, Provider provider) implements StackType {}
}
