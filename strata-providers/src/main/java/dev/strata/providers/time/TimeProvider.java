package dev.strata.providers.time;

import dev.strata.provider.Block;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.SdkProvider;
import java.time.Clock;
import java.util.List;

/** {@code hashicorp/time}: timestamps recorded in state, offsets, rotations and sleeps. */
final class TimeProvider extends SdkProvider {

    TimeProvider(Clock clock, Sleeper sleeper) {
        super(Schema.of(Block.builder().build()), List.of(
                new TimeStatic(clock),
                new TimeOffset(clock),
                new TimeRotating(clock),
                new TimeSleep(clock, sleeper)), List.of());
    }
}
