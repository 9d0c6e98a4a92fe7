package dev.strata.providers.nullprovider;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;

/** Registers {@code hashicorp/null}. */
public final class NullProviderFactory extends BuiltinFactory {

    public NullProviderFactory() {
        super(dev.strata.addr.Provider.hashicorp("null"), "null");
    }

    @Override
    public Provider create() {
        return new NullProvider(new java.security.SecureRandom());
    }
}
