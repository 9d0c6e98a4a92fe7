package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.provider.Failure;
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
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the engine calls providers (P7): at most {@code -parallelism} calls at once overall, and per
 * provider configuration ({@code module.x.provider["registry.terraform.io/hashicorp/aws"].east}, so
 * that two aliased configurations of one provider, often two accounts or regions with their own API
 * limits, never hold each other back): an adaptive limit that halves when the provider reports
 * throttling and grows back by one per window of successes (AIMD), a request pacer (for the
 * operations that reach the provider's API: {@link Operation}), retries of transient failures with
 * exponential backoff and full jitter, or at the pacer's next turn once it paces (honouring
 * retry-after, bounded in attempts and total time; a resilience4j {@link Retry}), and a circuit breaker that stops sending
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

    /**
     * The provider protocol's operations the engine calls, and whether each sends requests to the
     * provider's remote API. Only those are paced and counted as the API's accepted requests: a
     * provider computes a planned change from the prior state and the configuration it is given
     * ({@code PlanResourceChange}; Terraform plans without any API request by the same protocol), so a
     * plan call waiting for a turn would leave the API's turn unused, and counting it as accepted would
     * make the measured rate that of two calls per create. Should a provider's plan reach its API all
     * the same and be refused, its retries are paced like any request (see {@link #takesTurn}).
     */
    enum Operation {
        PLAN_RESOURCE_CHANGE("PlanResourceChange", false),
        APPLY_RESOURCE_CHANGE("ApplyResourceChange", true),
        READ_RESOURCE("ReadResource", true),
        READ_DATA_SOURCE("ReadDataSource", true),
        IMPORT_RESOURCE_STATE("ImportResourceState", true),
        OPEN_EPHEMERAL_RESOURCE("OpenEphemeralResource", true);

        private final String protocolName;
        private final boolean reachesApi;

        Operation(String protocolName, boolean reachesApi) {
            this.protocolName = protocolName;
            this.reachesApi = reachesApi;
        }

        /** The name the provider protocol (and Terraform's logs) give it. */
        String protocolName() {
            return protocolName;
        }

        boolean reachesApi() {
            return reachesApi;
        }
    }

    /**
     * Whether attempt {@code attempt} of {@code operation} waits for the pacer's turn, takes a place
     * under the adaptive limit and counts as accepted: an operation that reaches the API always, any
     * other once it was refused (its answer said it reached a throttled API after all).
     */
    static boolean takesTurn(Operation operation, int attempt) {
        return operation.reachesApi() || attempt > 1;
    }

    private final Semaphore permits;
    private final int parallelism;
    private final Settings settings;
    private final EngineEvents events;
    private final BooleanSupplier stopping;
    private final Sleeper sleeper;
    private final LongSupplier clock;
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
        this(parallelism, settings, events, stopping, sleeper, System::nanoTime);
    }

    /** With the clock ({@link System#nanoTime()} values) the limits and the pacer read: a test's simulated one. */
    ProviderCalls(
            int parallelism,
            Settings settings,
            EngineEvents events,
            BooleanSupplier stopping,
            Sleeper sleeper,
            LongSupplier clock) {
        this.clock = clock;
        this.parallelism = parallelism;
        this.permits = new Semaphore(parallelism, true);
        this.settings = settings;
        this.events = events;
        this.stopping = stopping;
        this.sleeper = sleeper;
        this.retries = RetryRegistry.of(RetryConfig.<Attempted<?>>custom()
                .maxAttempts(settings.maxAttempts())
                .retryOnResult(a -> a.retried().isPresent())
                .intervalBiFunction((attempt, outcome) -> outcome.get()
                        .pacedWait()
                        .orElseGet(
                                () -> backoff(attempt, outcome.get().retried().flatMap(Failure.Transient::retryAfter)))
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
    private record Lane(Retry retry, CircuitBreaker breaker, AdaptiveLimit limit, RatePacer pacer) {}

    /** One attempt's result, and the transient failure that makes it one to retry. */
    /**
     * One attempt's result, and the transient failure that makes it one to retry; {@code pacedWait}
     * is the wait before the retry when the pacer spaces the retries (else the backoff decides it).
     */
    private record Attempted<T>(
            T result,
            ProviderDiagnostics diagnostics,
            Optional<Failure.Transient> retried,
            int attempt,
            Optional<Duration> pacedWait) {}

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
                        new RatePacer()));
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
            Operation operation,
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
        long deadline = clock.getAsLong() + settings.maxTotal().toNanos();
        boolean recorded = false;
        try {
            int[] attempts = {0};
            Attempted<T> last = Retrying.call(
                    lane.retry(),
                    sleeper,
                    () -> attempt(provider, lane, ai, operation, op, diagnostics, ++attempts[0]),
                    (attempt, a, delay) -> {
                        String summary = firstSummary(a.diagnostics());
                        if (stopping.getAsBoolean() || clock.getAsLong() + delay.toNanos() - deadline > 0) {
                            return false;
                        }
                        LOG.debug(
                                "{}: {} {} transient failure (attempt {} of {}): {}; retrying in {} ms{}",
                                provider,
                                operation.protocolName(),
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
                        operation.protocolName(),
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

    /**
     * One try: waits its turn (retry-after, pace, limit, slot) if it reaches the API, calls, and adapts
     * the limits to the answer.
     */
    private <T> Attempted<T> attempt(
            AbsProviderConfig provider,
            Lane lane,
            AbsResourceInstance ai,
            Operation operation,
            Supplier<T> op,
            Function<T, ProviderDiagnostics> diagnostics,
            int attempt) {
        // Another operation may have opened the circuit while this one was backing off.
        if (attempt > 1 && lane.breaker().getState() == CircuitBreaker.State.OPEN) {
            LOG.debug("{}: circuit open, not retrying {}", provider, ai);
            throw unavailable(lane);
        }
        boolean turn = takesTurn(operation, attempt);
        long queued = clock.getAsLong();
        if (turn) {
            awaitTurn(lane.pacer(), queued);
            lane.limit().acquire();
        }
        boolean own = !inSlot.get();
        if (own) {
            permits.acquireUninterruptibly();
        }
        long started = clock.getAsLong();
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
            if (turn) {
                lane.limit().release();
            }
        }
        long answered = clock.getAsLong();
        long took = answered - started;
        ProviderDiagnostics d = diagnostics.apply(result);
        Optional<Failure> f = d.failure();
        if (!(f.orElse(null) instanceof Failure.Transient t)) {
            if (LOG.isDebugEnabled()) { // the arguments cost more to build than a built-in provider's call
                LOG.debug(
                        "{}: {} {} {} in {} ms (attempt {})",
                        provider,
                        operation.protocolName(),
                        ai,
                        f.isEmpty()
                                ? "succeeded"
                                : "failed (" + kind(f.get()) + ", not retried: " + firstSummary(d) + ")",
                        millis(took),
                        attempt);
            }
            if (turn) {
                lane.pacer().accepted(started, answered); // an error the API answered took one of its requests too
                lane.limit().success();
            }
            return new Attempted<>(result, d, Optional.empty(), attempt, Optional.empty());
        }
        double before = lane.limit().limit();
        // Until the pacer has measured what the API accepts, halving the concurrency is all that slows the
        // calls down. From then on the pace alone does: halving the concurrency as well would cut the calls
        // far below that rate (a hundred calls of 50 ms at 100 requests a second need only five at once)
        // and release the waiting ones in clumps, each place that frees up sending one at once.
        boolean wasPaced = lane.pacer().paced();
        if (!wasPaced) {
            lane.limit().throttled(started, answered);
        }
        // A retry-after holds back every call through this configuration, not just this one: sending others
        // before then would only be refused too.
        lane.pacer().throttled(started, answered, t.retryAfter());
        if (!wasPaced && lane.pacer().paced()) {
            lane.limit().reset();
        }
        Optional<Duration> pacedWait = pacedRetryWait(lane.pacer(), attempt, answered);
        LOG.debug(
                "{}: {} {} transient failure after {} ms (attempt {}); concurrency limit {} -> {}, paced at {} req/s",
                provider,
                operation.protocolName(),
                ai,
                millis(took),
                attempt,
                fmt(before),
                fmt(lane.limit().limit()),
                fmt(lane.pacer().rate()));
        return new Attempted<>(result, d, Optional.of(t), attempt, pacedWait);
    }

    /**
     * How many refusals of one operation are retried at the pacer's next turn, rather than after an
     * exponential backoff: enough for the refusals of a pace that probed a little too high, few enough
     * that an API refusing everything (an outage answered with 429s) still gets the backoff's minutes.
     */
    static final int PACED_RETRIES = 3;

    /**
     * The wait before retrying attempt {@code attempt}, refused at {@code now}, when the pacer spaces it:
     * until the pacer's next free turn (it then waits for its turn and any retry-after like every call).
     * Empty while the pacer has no measured rate (the first refusals, before any accepted answer) or once
     * the operation was refused {@link #PACED_RETRIES} times: the exponential backoff with jitter decides.
     * A paced retry does not sleep a backoff of up to 400 ms while the pace leaves turns to the calls
     * still waiting: at the end of a run, those are few, and the last refused calls made its tail.
     */
    static Optional<Duration> pacedRetryWait(RatePacer pacer, int attempt, long now) {
        if (attempt > PACED_RETRIES || !pacer.paced()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(pacer.nextTurn(now) - now));
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

    /** Waits for the pacer to give this call its turn (at once while the provider never throttled). */
    private void awaitTurn(RatePacer pacer, long now) {
        ReentrantLock line = pacer.line();
        long turn = line.isLocked() ? RatePacer.NOT_YET : pacer.reserve(now);
        if (turn == RatePacer.NOT_YET) {
            try {
                line.lockInterruptibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                while ((turn = pacer.reserve(clock.getAsLong())) == RatePacer.NOT_YET) {
                    sleepUntil(pacer.freeAt());
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                }
            } finally {
                line.unlock();
            }
        }
        sleepUntil(turn);
    }

    private void sleepUntil(long at) {
        long wait = at - clock.getAsLong();
        if (wait > 0) {
            try {
                sleeper.sleep(Duration.ofNanos(wait));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Exponential backoff with full jitter; a retry-after from the provider is a floor. */
    Duration backoff(int attempt, Optional<Duration> retryAfter) {
        return backoff(settings, attempt, retryAfter, ThreadLocalRandom.current());
    }

    static Duration backoff(Settings settings, int attempt, Optional<Duration> retryAfter, RandomGenerator random) {
        long cap = Math.min(settings.maxDelay().toMillis(), settings.baseDelay().toMillis() << Math.min(attempt, 20));
        long jitter = random.nextLong(Math.max(1, cap) + 1);
        long floor = retryAfter.map(Duration::toMillis).orElse(0L);
        return Duration.ofMillis(Math.max(floor, jitter));
    }

    /** A provider's calls are refused while its circuit is open. */
    static final class ProviderUnavailable extends RuntimeException {
        ProviderUnavailable(String message) {
            super(message);
        }
    }

    /** The request rate a provider configuration is paced at now; 0 while it is not paced (for tests and progress). */
    double rateOf(AbsProviderConfig provider) {
        Lane l = lanes.get(provider);
        return l == null ? 0 : l.pacer().rate();
    }

    /**
     * Paces the requests to one provider configuration once it has throttled, just under the rate its
     * API accepts. Nothing tells a client that rate (a retry-after is a time to wait, and a token bucket's
     * says when its next token is free, not how fast tokens come), so the pacer measures it: a
     * server that refuses requests is accepting all it can, so the requests it accepted over the last
     * second are its rate (plus, at first, whatever burst it allowed). At each throttle the pace becomes
     * a little under the lower of that and the pace that was refused; while the pace holds calls back
     * and nothing is refused it probes upwards, gently (2 % a second) for a few seconds and then faster
     * and faster (the limit may have been raised, or the first measure was low), so a run settles in a
     * sawtooth between 95 and 100 % of the limit with a refusal every few seconds. The first pace, measured
     * over the first fraction of a second, is only provisional: it probes upwards at the fastest growth
     * until a refusal with a full second measured (a first measure is as often half the rate as twice it).
     *
     * <p>Times are {@link System#nanoTime()} values passed in, so that a test can drive it on a
     * simulated clock. Until the first throttle nothing is paced and the only cost per call is counting
     * it as accepted.
     */
    static final class RatePacer {
        static final long SECOND = 1_000_000_000L;
        /** After a throttle the pace is this fraction of the rate the server was seen to accept. */
        static final double BELOW = 0.95;
        /** A measure below this fraction of the refused pace lowers it to this fraction only (then the above). */
        static final double FLOOR = 0.85;
        /** The pace is raised only while the accepted requests keep up with it to this fraction. */
        static final double KEPT = 0.9;
        /** Growth per second of the pace right after a throttle, doubled each further second without one. */
        static final double PROBE = 0.02;
        /** The probing stays gentle for this long after a throttle: the limit is just above the pace. */
        private static final long GENTLE = 2 * SECOND;
        /** The fastest growth: the pace doubles in a second once a long time passed without a throttle. */
        private static final double FASTEST = 1.0;
        /** Shortest span the accepted requests are counted over: a burst over a millisecond says no rate. */
        private static final long MIN_SPAN = SECOND / 50;

        private static final int SLOTS = 50;
        private static final long SLOT = SECOND / SLOTS;

        /** Accepted answers per 20 ms over the last second, by slot number (time / SLOT). */
        private final long[] slotOf = new long[SLOTS];

        private final int[] countOf = new int[SLOTS];
        /** The pace in each 20 ms over the last second, by slot number as above (0: not paced then). */
        private final long[] paceSlotOf = new long[SLOTS];

        private final double[] paceOf = new double[SLOTS];
        /** When the first accepted request was sent: the accepted ones are counted from then at the earliest. */
        private long firstSent = Long.MIN_VALUE;
        /**
         * The quickest answer of an accepted call: how far the answers lag the sends. The quickest, not the
         * last: an operation that took seconds (a provider polling, a starved CPU) would otherwise make the
         * span the rate is measured over tiny and the measure huge.
         */
        private long latency = -1;

        /** What {@link #reserve} answers when the next turn is more than {@link #HORIZON} away. */
        static final long NOT_YET = Long.MIN_VALUE;
        /**
         * How far ahead turns are handed out. A hundred callers given turns at once would be given them
         * up to seconds ahead at the pace of that moment, and the pace's later changes (a slow-down after
         * a refusal, the probing upwards) would reach the API only seconds later: probing would overshoot
         * and a refusal would be followed by seconds of sends at the refused pace.
         */
        static final long HORIZON = SECOND / 20;

        private final ReentrantLock line = new ReentrantLock(true);

        /** Set at the first throttle: from then on every call asks for its turn. */
        private volatile boolean engaged;
        /** Requests per second; 0 while throttled but nothing accepted was measured yet. */
        private double rate;
        /**
         * Whether the pace was last set from a measure over less than a second: at the start of a run, the
         * answers of a handful of requests, of which the late ones (a loaded CPU, a cold start) are
         * missing and which the first refusals' backoff left the API idle for part of, so often far
         * below the API's rate. Until a refusal after a full second's measure, it probes upwards at the
         * fastest growth: a pace too high costs a few refusals, each retried at the next turn, and is
         * lowered within a fraction of a second; one too low would cost seconds of turns unused.
         */
        private boolean provisional;
        /**
         * Whether the last slow-down was from no pace or a provisional one: then the refusals of the calls
         * sent in the horizon after it lower the pace only as far as the measure says (see {@link #throttled}).
         */
        private boolean slowedFromProvisional;

        private long next;
        private long notBefore = Long.MIN_VALUE;
        private long slowedAt = Long.MIN_VALUE;
        private long grownAt;

        synchronized double rate() {
            return rate;
        }

        /** Whether it paces calls at a rate it measured. */
        synchronized boolean paced() {
            return rate > 0;
        }

        /**
         * The time a call asking at {@code now} may be sent: not before a retry-after the provider gave,
         * and one pace interval after the call before it. {@code now} itself while nothing was throttled.
         */
        long reserve(long now) {
            if (!engaged) {
                return now; // never throttled (the common case): no lock for every call of a hundred threads
            }
            synchronized (this) {
                long slot = notBefore == Long.MIN_VALUE || notBefore - now < 0 ? now : notBefore;
                if (rate > 0) {
                    notePace(now);
                    if (next - now > 0 && measured(now) >= KEPT * (provisional ? averagePace(now) : rate)) {
                        // Only a pace that holds calls back, and that the calls keep up with, is worth
                        // raising: one above what the calls reach (they wait for something else, a slot,
                        // the CPU) would only run away and let a burst through later. A provisional pace
                        // is compared with the calls over the time they were counted in, not with the
                        // pace now: growing at the fastest rate, it is always well above the last
                        // second's calls, which would stop the growth it needs to get from a low first
                        // measure to the limit. (Once settled, comparing with the pace now keeps the
                        // sawtooth's refusals as rare as they were.)
                        grow(now);
                    }
                    grownAt = now;
                    if (next - slot > 0) {
                        slot = next;
                    }
                    if (slot - now > HORIZON) {
                        return NOT_YET;
                    }
                    next = slot + (long) (SECOND / rate);
                }
                return slot;
            }
        }

        /**
         * The turn a call asking at {@code now} would be given, without taking it: not before a
         * retry-after, and after the turns already handed out.
         */
        synchronized long nextTurn(long now) {
            long slot = notBefore == Long.MIN_VALUE || notBefore - now < 0 ? now : notBefore;
            return rate > 0 && next - slot > 0 ? next : slot;
        }

        /** When a caller told {@link #NOT_YET} may ask again: a turn is then within the horizon. */
        synchronized long freeAt() {
            long slot = notBefore == Long.MIN_VALUE || next - notBefore > 0 ? next : notBefore;
            return slot - HORIZON;
        }

        /**
         * The line of callers waiting for a turn beyond the horizon: only its first sleeps until one is
         * free, the others queue behind it (fairly, so none waits forever), and each is woken once.
         */
        ReentrantLock line() {
            return line;
        }

        private void grow(long now) {
            long since = now - slowedAt;
            double perSecond = provisional
                    ? FASTEST
                    : since < GENTLE
                            ? PROBE
                            : Math.min(FASTEST, PROBE * Math.pow(2, (double) (since - GENTLE) / SECOND + 1));
            rate *= 1 + perSecond * (now - grownAt) / SECOND;
        }

        /** A call sent at {@code sentAt} was accepted; its answer came at {@code now}. */
        synchronized void accepted(long sentAt, long now) {
            if (firstSent == Long.MIN_VALUE || sentAt - firstSent < 0) {
                firstSent = sentAt;
            }
            if (latency < 0 || now - sentAt < latency) {
                latency = now - sentAt;
            }
            long n = Math.floorDiv(now, SLOT);
            int i = (int) Math.floorMod(n, SLOTS);
            if (slotOf[i] != n) {
                slotOf[i] = n;
                countOf[i] = 0;
            }
            countOf[i]++;
        }

        /** Requests per second accepted over the last second (at most), by the time their answers came; 0 if none. */
        private double measured(long now) {
            long n = Math.floorDiv(now, SLOT);
            int count = 0;
            for (int i = 0; i < SLOTS; i++) {
                if (n - slotOf[i] >= 0 && n - slotOf[i] < SLOTS) {
                    count += countOf[i];
                }
            }
            if (count == 0) {
                return 0;
            }
            // Early on, the answers counted are those of the requests sent from the first one until a
            // latency ago: the ones sent since have not answered yet.
            return count * (double) SECOND / span(now);
        }

        private void notePace(long now) {
            long n = Math.floorDiv(now, SLOT);
            int i = (int) Math.floorMod(n, SLOTS);
            paceSlotOf[i] = n;
            paceOf[i] = rate;
        }

        /** The pace over the time {@link #measured} counts the accepted requests over (the pace now if none noted). */
        private double averagePace(long now) {
            long n = Math.floorDiv(now, SLOT);
            long slots = Math.max(1, span(now) / SLOT);
            double sum = 0;
            int noted = 0;
            for (int i = 0; i < SLOTS; i++) {
                if (paceOf[i] > 0 && n - paceSlotOf[i] >= 0 && n - paceSlotOf[i] < slots) {
                    sum += paceOf[i];
                    noted++;
                }
            }
            return noted == 0 ? rate : sum / noted;
        }

        /** The time the accepted requests are counted over: a second, less early on (see {@link #measured}). */
        private long span(long now) {
            return Math.max(MIN_SPAN, Math.min(SECOND, now - latency - firstSent));
        }

        /**
         * A call sent at {@code sentAt} was refused at {@code now}, the provider asking to wait
         * {@code retryAfter} if it said. Calls sent before the last slow-down went out at the old pace:
         * their refusals, arriving together, say nothing new and do not slow it again (a hundred calls
         * refused at once would otherwise take the pace down to nothing).
         */
        synchronized void throttled(long sentAt, long now, Optional<Duration> retryAfter) {
            engaged = true;
            retryAfter.ifPresent(ra -> {
                long until = now + ra.toNanos();
                if (notBefore == Long.MIN_VALUE || until - notBefore > 0) {
                    notBefore = until;
                }
            });
            if (slowedAt != Long.MIN_VALUE && sentAt - slowedAt < 0) {
                return;
            }
            double seen = measured(now);
            if (slowedFromProvisional && sentAt - slowedAt < HORIZON) {
                // Sent within a horizon of the slow-down of a first or provisional pace: at a turn handed
                // out before it, at that pace, or into the bucket the first burst emptied. It says again that
                // the calls were too many, which the slow-down took into account; only the measure may lower
                // the pace further. Taking 5 % off at each of these refusals took a first pace that was
                // already low (a measure over the first tenth of a second) lower still, and seconds to grow
                // back. (Once settled, a refusal just after a slow-down says the new pace is still too high:
                // a limit that dropped is followed in a few steps, as before.)
                if (seen > 0 && BELOW * seen < rate) {
                    rate = Math.max(1, BELOW * seen);
                }
                return;
            }
            slowedAt = now;
            grownAt = now;
            if (seen > 0) {
                // The measure lags a pace that was rising fast: it may lower the refused pace by a
                // bounded step only, and by as much as it likes the first time, when there is none.
                slowedFromProvisional = rate == 0 || provisional;
                provisional = span(now) < SECOND;
                rate = Math.max(1, BELOW * (rate > 0 ? Math.min(rate, Math.max(seen, FLOOR * rate)) : seen));
            }
            // Refused before any accepted call answered (refusals come back at once, acceptances after the
            // work): no measure yet. The retry-after and the backoff hold the calls until one comes.
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

        /** Takes a place if one is free now (a simulation's worker cannot block). */
        synchronized boolean tryAcquire() {
            if (inFlight >= Math.max(1, (int) limit)) {
                return false;
            }
            inFlight++;
            return true;
        }

        synchronized void acquire() {
            while (inFlight >= Math.max(1, (int) limit)) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    // The place is taken anyway, beyond the limit: the caller releases it in every case, and
                    // a release without a place would let one more call through for the rest of the run.
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            inFlight++;
        }

        synchronized void release() {
            inFlight--;
            notifyAll();
        }

        /** Back to the full limit: the pacer has taken over slowing the calls down. */
        synchronized void reset() {
            limit = max;
            notifyAll();
        }

        synchronized void success() {
            limit = Math.min(max, limit + 1.0 / Math.max(1.0, limit));
            notifyAll();
        }

        synchronized void throttled(long sentAt) {
            throttled(sentAt, System.nanoTime());
        }

        /** Halves the limit, once for all the calls that were in flight when it last did (as {@link RatePacer#throttled}). */
        synchronized void throttled(long sentAt, long now) {
            if (halvedAt != Long.MIN_VALUE && sentAt - halvedAt < 0) {
                return;
            }
            halvedAt = now;
            limit = Math.max(1.0, limit / 2);
        }
    }
}
