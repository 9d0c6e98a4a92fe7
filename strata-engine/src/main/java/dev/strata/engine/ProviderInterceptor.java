package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.provider.Provider;

/**
 * Lets the application stand in for providers: for a whole provider configuration (the instance the
 * engine configures and asks for schemas), and for the operations on one resource instance. {@code
 * strata test} uses it for mock providers ({@code mock_provider}) and for {@code override_resource} and
 * {@code override_data}; every other caller takes {@link #NONE}.
 */
public interface ProviderInterceptor {
    ProviderInterceptor NONE = new ProviderInterceptor() {};

    /** The provider the engine uses for {@code config}; {@code provider} is the one the source gave. */
    default Provider forConfiguration(AbsProviderConfig config, Provider provider) {
        return provider;
    }

    /** The provider that plans, applies and reads {@code instance}; {@code provider} is its configuration's. */
    default Provider forInstance(AbsResourceInstance instance, Provider provider) {
        return provider;
    }
}
