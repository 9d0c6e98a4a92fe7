package dev.strata.providers.time;

import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.SdkProvider;
import dev.strata.resilience.Sleeper;
import java.time.Clock;
import java.util.List;

/** {@code hashicorp/time}: timestamps recorded in state, offsets, rotations and sleeps. */
final class TimeProvider extends SdkProvider {

    private final TimeSleep sleep;

    TimeProvider(Clock clock, Sleeper sleeper) {
        this(clock, new TimeSleep(clock, sleeper));
    }

    private TimeProvider(Clock clock, TimeSleep sleep) {
        super(
                Schema.of(Block.builder().build()),
                List.of(new TimeStatic(clock), new TimeOffset(clock), new TimeRotating(clock), sleep),
                List.of());
        this.sleep = sleep;
    }

    /** Stopping ends running sleeps at once, as Terraform's time_sleep returns when its context is cancelled. */
    @Override
    public ProviderDiagnostics stop() {
        sleep.interruptSleeps();
        return super.stop();
    }
}
