package dev.strata.provider;

import java.time.Duration;
import java.util.Optional;

/**
 * How an error should be treated by the caller: a transient failure (timeout, 5xx, throttling)
 * may succeed when the same request is sent again, after {@code retryAfter} if the remote side
 * said how long to wait; a permanent one will fail the same way until something changes.
 */
public sealed interface Failure {

    Failure PERMANENT = new Permanent();

    record Transient(Optional<Duration> retryAfter) implements Failure {
        public Transient {
            if (retryAfter.isPresent() && retryAfter.get().isNegative()) {
                throw new IllegalArgumentException("negative retry-after");
            }
        }
    }

    record Permanent() implements Failure {}

    static Failure transientFailure() {
        return new Transient(Optional.empty());
    }

    static Failure retryAfter(Duration wait) {
        return new Transient(Optional.of(wait));
    }

    default boolean isTransient() {
        return this instanceof Transient;
    }
}
