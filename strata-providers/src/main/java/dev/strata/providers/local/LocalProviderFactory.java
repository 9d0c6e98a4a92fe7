package dev.strata.providers.local;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;

/** Registers {@code hashicorp/local}. */
public final class LocalProviderFactory extends BuiltinFactory {

    public LocalProviderFactory() {
        super(dev.strata.addr.Provider.hashicorp("local"), "local");
    }

    @Override
    public Provider create() {
        return new LocalProvider();
    }
}
