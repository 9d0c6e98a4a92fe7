package dev.strata.providers.random;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;

/** Registers {@code hashicorp/random}. */
public final class RandomProviderFactory extends BuiltinFactory {

    public RandomProviderFactory() {
        super(dev.strata.addr.Provider.hashicorp("random"), "random");
    }

    @Override
    public Provider create() {
        return new RandomProvider(new java.security.SecureRandom());
    }
}
