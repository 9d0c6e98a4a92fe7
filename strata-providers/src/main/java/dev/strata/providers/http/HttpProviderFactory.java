package dev.strata.providers.http;

import dev.strata.provider.Provider;
import dev.strata.provider.ProviderAddress;
import dev.strata.providers.BuiltinFactory;

/** Registers {@code hashicorp/http}. */
public final class HttpProviderFactory extends BuiltinFactory {

    public HttpProviderFactory() {
        super(ProviderAddress.hashicorp("http"), "http");
    }

    @Override
    public Provider create() {
        return new HttpProvider(d -> Thread.sleep(d));
    }
}
