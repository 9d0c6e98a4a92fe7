package dev.strata.cli.tftest;

import dev.strata.addr.Version;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderFactory;

/** Registers {@link TestProvider} as {@code hashicorp/test} 1.0.0 on the test class path. */
public final class TestProviderFactory implements ProviderFactory {
    @Override
    public dev.strata.addr.Provider address() {
        return dev.strata.addr.Provider.hashicorp("test");
    }

    @Override
    public Version version() {
        return Version.of("1.0.0");
    }

    @Override
    public Provider create() {
        return new TestProvider();
    }
}
