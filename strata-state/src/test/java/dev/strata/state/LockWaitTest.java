package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockWaitTest {
    @Test
    void thePauseDoublesUpToTheCap() {
        LockWait wait = new LockWait(Duration.ofMinutes(1), Duration.ofMillis(1), Duration.ofMillis(5));
        assertThat(wait.backoff()).isEqualTo(Duration.ofMillis(1));
        assertThat(wait.pause()).isTrue();
        assertThat(wait.backoff()).isEqualTo(Duration.ofMillis(2));
        assertThat(wait.pause()).isTrue();
        assertThat(wait.backoff()).isEqualTo(Duration.ofMillis(4));
        assertThat(wait.pause()).isTrue();
        assertThat(wait.backoff()).isEqualTo(Duration.ofMillis(5));
        assertThat(wait.expired()).isFalse();
    }

    @Test
    void aPauseEndsAtTheDeadlineAndTheWaitThenExpires() {
        LockWait wait = new LockWait(Duration.ofMillis(50), Duration.ofMinutes(10), Duration.ofMinutes(10));
        long before = System.nanoTime();
        assertThat(wait.pause()).isTrue();
        // Not the ten minutes of the backoff: the pause stops at the deadline (a generous bound for a busy machine).
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(30));
        assertThat(wait.expired()).isTrue();
        assertThat(wait.waited()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
    }

    @Test
    void noTimeoutHasExpiredAtOnce() {
        assertThat(new LockWait(Duration.ZERO, Duration.ofMillis(1), Duration.ofMillis(1)).expired())
                .isTrue();
    }

    @Test
    void anInterruptedPauseGivesUpAndKeepsTheInterrupt() {
        LockWait wait = new LockWait(Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(10));
        Thread.currentThread().interrupt();
        try {
            assertThat(wait.pause()).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(LockWait.interrupted().summary()).isEqualTo("Error acquiring the state lock");
        assertThat(LockWait.interrupted().detail()).isEqualTo("Interrupted while waiting for the state lock.");
    }
}
