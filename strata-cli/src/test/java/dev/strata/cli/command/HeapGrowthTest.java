package dev.strata.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeapGrowthTest {
    @Test
    void theNextThresholdFollowsTheLiveDataAboveAFloor() {
        assertThat(HeapGrowth.nextThreshold(0)).isEqualTo(HeapGrowth.FLOOR);
        assertThat(HeapGrowth.nextThreshold(100L << 20)).isEqualTo(HeapGrowth.FLOOR);
        assertThat(HeapGrowth.nextThreshold(600L << 20)).isEqualTo(900L << 20);
    }

    @Test
    void installingTwiceOrUnderAnotherCollectorIsHarmless() {
        HeapGrowth.limit();
        HeapGrowth.limit();
    }
}
