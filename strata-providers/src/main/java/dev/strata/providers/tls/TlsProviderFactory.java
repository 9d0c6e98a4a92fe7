package dev.strata.providers.tls;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;
import java.time.Clock;

/** Registers {@code hashicorp/tls}. */
public final class TlsProviderFactory extends BuiltinFactory {

    public TlsProviderFactory() {
        super(dev.strata.addr.Provider.hashicorp("tls"), "tls");
    }

    @Override
    public Provider create() {
        return new TlsProvider(Clock.systemUTC(), new java.security.SecureRandom());
    }
}
