package dev.strata.provider;

import dev.strata.addr.Version;

/**
 * The service a provider implementation registers with {@link java.util.ServiceLoader} (in
 * {@code META-INF/services/dev.strata.provider.ProviderFactory}), so the
 * {@link ProviderRegistry} can find it by source address.
 */
public interface ProviderFactory {

    /** The source address configurations use for this provider. */
    dev.strata.addr.Provider address();

    /** The version this implementation reports, checked against {@code required_providers}. */
    Version version();

    /** A new, unconfigured provider instance; each module's provider configuration gets its own. */
    Provider create();
}
