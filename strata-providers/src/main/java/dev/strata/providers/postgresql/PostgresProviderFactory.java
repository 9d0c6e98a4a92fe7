package dev.strata.providers.postgresql;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;

/** Registers {@code cyrilgdn/postgresql}, the PostgreSQL provider configurations use. */
public final class PostgresProviderFactory extends BuiltinFactory {

    public PostgresProviderFactory() {
        super(
                new dev.strata.addr.Provider(dev.strata.addr.Provider.DEFAULT_HOSTNAME, "cyrilgdn", "postgresql"),
                "postgresql");
    }

    @Override
    public Provider create() {
        return new PostgresProvider();
    }
}
