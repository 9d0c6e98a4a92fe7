package dev.strata.providers.local;

import dev.strata.provider.Provider;
import dev.strata.provider.ProviderAddress;
import dev.strata.providers.BuiltinFactory;

/** Registers {@code hashicorp/local}. */
public final class LocalProviderFactory extends BuiltinFactory {

    public LocalProviderFactory() {
        super(ProviderAddress.hashicorp("local"), "local");
    }

    @Override
    public Provider create() {
        return new LocalProvider();
    }
}
