package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.provider.Failure;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.resilience.Retrying;
import dev.strata.resilience.Sleeper;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the engine calls providers (P7): at most {@code -parallelism} calls at once overall, and per
 * provider configuration ({@code module.x.provider["registry.terraform.io/hashicorp/aws"].east}, so
 * that two aliased configurations of one provider, often two accounts or regions with their own API
 * limits, never hold each other back): an adaptive limit that halves when the provider reports
 * throttling and grows back by one per window of successes (AIMD), a request pacer, retries of
 * transient failures with exponential backoff and full jitter (honouring retry-after, bounded in
 * attempts and total time; a resilience4j {@link Retry}), and a circuit breaker that stops sending
 * requests to a configuration whose operations keep failing (a resilience4j {@link CircuitBreaker}).
 */
final class ProviderCalls {
    private static final Logger LOG = LoggerFactory.getLogger(ProviderCalls.class);

    record Settings(
            int maxAttempts,
            Duration baseDelay,
            Duration maxDelay,
            Duration maxTotal,
            int breakerThreshold,
            Duration breakerCooldown) {
        static final Settings DEFAULT = new Settings(
                10, Duration.ofMillis(200), Duration.ofSeconds(20), Duration.ofMinutes(5), 20, Duration.ofSeconds(10));
    }

    private final Semaphore permits;
    private final int parallelism;
    private final Settings settings;
    private final EngineEvents events;
    private final BooleanSupplier stopping;
    private final Sleeper sleeper;
    private final RetryRegistry retries;
    private final CircuitBreakerRegistry breakers;
    private final Map<AbsProviderConfig, Lane> lanes = new ConcurrentHashMap<>();

    /** Whether the run was asked to stop: long work that is not a provider call (provisioners) polls it too. */
    BooleanSupplier stopping() {
        return stopping;
    }

    ProviderCalls(int parallelism, Settings settings, EngineEvents events, BooleanSupplier stopping) {
        this(parallelism, settings, events, stopping, Sleeper.SYSTEM);
    }

