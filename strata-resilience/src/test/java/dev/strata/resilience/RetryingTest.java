package dev.strata.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryingTest {

    private final List<Duration> slept = new ArrayList<>();

    /** Retries odd numbers, waiting 10 ms times the attempt. */
    private static Retry oddsRetried(int maxAttempts) {
        return Retry.of(
                "test",
                RetryConfig.<Integer>custom()
                        .maxAttempts(maxAttempts)
                        .retryOnResult(n -> n % 2 == 1)
                        .intervalBiFunction((attempt, n) -> 10L * attempt)
                        .failAfterMaxAttempts(false)
                        .build());
    }

    @Test
    void retriesWhatTheConfigurationRetriesWaitingThroughTheSleeper() {
        AtomicInteger calls = new AtomicInteger();
        int result = Retrying.call(
                oddsRetried(5), slept::add, () -> calls.incrementAndGet() < 3 ? 1 : 2, Retrying.Listener.always());
        assertThat(result).isEqualTo(2);
        assertThat(calls).hasValue(3);
        assertThat(slept).containsExactly(Duration.ofMillis(10), Duration.ofMillis(20));
    }

    @Test
    void returnsTheLastResultWhenTheAttemptsAreUsedUp() {
        AtomicInteger calls = new AtomicInteger();
        int result = Retrying.call(
                oddsRetried(3), slept::add, () -> 2 * calls.incrementAndGet() + 1, Retrying.Listener.always());
        assertThat(result).isEqualTo(7);
        assertThat(calls).hasValue(3);
        assertThat(slept).hasSize(2);
    }

    @Test
    void theListenerSeesEachRetryAndMayEndThem() {
        List<String> seen = new ArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        int result = Retrying.call(
                oddsRetried(10), slept::add, () -> 2 * calls.incrementAndGet() + 1, (attempt, n, wait) -> {
                    seen.add(attempt + ":" + n + ":" + wait.toMillis());
                    return attempt < 2;
                });
        assertThat(result).isEqualTo(5);
        assertThat(seen).containsExactly("1:3:10", "2:5:20");
        assertThat(slept).containsExactly(Duration.ofMillis(10));
    }

    @Test
    void anInterruptedWaitEndsTheRetriesAndKeepsTheInterrupt() {
        AtomicInteger calls = new AtomicInteger();
        try {
            int result = Retrying.call(
                    oddsRetried(10),
                    d -> {
                        throw new InterruptedException();
                    },
                    () -> {
                        calls.incrementAndGet();
                        return 1;
                    },
                    Retrying.Listener.always());
            assertThat(result).isEqualTo(1);
            assertThat(calls).hasValue(1);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anExceptionIsNotRetried() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> Retrying.call(
                        oddsRetried(5),
                        slept::add,
                        () -> {
                            calls.incrementAndGet();
                            throw new IllegalStateException("boom");
                        },
                        Retrying.Listener.always()))
                .hasMessage("boom");
        assertThat(calls).hasValue(1);
        assertThat(slept).isEmpty();
    }
}
