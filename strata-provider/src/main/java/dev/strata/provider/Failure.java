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

    /**
     * The provider itself is gone (its plugin process crashed or was killed): no call to it can
     * succeed for the rest of the run. Not retried; the engine reports it once per provider
     * configuration rather than once for every object that needed the provider. Built-in
     * (in-process) providers never return it.
     */
    record Unavailable() implements Failure {}

    Failure UNAVAILABLE = new Unavailable();

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