    ProviderCalls(int parallelism, Settings settings, EngineEvents events, BooleanSupplier stopping, Sleeper sleeper) {
        this.parallelism = parallelism;
        this.permits = new Semaphore(parallelism, true);
        this.settings = settings;
        this.events = events;
        this.stopping = stopping;
        this.sleeper = sleeper;
        this.retries = RetryRegistry.of(RetryConfig.<Attempted<?>>custom()
                .maxAttempts(settings.maxAttempts())
                .retryOnResult(a -> a.retried().isPresent())
                .intervalBiFunction((attempt, outcome) -> backoff(
                                attempt, outcome.get().retried().flatMap(Failure.Transient::retryAfter))
                        .toMillis())
                .failAfterMaxAttempts(false)
                .build());
        // Opens after breakerThreshold operations in a row failed after their retries (a full window,
        // all failed); after the cool-down lets one operation through, whose outcome closes or reopens it.
        this.breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(settings.breakerThreshold())
                .minimumNumberOfCalls(settings.breakerThreshold())
                .failureRateThreshold(100)
                .waitDurationInOpenState(settings.breakerCooldown())
                .permittedNumberOfCallsInHalfOpenState(1)
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .writableStackTraceEnabled(false)
                .build());
    }

    /** One provider configuration's share of the calls: its retry, breaker, limit, pacer and retry-after. */
    private record Lane(
            Retry retry, CircuitBreaker breaker, AdaptiveLimit limit, RatePacer pacer, AtomicLong notBefore) {}

    /** One attempt's result, and the transient failure that makes it one to retry. */
    private record Attempted<T>(
            T result, ProviderDiagnostics diagnostics, Optional<Failure.Transient> retried, int attempt) {}

    /** The breaker, limiter, pacer and retries of a provider configuration are named by its address. */
    static String key(AbsProviderConfig provider) {
        return provider.toString();
    }

    private Lane lane(AbsProviderConfig provider) {
        return lanes.computeIfAbsent(
                provider,
                p -> new Lane(
                        retries.retry(key(p)),
                        breakers.circuitBreaker(key(p)),
                        new AdaptiveLimit(parallelism),
                        new RatePacer(sleeper),
                        new AtomicLong(Long.MIN_VALUE)));
    }

    /** Whether this thread holds an operation slot (then its provider calls take no further permit). */
    private final ThreadLocal<Boolean> inSlot = ThreadLocal.withInitial(() -> false);

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

    /** The adaptive limit of a provider configuration now (for tests and progress). */
    double limitOf(AbsProviderConfig provider) {
        Lane l = lanes.get(provider);
        return l == null ? parallelism : l.limit().limit();
    }

    /** The circuit breaker of a provider configuration (for tests). */
    CircuitBreaker breakerOf(AbsProviderConfig provider) {
        return lane(provider).breaker();
    }

    /**
     * Calls {@code op} for {@code ai} through {@code provider}, retrying while the provider reports a
     * transient failure; returns the last response. Throws {@link ProviderUnavailable} without calling
     * the provider while the configuration's circuit is open.
     */
    <T> T call(
            AbsProviderConfig provider,
            AbsResourceInstance ai,
            Supplier<T> op,
            Function<T, ProviderDiagnostics> diagnostics) {
        Lane lane = lane(provider);
        try {
            lane.breaker().acquirePermission();
        } catch (CallNotPermittedException e) {
            LOG.debug("{}: circuit open, not calling it for {}", provider, ai);
            // Fail fast without touching the provider; the caller reports it like any provider error.
            throw unavailable(lane);
        }
        long deadline = System.nanoTime() + settings.maxTotal().toNanos();
        boolean recorded = false;
        try {
            int[] attempts = {0};
            Attempted<T> last = Retrying.call(
                    lane.retry(),
                    sleeper,
                    () -> attempt(provider, lane, ai, op, diagnostics, ++attempts[0]),
                    (attempt, a, delay) -> {
                        String operation = operation(a.result());
                        String summary = firstSummary(a.diagnostics());
                        if (stopping.getAsBoolean() || System.nanoTime() + delay.toNanos() > deadline) {
                            return false;
                        }
                        LOG.debug(
                                "{}: {} {} transient failure (attempt {} of {}): {}; retrying in {} ms{}",
                                provider,
                                operation,
                                ai,
                                attempt,
                                settings.maxAttempts(),
                                summary,
                                delay.toMillis(),
                                a.retried()
                                        .flatMap(Failure.Transient::retryAfter)
                                        .map(ra -> " (provider asked to wait " + ra.toMillis() + " ms)")
                                        .orElse(""));
                        events.retrying(ai, attempt, delay, summary);
                        return true;
                    });
            if (last.retried().isEmpty()) {
                lane.breaker().onSuccess(0, TimeUnit.NANOSECONDS);
            } else {
                LOG.debug(
                        "{}: {} {} failed (attempt {}; {}): {}",
                        provider,
                        operation(last.result()),
                        ai,
                        last.attempt(),
                        last.attempt() >= settings.maxAttempts()
                                ? "no attempts left"
                                : stopping.getAsBoolean()
                                                || Thread.currentThread().isInterrupted()
                                        ? "stopping"
                                        : "retry budget of "
                                                + settings.maxTotal().toSeconds() + " s spent",
                        firstSummary(last.diagnostics()));
                boolean wasOpen = lane.breaker().getState() == CircuitBreaker.State.OPEN;
                lane.breaker().onError(0, TimeUnit.NANOSECONDS, RetriesExhausted.INSTANCE);
                if (!wasOpen && lane.breaker().getState() == CircuitBreaker.State.OPEN) {
                    LOG.debug(
                            "{}: circuit open after {} operations failed in a row; no requests for {} s",
                            provider,
                            settings.breakerThreshold(),
                            settings.breakerCooldown().toSeconds());
                }
            }
            recorded = true;
            return last.result();
        } finally {
            if (!recorded) {
                // The operation ended without an outcome (an exception, or the circuit opened meanwhile):
                // it must not hold the one trial call a half-open circuit allows.
                lane.breaker().releasePermission();
            }
        }
    }

    /** One try: waits its turn (retry-after, pace, limit, slot), calls, and adapts the limits to the answer. */
    private <T> Attempted<T> attempt(
            AbsProviderConfig provider,
            Lane lane,
            AbsResourceInstance ai,
            Supplier<T> op,
            Function<T, ProviderDiagnostics> diagnostics,
            int attempt) {
        // Another operation may have opened the circuit while this one was backing off.
        if (attempt > 1 && lane.breaker().getState() == CircuitBreaker.State.OPEN) {
            LOG.debug("{}: circuit open, not retrying {}", provider, ai);
            throw unavailable(lane);
        }
        long queued = System.nanoTime();
        waitUntilAllowed(lane.notBefore());
        lane.pacer().acquire();
        lane.limit().acquire();
        boolean own = !inSlot.get();
        if (own) {
            permits.acquireUninterruptibly();
        }
        long started = System.nanoTime();
        if (started - queued > SLOW_WAIT_NANOS) {
            LOG.debug(
                    "{}: {} waited {} ms for a call slot (limit {}, paced at {} req/s)",
                    provider,
                    ai,
                    millis(started - queued),
                    fmt(lane.limit().limit()),
                    fmt(lane.pacer().rate()));
        }
        T result;
        try {
            result = op.get();
        } finally {
            if (own) {
                permits.release();
            }
            lane.limit().release();
        }
        long took = System.nanoTime() - started;
        ProviderDiagnostics d = diagnostics.apply(result);
        Optional<Failure> f = d.failure();
        if (!(f.orElse(null) instanceof Failure.Transient t)) {
            if (LOG.isDebugEnabled()) { // the arguments cost more to build than a built-in provider's call
                LOG.debug(
                        "{}: {} {} {} in {} ms (attempt {})",
                        provider,
                        operation(result),
                        ai,
                        f.isEmpty()
                                ? "succeeded"
                                : "failed (" + kind(f.get()) + ", not retried: " + firstSummary(d) + ")",
                        millis(took),
                        attempt);
            }
            lane.pacer().success();
            lane.limit().success();
            return new Attempted<>(result, d, Optional.empty(), attempt);
        }
        double before = lane.limit().limit();
        lane.limit().throttled(started);
        lane.pacer().throttled(started, t.retryAfter());
        LOG.debug(
                "{}: {} {} transient failure after {} ms (attempt {}); concurrency limit {} -> {}, paced at {} req/s",
                provider,
                operation(result),
                ai,
                millis(took),
                attempt,
                fmt(before),
                fmt(lane.limit().limit()),
                fmt(lane.pacer().rate()));
        // A retry-after holds back every call through this configuration, not just this one: sending others
        // before then would only be refused too.
        t.retryAfter().ifPresent(ra -> lane.notBefore().accumulateAndGet(System.nanoTime() + ra.toNanos(), Math::max));
        return new Attempted<>(result, d, Optional.of(t), attempt);
    }

    private ProviderUnavailable unavailable(Lane lane) {
        return new ProviderUnavailable(
                "The provider's last " + lane.breaker().getMetrics().getNumberOfFailedCalls()
                        + " operations failed after retries; Strata stopped sending it requests for "
                        + settings.breakerCooldown().toSeconds() + " s so as not to overload its API.");
    }

    /** What the breaker records for an operation whose transient failures outlasted its retries. */
    private static final class RetriesExhausted extends RuntimeException {
        static final RetriesExhausted INSTANCE = new RetriesExhausted();

        private RetriesExhausted() {
            super("transient failures outlasted the retries", null, false, false);
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

    private void waitUntilAllowed(AtomicLong notBefore) {
        long wait = notBefore.get() - System.nanoTime();
        if (notBefore.get() != Long.MIN_VALUE && wait > 0) {
            try {
                sleeper.sleep(Duration.ofNanos(wait));
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

    /** The request rate a provider configuration is paced at now; 0 while it never throttled (for tests and progress). */
    double rateOf(AbsProviderConfig provider) {
        Lane l = lanes.get(provider);
        return l == null ? 0 : l.pacer().rate();
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
        private final Sleeper sleeper;
        /** Written under the lock; read without it only to skip pacing while it is 0. */
        private volatile double rate;

        private long next;
        private long slowedAt = Long.MIN_VALUE;

        RatePacer(Sleeper sleeper) {
            this.sleeper = sleeper;
        }

        synchronized double rate() {
            return rate;
        }

        void acquire() {
            if (rate <= 0) {
                // Never throttled (the common case): no lock for every call of a hundred threads.
                return;
            }
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
                    sleeper.sleep(Duration.ofNanos(wait));
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

        /**
         * A call sent at {@code sentAt} was throttled. Calls sent before the last slow-down went out at the old
         * pace: their throttling, arriving together, says nothing new and must not slow it down again (a
         * hundred calls refused at once would otherwise take the pace down to one request per second).
         */
        synchronized void throttled(long sentAt, Optional<Duration> retryAfter) {
            long now = System.nanoTime();
            if (slowedAt != Long.MIN_VALUE && sentAt - slowedAt < 0) {
                return;
            }
            slowedAt = now;
            trim(now);
            int seen = accepted.size();
            // A server that says how long until it takes the next request says its rate too: refusals come
            // back at once, before any accepted call has answered, and guessing one request per second then
            // would take a minute or more to climb back.
            double told = retryAfter
                    .filter(d -> !d.isZero() && !d.isNegative())
                    .map(d -> 0.95 * SECOND / d.toNanos())
                    .orElse(0.0);
            double measured = Math.max(told, seen > 0 ? seen * 0.95 : (rate > 0 ? rate / 2 : 1));
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
        private long halvedAt = Long.MIN_VALUE;

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

        /** Halves the limit, once for all the calls that were in flight when it last did (as {@link RatePacer#throttled}). */
        synchronized void throttled(long sentAt) {
            if (halvedAt != Long.MIN_VALUE && sentAt - halvedAt < 0) {
                return;
            }
            halvedAt = System.nanoTime();
            limit = Math.max(1.0, limit / 2);
        }
    }
}
