package dev.strata.providers.http;

import dev.strata.provider.Provider;
import dev.strata.provider.ProviderAddress;
import dev.strata.providers.BuiltinFactory;
import dev.strata.resilience.Sleeper;

/** Registers {@code hashicorp/http}. */
public final class HttpProviderFactory extends BuiltinFactory {

    public HttpProviderFactory() {
        super(ProviderAddress.hashicorp("http"), "http");
    }

    @Override
    public Provider create() {
        return new HttpProvider(Sleeper.SYSTEM);
    }
}
