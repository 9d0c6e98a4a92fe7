package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.provider.Failure;
import dev.strata.provider.Provider;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the engine calls providers (P7): at most {@code -parallelism} calls at once overall, a
 * per-provider adaptive limit that halves when the provider reports throttling and grows back by
 * one per window of successes (AIMD), retries of transient failures with exponential backoff and
 * full jitter (honouring retry-after, bounded in attempts and total time), and a per-provider
 * circuit breaker that stops sending requests to a provider whose calls keep failing.
 */
final class ProviderCalls {
    private static final Logger LOG = LoggerFactory.getLogger(ProviderCalls.class);

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
    private final Map<String, RatePacer> pacers = new ConcurrentHashMap<>();
    private final Map<String, Breaker> breakers = new ConcurrentHashMap<>();

    ProviderCalls(int parallelism, Settings settings, EngineEvents events, BooleanSupplier stopping) {
        this.parallelism = parallelism;
        this.permits = new Semaphore(parallelism, true);
        this.settings = settings;
        this.events = events;
        this.stopping = stopping;
    }

    /** Whether this thread holds an operation slot (then its provider calls take no further permit). */
    private final ThreadLocal<Boolean> inSlot = ThreadLocal.withInitial(() -> false);
    /** Per provider: no request before this time (nanoTime), after the provider asked to retry later. */
    private final Map<String, java.util.concurrent.atomic.AtomicLong> notBefore = new ConcurrentHashMap<>();

    /**
     * Takes one of the {@code -parallelism} slots for a whole instance operation (plan, journal,
     * apply), waiting for one; false when a stop was requested meanwhile: the operation must not start.
     */
    boolean enterSlot() {
        permits.acquireUninterruptibly();
        if (stopping.getAsBoolean()) {
            permits.release();
            return false;
        }
        inSlot.set(true);
        return true;
    }

    void exitSlot() {
        inSlot.set(false);
        permits.release();
    }

    /** The adaptive limit of a provider now (for tests and progress). */
    double limitOf(String provider) {
        AdaptiveLimit l = limits.get(provider);
        return l == null ? parallelism : l.limit();
    }

