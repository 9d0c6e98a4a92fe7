package dev.strata.providers.cloudsim;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;
import dev.strata.resilience.Sleeper;

/** Registers {@code strata/cloudsim}, the provider for Strata's cloud simulator. */
public final class CloudsimProviderFactory extends BuiltinFactory {

    public CloudsimProviderFactory() {
        super(
                new dev.strata.addr.Provider(dev.strata.addr.Provider.DEFAULT_HOSTNAME, "strata", "cloudsim"),
                "cloudsim");
    }

    @Override
    public Provider create() {
        return new CloudsimProvider(Sleeper.SYSTEM);
    }
}
