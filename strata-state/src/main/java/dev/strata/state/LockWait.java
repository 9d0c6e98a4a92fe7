package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import java.time.Duration;

/**
 * Waiting for a state lock another process holds, as every backend does under {@code -lock-timeout}: the
 * time since the first attempt, the deadline, and the pause between attempts, doubling up to a cap and
 * never past the deadline.
 */
final class LockWait {
    private final long start;
    private final long deadline;
    private final Duration maxBackoff;
    private Duration backoff;

    LockWait(Duration timeout, Duration initialBackoff, Duration maxBackoff) {
        this.start = System.nanoTime();
        this.deadline = start + timeout.toNanos();
        this.backoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    LockWait(LockRequest request, LockTiming timing) {
        this(request.timeout(), timing.initialBackoff(), timing.maxBackoff());
    }

    /** Whether the request's timeout has run out: the caller reports the lock as held. */
    boolean expired() {
        return System.nanoTime() - deadline >= 0;
    }

    /** How long since the first attempt. */
    Duration waited() {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** The next pause between attempts. */
    Duration backoff() {
        return backoff;
    }

    /**
     * Sleeps until the next attempt, at most until the deadline, and doubles the next pause up to the cap.
     * False when the thread was interrupted (its flag set again): the caller gives up with {@link #interrupted}.
     */
    boolean pause() {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        try {
            Thread.sleep(Math.max(1, Math.min(backoff.toMillis(), left)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        Duration doubled = backoff.multipliedBy(2);
        backoff = doubled.compareTo(maxBackoff) > 0 ? maxBackoff : doubled;
        return true;
    }

    static Diagnostic interrupted() {
        return Diagnostic.error(
                "Error acquiring the state lock", "Interrupted while waiting for the state lock.", null);
    }
}
