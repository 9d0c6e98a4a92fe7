package dev.strata.engine;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * Many operations calling one rate-limited API through a provider configuration's pacer and adaptive
 * limit, as {@link ProviderCalls} calls them (wait for the pace and any retry-after, take a place under
 * the limit, send, adapt to the answer, retry a refusal after its backoff), on a simulated clock: a
 * discrete-event simulation, so a run of tens of seconds takes milliseconds and always gives the same
 * result. The API is a token bucket like strata-cloudsim's: {@code rate} tokens a second up to
 * {@code burst}; an accepted request answers after {@code latency}, a refused one at once with the
 * time until the next token is free (or without it, as many real APIs do).
 *
 * <p>As in an apply, an operation may first make calls the provider answers itself ({@code
 * PlanResourceChange}: {@code localCalls} of them, each taking {@code localCost}), and the run may start
 * with a plan phase of {@code planPhase} before the first operation (an apply plans every instance
 * before it changes any); both go through the same decisions as in {@link ProviderCalls} ({@link
 * ProviderCalls#takesTurn}, {@link ProviderCalls#pacedRetryWait}).
 *
 * <p>A real run's answers are noisier than the bucket's: a loaded CPU delays each answer by a random
 * time before the engine sees it, and at start-up (classes loaded, code not yet compiled) the first
 * accepted answers come late. {@link #withNoise} models both, from a seed, so that a sweep of seeds
 * shows the spread of a run's outcome, not one lucky draw.
 */
final class ThrottledServerSimulation {
    private static final long MS = 1_000_000L;

    /**
     * Counts of one run; {@code settledRefusals} are those of requests sent after its first two seconds;
     * {@code began} is the start of the run, its plan phase included; {@code firstPace} the first
     * pace the pacer set (0 if it never paced).
     */
    record Result(
            int operations,
            int accepted,
            int refused,
            int settledRefusals,
            int failed,
            long began,
            long firstSent,
            long lastAnswer,
            double firstPace) {
        /** Accepted requests per second from the start of the run (its plan phase included) to the last answer. */
        double acceptedPerSecondOfTheRun() {
            return accepted * 1e9 / (lastAnswer - began);
        }

        /** Accepted requests per second from the first request sent to the last answer. */
        double acceptedPerSecond() {
            return accepted * 1e9 / (lastAnswer - firstSent);
        }

        double seconds() {
            return (lastAnswer - firstSent) / 1e9;
        }
    }

    private double rate;
    private final double burst;
    private final long latency;
    private final boolean tellsRetryAfter;
    private final int concurrency;
    private final int localCalls;
    private final long localCost;
    private final long planPhase;
    private final ProviderCalls.Settings settings = ProviderCalls.Settings.DEFAULT;
    private final Random random = new Random(19);
    /** Draws the answers' delays; seeded by {@link #withNoise}. */
    private Random noise = new Random(19);
    /** Each answer (accepted or refused) reaches the engine up to this much later than the server sent it. */
    private long answerJitter;
    /** No accepted answer reaches the engine before this long after the first request (a cold start). */
    private long warmUp;

    private final ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer();
    private final ProviderCalls.AdaptiveLimit limit;
    private final ArrayDeque<Runnable> waitingForLimit = new ArrayDeque<>();
    private final ArrayDeque<Runnable> line = new ArrayDeque<>();
    private boolean lineBusy;
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private long seq;
    private long now = 1_000 * MS; // any origin: the pacer only compares times

    private double tokens;
    private long refilled;

    private int started;
    private int operations;
    private int accepted;
    private int refused;
    private int failed;
    private int settledRefusals;
    private long firstSent = Long.MIN_VALUE;
    private long lastAnswer;
    private double firstPace;

    ThrottledServerSimulation(double rate, double burst, Duration latency, boolean tellsRetryAfter, int concurrency) {
        this(rate, burst, latency, tellsRetryAfter, concurrency, 0, Duration.ZERO, Duration.ZERO);
    }

    ThrottledServerSimulation(
            double rate,
            double burst,
            Duration latency,
            boolean tellsRetryAfter,
            int concurrency,
            int localCalls,
            Duration localCost,
            Duration planPhase) {
        this.localCalls = localCalls;
        this.localCost = localCost.toNanos();
        this.planPhase = planPhase.toNanos();
        this.rate = rate;
        this.burst = burst;
        this.latency = latency.toNanos();
        this.tellsRetryAfter = tellsRetryAfter;
        this.concurrency = concurrency;
        this.limit = new ProviderCalls.AdaptiveLimit(concurrency);
        this.tokens = burst;
        this.refilled = now;
    }

    private record Event(long at, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private void at(long time, Runnable action) {
        events.add(new Event(time, seq++, action));
    }

    /** The server's limit becomes {@code newRate} requests a second {@code after} the first operation starts. */
    ThrottledServerSimulation changingTo(double newRate, Duration after) {
        at(now + planPhase + after.toNanos(), () -> {
            tokens = Math.min(burst, tokens + (now - refilled) / 1e9 * rate);
            refilled = now;
            rate = newRate;
        });
        return this;
    }

    /**
     * Answers reach the engine up to {@code answerJitter} late (uniformly drawn, from {@code seed}), and
     * no accepted answer before {@code warmUp} after the first request was sent.
     */
    ThrottledServerSimulation withNoise(long seed, Duration answerJitter, Duration warmUp) {
        this.noise = new Random(seed);
        this.answerJitter = answerJitter.toNanos();
        this.warmUp = warmUp.toNanos();
        return this;
    }

    private long jitter() {
        return answerJitter == 0 ? 0 : (long) (noise.nextDouble() * answerJitter);
    }

    /** Runs {@code count} operations of one request each on {@code concurrency} workers, to the end. */
    Result run(int count) {
        this.operations = count;
        long began = now;
        for (int w = 0; w < concurrency; w++) {
            at(now + planPhase, this::nextOperation);
        }
        at(now + planPhase + SECOND, this::sample);
        while (!events.isEmpty()) {
            Event e = events.poll();
            now = e.at();
            e.action().run();
        }
        return new Result(count, accepted, refused, settledRefusals, failed, began, firstSent, lastAnswer, firstPace);
    }

    private static final long SECOND = 1_000 * MS;
    private final StringBuilder timeline = new StringBuilder();
    private int acceptedBefore;
    private int refusedBefore;

    /** Each second of the run: its accepted and refused requests, the pace and the concurrency limit at its end. */
    String timeline() {
        return timeline.toString();
    }

    private void sample() {
        timeline.append(String.format(
                java.util.Locale.ROOT,
                "%d/%d@%.0f|%.0f ",
                accepted - acceptedBefore,
                refused - refusedBefore,
                pacer.rate(),
                limit.limit()));
        acceptedBefore = accepted;
        refusedBefore = refused;
        if (accepted + failed < operations) {
            at(now + SECOND, this::sample);
        }
    }

    private void nextOperation() {
        if (started < operations) {
            started++;
            localCall(0);
        }
    }

    /** The operation's {@code n}th call that the provider answers itself, then its request. */
    private void localCall(int n) {
        if (n == localCalls) {
            attempt(ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, 1);
            return;
        }
        Runnable answered = () -> localCall(n + 1);
        if (!ProviderCalls.takesTurn(ProviderCalls.Operation.PLAN_RESOURCE_CHANGE, 1)) {
            at(now + localCost, answered);
            return;
        }
        // Paced like a request: a turn and a place, then counted as accepted, though no request was sent.
        inTurn(() -> whenPlaced(() -> {
            long sentAt = now;
            at(now + localCost, () -> {
                release();
                pacer.accepted(sentAt, now);
                limit.success();
                answered.run();
            });
        }));
    }

    /**
     * As {@code ProviderCalls.attempt}: the turn from the pacer (the retry-after, the pace, in line
     * behind the others waiting for one), then a place under the limit, then the request.
     */
    private void attempt(ProviderCalls.Operation operation, int attempt) {
        Runnable send = () -> send(operation, attempt);
        if (ProviderCalls.takesTurn(operation, attempt)) {
            inTurn(() -> whenPlaced(send));
        } else {
            send.run();
        }
    }

    /** Runs {@code then} at the turn the pacer gives, in line behind the others waiting for one. */
    private void inTurn(Runnable then) {
        long turn = lineBusy ? ProviderCalls.RatePacer.NOT_YET : pacer.reserve(now);
        if (turn != ProviderCalls.RatePacer.NOT_YET) {
            at(turn, then);
        } else if (lineBusy) {
            line.add(then);
        } else {
            lineBusy = true;
            firstInLine(then);
        }
    }

    private void firstInLine(Runnable place) {
        long turn = pacer.reserve(now);
        if (turn == ProviderCalls.RatePacer.NOT_YET) {
            at(pacer.freeAt(), () -> firstInLine(place));
            return;
        }
        at(turn, place);
        if (line.isEmpty()) {
            lineBusy = false;
        } else {
            Runnable following = line.poll();
            at(now, () -> firstInLine(following));
        }
    }

    private void whenPlaced(Runnable send) {
        if (limit.tryAcquire()) {
            send.run();
        } else {
            waitingForLimit.add(send);
        }
    }

    private void release() {
        limit.release();
        while (!waitingForLimit.isEmpty() && limit.tryAcquire()) {
            waitingForLimit.poll().run();
        }
    }

    private void send(ProviderCalls.Operation operation, int attempt) {
        long sentAt = now;
        if (firstSent == Long.MIN_VALUE) {
            firstSent = sentAt;
        }
        tokens = Math.min(burst, tokens + (now - refilled) / 1e9 * rate);
        refilled = now;
        if (tokens >= 1) {
            tokens -= 1;
            long answerAt = Math.max(now + latency + jitter(), firstSent + warmUp);
            at(answerAt, () -> {
                accepted++;
                lastAnswer = now;
                release();
                pacer.accepted(sentAt, now);
                limit.success();
                nextOperation();
            });
            return;
        }
        refused++;
        if (sentAt - firstSent > 2 * SECOND) {
            settledRefusals++;
        }
        Optional<Duration> retryAfter = tellsRetryAfter
                ? Optional.of(Duration.ofMillis((long) Math.ceil((1 - tokens) / rate * 1000)))
                : Optional.empty();
        at(now + MS + jitter(), () -> {
            release();
            boolean wasPaced = pacer.paced();
            if (!wasPaced) {
                limit.throttled(sentAt, now);
            }
            pacer.throttled(sentAt, now, retryAfter);
            if (!wasPaced && pacer.paced()) {
                limit.reset();
                firstPace = pacer.rate();
            }
            if (attempt >= settings.maxAttempts()) {
                failed++;
                nextOperation();
                return;
            }
            Duration wait = ProviderCalls.pacedRetryWait(pacer, attempt, now)
                    .orElseGet(() -> ProviderCalls.backoff(settings, attempt, retryAfter, random));
            at(now + wait.toNanos(), () -> attempt(operation, attempt + 1));
        });
    }
}
