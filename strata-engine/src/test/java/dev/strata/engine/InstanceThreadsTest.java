package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InstanceThreadsTest {
    @Test
    void noMoreThreadsAreAliveAtOnceThanAllowed() throws InterruptedException {
        AtomicInteger alive = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        List<Runnable> tasks = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            tasks.add(() -> {
                peak.accumulateAndGet(alive.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ran.incrementAndGet();
                alive.decrementAndGet();
            });
        }
        List<Throwable> thrown = InstanceThreads.runAll(tasks, 4);
        assertThat(ran.get()).isEqualTo(200);
        assertThat(peak.get()).isBetween(1, 4);
        assertThat(thrown).hasSize(200).containsOnlyNulls();
    }

    @Test
    void whatATaskThrowsIsReturnedInTaskOrderAndTheOthersStillRun() throws InterruptedException {
        AtomicInteger ran = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("boom");
        List<Runnable> tasks = List.of(
                ran::incrementAndGet,
                () -> {
                    throw boom;
                },
                ran::incrementAndGet);
        List<Throwable> thrown = InstanceThreads.runAll(tasks, 1);
        assertThat(thrown).containsExactly(null, boom, null);
        assertThat(ran.get()).isEqualTo(2);
    }

    @Test
    void anInterruptedCallerStartsNothingMore() {
        AtomicInteger ran = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> InstanceThreads.runAll(List.of(ran::incrementAndGet, ran::incrementAndGet), 1))
                    .isInstanceOf(InterruptedException.class);
        } finally {
            Thread.interrupted();
        }
        assertThat(ran.get()).isZero();
    }

    @Test
    void atLeastOneThreadIsAllowed() {
        assertThatThrownBy(() -> InstanceThreads.runAll(List.of(), 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