    <T> T call(AbsResourceInstance ai, Supplier<T> op, Function<T, ProviderDiagnostics> diagnostics) {
        String provider = ai.resource().resource().impliedProviderName();
        AdaptiveLimit limit = limits.computeIfAbsent(provider, p -> new AdaptiveLimit(parallelism));
        RatePacer pacer = pacers.computeIfAbsent(provider, p -> new RatePacer());
        Breaker breaker = breakers.computeIfAbsent(provider, p -> new Breaker(settings));
        long deadline = System.nanoTime() + settings.maxTotal().toNanos();
        for (int attempt = 1; ; attempt++) {
            Optional<String> open = breaker.refuse();
            T result;
            if (open.isPresent()) {
                LOG.debug("provider {}: circuit open, not calling it for {}", provider, ai);
                // Fail fast without touching the provider; the caller reports it like any provider error.
                throw new ProviderUnavailable(open.get());
            }
            long queued = System.nanoTime();
            waitUntilAllowed(provider);
            pacer.acquire();
            limit.acquire();
            boolean own = !inSlot.get();
            if (own) {
                permits.acquireUninterruptibly();
            }
            long started = System.nanoTime();
            if (started - queued > SLOW_WAIT_NANOS) {
                LOG.debug("provider {}: {} waited {} ms for a call slot (limit {}, paced at {} req/s)", provider, ai,
                        millis(started - queued), fmt(limit.limit()), fmt(pacer.rate()));
            }
            try {
                result = op.get();
            } finally {
                if (own) {
                    permits.release();
                }
                limit.release();
            }
            long took = System.nanoTime() - started;
            ProviderDiagnostics d = diagnostics.apply(result);
            Optional<Failure> f = d.failure();
            String operation = operation(result);
            if (!(f.orElse(null) instanceof Failure.Transient t)) {
                LOG.debug("provider {}: {} {} {} in {} ms (attempt {})", provider, operation, ai,
                        f.isEmpty() ? "succeeded" : "failed (" + kind(f.get()) + ", not retried: " + firstSummary(d) + ")",
                        millis(took), attempt);
                pacer.success();
                limit.success();
                breaker.success();
                return result;
            }
            double before = limit.limit();
            limit.throttled();
            pacer.throttled();
            LOG.debug("provider {}: transient failure; concurrency limit {} -> {}, paced at {} req/s", provider,
                    fmt(before), fmt(limit.limit()), fmt(pacer.rate()));
            Duration delay = backoff(attempt, t.retryAfter());
            // A retry-after holds back every call to this provider, not just this one: sending others
            // before then would only be refused too.
            t.retryAfter().ifPresent(ra -> notBefore.computeIfAbsent(provider, k -> new java.util.concurrent.atomic.AtomicLong())
                    .accumulateAndGet(System.nanoTime() + ra.toNanos(), Math::max));
            if (attempt >= settings.maxAttempts() || stopping.getAsBoolean()
                    || System.nanoTime() + delay.toNanos() > deadline) {
                LOG.debug("provider {}: {} {} failed after {} ms (attempt {}; {}): {}", provider, operation, ai, millis(took),
                        attempt, attempt >= settings.maxAttempts() ? "no attempts left" : stopping.getAsBoolean()
                                ? "stopping" : "retry budget of " + settings.maxTotal().toSeconds() + " s spent", firstSummary(d));
                if (breaker.failure()) {
                    LOG.debug("provider {}: circuit opened after {} operations failed in a row; no requests for {} s",
                            provider, settings.breakerThreshold(), settings.breakerCooldown().toSeconds());
                }
                return result;
            }
            LOG.debug("provider {}: {} {} transient failure after {} ms (attempt {} of {}): {}; retrying in {} ms{}", provider,
                    operation, ai, millis(took), attempt, settings.maxAttempts(), firstSummary(d), delay.toMillis(),
                    t.retryAfter().map(ra -> " (provider asked to wait " + ra.toMillis() + " ms)").orElse(""));
            events.retrying(ai, attempt, delay, firstSummary(d));
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return result;
            }
        }
    }

    /** Waits for a call slot longer than this are worth a log line: they explain a slow run. */
    private static final long SLOW_WAIT_NANOS = 50_000_000L;

    /** The provider protocol's name of the operation that produced {@code result}. */
    private static String operation(Object result) {
        return switch (result) {
            case Provider.PlanResponse r -> "PlanResourceChange";
            case Provider.ApplyResponse r -> "ApplyResourceChange";
            case Provider.ReadResponse r -> "ReadResource";
            case Provider.ReadDataResponse r -> "ReadDataSource";
            case Provider.ImportResponse r -> "ImportResourceState";
            case null, default -> "call";
        };
    }

    private static String kind(Failure f) {
        return switch (f) {
            case Failure.Transient t -> "transient";
            case Failure.Permanent p -> "permanent";
            case Failure.Unavailable u -> "provider unavailable";
        };
    }

    /** The summary of the first diagnostic: a provider's error title, never a value. */
    private static String firstSummary(ProviderDiagnostics d) {
        return d.asList().isEmpty() ? "" : d.asList().getFirst().summary();
    }

    /** Milliseconds with one decimal: built-in providers answer in well under one. */
    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private static String fmt(double d) {
        return String.format(java.util.Locale.ROOT, "%.1f", d);
    }

    private void waitUntilAllowed(String provider) {
        java.util.concurrent.atomic.AtomicLong nb = notBefore.get(provider);
        if (nb == null) {
            return;
        }
        long wait = nb.get() - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(Duration.ofNanos(wait));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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

    /** The request rate a provider is paced at now; 0 while it has never throttled (for tests and progress). */
    double rateOf(String provider) {
        RatePacer p = pacers.get(provider);
        return p == null ? 0 : p.rate();
    }

    /**
     * Paces calls to one provider once it has throttled: the rate becomes what the provider actually
     * accepted over the last second (a little under it), and grows by about one request per second per
     * second while calls succeed, so the engine settles just under an API's rate limit instead of
     * bursting into it and retrying.
     */
    static final class RatePacer {
        private static final long SECOND = 1_000_000_000L;
        private final java.util.ArrayDeque<Long> accepted = new java.util.ArrayDeque<>();
        private double rate;
        private long next;

        synchronized double rate() {
            return rate;
        }

        void acquire() {
            long wait;
            synchronized (this) {
                if (rate <= 0) {
                    return;
                }
                long now = System.nanoTime();
                long slot = Math.max(now, next);
                next = slot + (long) (SECOND / rate);
                wait = slot - now;
            }
            if (wait > 0) {
                try {
                    Thread.sleep(Duration.ofNanos(wait));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        synchronized void success() {
            long now = System.nanoTime();
            accepted.addLast(now);
            trim(now);
            if (rate > 0) {
                rate += 1.0 / rate;
            }
        }

        synchronized void throttled() {
            long now = System.nanoTime();
            trim(now);
            int seen = accepted.size();
            double measured = seen > 0 ? seen * 0.95 : (rate > 0 ? rate / 2 : 1);
            rate = rate > 0 ? Math.max(1, Math.min(rate * 0.9, measured)) : Math.max(1, measured);
        }

        private void trim(long now) {
            while (!accepted.isEmpty() && now - accepted.peekFirst() > SECOND) {
                accepted.removeFirst();
            }
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

        /** Counts a failed operation; true when that opened the circuit. */
        synchronized boolean failure() {
            consecutiveFailures++;
            if (consecutiveFailures == settings.breakerThreshold()) {
                openUntil = System.nanoTime() + settings.breakerCooldown().toNanos();
                return true;
            }
            return false;
        }
    }
}
