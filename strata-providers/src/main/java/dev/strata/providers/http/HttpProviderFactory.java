package dev.strata.providers.http;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;
import dev.strata.resilience.Sleeper;

/** Registers {@code hashicorp/http}. */
public final class HttpProviderFactory extends BuiltinFactory {

    public HttpProviderFactory() {
        super(dev.strata.addr.Provider.hashicorp("http"), "http");
    }

    @Override
    public Provider create() {
        return new HttpProvider(Sleeper.SYSTEM);
    }
}
