package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostics;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the engine calls providers (P7): at most {@code -parallelism} calls at once overall, a
 * per-provider adaptive limit that halves when the provider reports throttling and grows back by
 * one per window of successes (AIMD), retries of transient failures with exponential backoff and
 * full jitter (honouring retry-after, bounded in attempts and total time), and a per-provider
 * circuit breaker that stops sending requests to a provider whose calls keep failing.
 */
final class ProviderCalls {
    record Settings(int maxAttempts, Duration baseDelay, Duration maxDelay, Duration maxTotal,
                    int breakerThreshold, Duration breakerCooldown) {
        static final Settings DEFAULT = new Settings(10, Duration.ofMillis(200), Duration.ofSeconds(20),
                Duration.ofMinutes(5), 20, Duration.ofSeconds(10));
    }

    private final Semaphore permits;
    private final int parallelism;
    private final Settings settings;
    private final EngineEvents events;
    private final BooleanSupplier stopping;
    private final Map<String, AdaptiveLimit> limits = new ConcurrentHashMap<>();
    private final Map<String, Breaker> breakers = new ConcurrentHashMap<>();

    ProviderCalls(int parallelism, Settings settings, EngineEvents events, BooleanSupplier stopping) {
        this.parallelism = parallelism;
        this.permits = new Semaphore(parallelism, true);
        this.settings = settings;
        this.events = events;
        this.stopping = stopping;
    }

    /** The adaptive limit of a provider now (for tests and progress). */
    double limitOf(String provider) {
        AdaptiveLimit l = limits.get(provider);
        return l == null ? parallelism : l.limit();
    }

    <T> T call(AbsResourceInstance ai, Supplier<T> op, Function<T, ProviderDiagnostics> diagnostics) {
        String provider = ai.resource().resource().impliedProviderName();
        AdaptiveLimit limit = limits.computeIfAbsent(provider, p -> new AdaptiveLimit(parallelism));
        Breaker breaker = breakers.computeIfAbsent(provider, p -> new Breaker(settings));
        long deadline = System.nanoTime() + settings.maxTotal().toNanos();
        for (int attempt = 1; ; attempt++) {
            Optional<String> open = breaker.refuse();
            T result;
            if (open.isPresent()) {
                // Fail fast without touching the provider; the caller reports it like any provider error.
                throw new ProviderUnavailable(open.get());
            }
            limit.acquire();
            permits.acquireUninterruptibly();
            try {
                result = op.get();
            } finally {
                permits.release();
                limit.release();
            }
            ProviderDiagnostics d = diagnostics.apply(result);
            Optional<Failure> f = d.failure();
            if (!(f.orElse(null) instanceof Failure.Transient t)) {
                limit.success();
                breaker.success();
                return result;
            }
            limit.throttled();
            Duration delay = backoff(attempt, t.retryAfter());
            if (attempt >= settings.maxAttempts() || stopping.getAsBoolean()
                    || System.nanoTime() + delay.toNanos() > deadline) {
                breaker.failure();
                return result;
            }
            events.retrying(ai, attempt, delay, d.asList().isEmpty() ? "" : d.asList().getFirst().summary());
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return result;
            }
        }
    }

    /** Exponential backoff with full jitter; a retry-after from the provider is a floor. */
    Duration backoff(int attempt, Optional<Duration> retryAfter) {
        long cap = Math.min(settings.maxDelay().toMillis(), settings.baseDelay().toMillis() << Math.min(attempt, 20));
        long jitter = ThreadLocalRandom.current().nextLong(Math.max(1, cap) + 1);
        long floor = retryAfter.map(Duration::toMillis).orElse(0L);
        return Duration.ofMillis(Math.max(floor, jitter));
    }

    /** A provider's calls are refused while its circuit is open. */
    static final class ProviderUnavailable extends RuntimeException {
        ProviderUnavailable(String message) {
            super(message);
        }
    }

    /** Additive increase, multiplicative decrease of the number of concurrent calls to one provider. */
    static final class AdaptiveLimit {
        private final int max;
        private double limit;
        private int inFlight;

        AdaptiveLimit(int max) {
            this.max = max;
            this.limit = max;
        }

        synchronized double limit() {
            return limit;
        }

        synchronized void acquire() {
            while (inFlight >= Math.max(1, (int) limit)) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            inFlight++;
        }

        synchronized void release() {
            inFlight--;
            notifyAll();
        }

        synchronized void success() {
            limit = Math.min(max, limit + 1.0 / Math.max(1.0, limit));
            notifyAll();
        }

        synchronized void throttled() {
            limit = Math.max(1.0, limit / 2);
        }
    }

    /** Opens after a run of failed calls (retries exhausted); lets one call through after the cool-down. */
    static final class Breaker {
        private final Settings settings;
        private int consecutiveFailures;
        private long openUntil;

        Breaker(Settings settings) {
            this.settings = settings;
        }

        synchronized Optional<String> refuse() {
            if (consecutiveFailures < settings.breakerThreshold()) {
                return Optional.empty();
            }
            long now = System.nanoTime();
            if (now >= openUntil) {
                openUntil = now + settings.breakerCooldown().toNanos();
                return Optional.empty();
            }
            return Optional.of("The provider's last " + consecutiveFailures + " operations failed after retries; "
                    + "Strata stopped sending it requests for " + settings.breakerCooldown().toSeconds()
                    + " s so as not to overload its API.");
        }

        synchronized void success() {
            consecutiveFailures = 0;
        }

        synchronized void failure() {
            consecutiveFailures++;
            if (consecutiveFailures == settings.breakerThreshold()) {
                openUntil = System.nanoTime() + settings.breakerCooldown().toNanos();
            }
        }
    }
}
