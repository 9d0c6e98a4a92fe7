package dev.strata.providers.time;

import dev.strata.provider.Provider;
import dev.strata.providers.BuiltinFactory;
import dev.strata.resilience.Sleeper;
import java.time.Clock;

/** Registers {@code hashicorp/time}. */
public final class TimeProviderFactory extends BuiltinFactory {

    public TimeProviderFactory() {
        super(dev.strata.addr.Provider.hashicorp("time"), "time");
    }

    @Override
    public Provider create() {
        return new TimeProvider(Clock.systemUTC(), Sleeper.SYSTEM);
    }
}
