package dev.strata.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ManualClockTest {
    @Test
    void standsStillUntilMoved() {
        ManualClock clock = new ManualClock(Instant.parse("2024-01-31T10:20:30.123Z"));
        assertThat(clock.instant()).isEqualTo(clock.instant()).isEqualTo(Instant.parse("2024-01-31T10:20:30.123Z"));
        clock.advance(Duration.ofHours(1));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2024-01-31T11:20:30.123Z"));
        clock.set(Instant.EPOCH);
        assertThat(clock.millis()).isZero();
        assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
    }
}
