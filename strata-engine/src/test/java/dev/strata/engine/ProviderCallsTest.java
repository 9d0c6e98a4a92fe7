package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.Module;
import dev.strata.addr.Provider;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Retries, circuit breaking and limits of provider calls, per provider configuration. */
class ProviderCallsTest {

    private static final AbsProviderConfig EAST =
            new AbsProviderConfig(new Module(List.of("x")), Provider.implied("aws"), "east");
    private static final AbsProviderConfig WEST =
            new AbsProviderConfig(new Module(List.of("x")), Provider.implied("aws"), "west");
    private static final AbsResourceInstance VPC =
            Addrs.parseAbsResourceInstance("module.x.aws_vpc.main").value();

    private static final ProviderDiagnostics OK = ProviderDiagnostics.builder().build();
    private static final ProviderDiagnostics THROTTLED = ProviderDiagnostics.builder()
            .add(ProviderDiagnostic.transientError("Throttled", "429", new Failure.Transient(Optional.empty())))
            .build();

    /** Records the waits instead of sleeping. */
    private final List<Duration> slept = new ArrayList<>();

    private ProviderCalls calls(int maxAttempts, int breakerThreshold, Duration cooldown) {
        return new ProviderCalls(
                8,
                new ProviderCalls.Settings(
                        maxAttempts,
                        Duration.ofMillis(100),
                        Duration.ofSeconds(2),
                        Duration.ofMinutes(1),
                        breakerThreshold,
                        cooldown),
                EngineEvents.NONE,
                () -> false,
                slept::add);
    }

    private static ProviderDiagnostics send(
            ProviderCalls calls, AbsProviderConfig provider, AtomicInteger sent, ProviderDiagnostics answer) {
        return calls.call(
                provider,
                VPC,
                ProviderCalls.Operation.APPLY_RESOURCE_CHANGE,
                () -> {
                    sent.incrementAndGet();
                    return answer;
                },
                d -> d);
    }

    @Test
    void limitsAreKeyedByTheProviderConfigurationAddressAsTerraformPrintsIt() {
        assertThat(ProviderCalls.key(EAST))
                .isEqualTo("module.x.provider[\"registry.terraform.io/hashicorp/aws\"].east");
        assertThat(ProviderCalls.key(new AbsProviderConfig(Module.ROOT, Provider.implied("aws"), null)))
                .isEqualTo("provider[\"registry.terraform.io/hashicorp/aws\"]");
        ProviderCalls calls = calls(3, 5, Duration.ofSeconds(10));
        assertThat(calls.breakerOf(EAST).getName()).isEqualTo(ProviderCalls.key(EAST));
    }

    @Test
    void anOpenCircuitOfOneAliasedConfigurationDoesNotStopTheOther() {
        ProviderCalls calls = calls(1, 2, Duration.ofSeconds(30));
        AtomicInteger sent = new AtomicInteger();
        send(calls, EAST, sent, THROTTLED);
        send(calls, EAST, sent, THROTTLED);
        assertThat(calls.breakerOf(EAST).getState()).isEqualTo(CircuitBreaker.State.OPEN);

        sent.set(0);
        assertThatThrownBy(() -> send(calls, EAST, sent, OK))
                .isInstanceOf(ProviderCalls.ProviderUnavailable.class)
                .hasMessage("The provider's last 2 operations failed after retries; Strata stopped sending it requests "
                        + "for 30 s so as not to overload its API.");
        assertThat(sent).as("an open circuit sends nothing").hasValue(0);

        assertThat(send(calls, WEST, sent, OK).hasErrors()).isFalse();
        assertThat(sent)
                .as("the other alias of the same provider is still called")
                .hasValue(1);
        assertThat(calls.breakerOf(WEST).getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void throttlingOfOneAliasedConfigurationLowersOnlyItsOwnLimitAndPace() {
        ProviderCalls calls = calls(1, 50, Duration.ofSeconds(10));
        AtomicInteger sent = new AtomicInteger();
        send(calls, EAST, sent, THROTTLED);
        assertThat(calls.limitOf(EAST)).isEqualTo(4.0);
        for (int i = 0; i < 6; i++) {
            send(calls, EAST, sent, OK);
        }
        send(calls, EAST, sent, THROTTLED);
        assertThat(calls.rateOf(EAST)).isGreaterThan(0);
        send(calls, WEST, sent, OK);
        assertThat(calls.limitOf(WEST)).isEqualTo(8.0);
        assertThat(calls.rateOf(WEST)).isZero();
    }

    @Test
    void callsThrottledTogetherLowerTheLimitOnceAndALaterThrottleAgainUntilThePacerTakesOver() throws Exception {
        ProviderCalls calls = calls(1, 50, Duration.ofSeconds(10));
        AtomicInteger sent = new AtomicInteger();
        // Four calls in flight at once, all refused: one signal that the pace was too high, not four.
        java.util.concurrent.CountDownLatch inFlight = new java.util.concurrent.CountDownLatch(4);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            threads.add(Thread.ofVirtual()
                    .start(() -> calls.call(
                            EAST,
                            VPC,
                            ProviderCalls.Operation.APPLY_RESOURCE_CHANGE,
                            () -> {
                                inFlight.countDown();
                                try {
                                    inFlight.await();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                                return THROTTLED;
                            },
                            d -> d)));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(calls.limitOf(EAST)).as("halved once from 8").isEqualTo(4.0);
        // A call sent after the slow-down and still refused: the new limit is too high as well.
        send(calls, EAST, sent, THROTTLED);
        assertThat(calls.limitOf(EAST)).isEqualTo(2.0);
        assertThat(calls.rateOf(EAST)).as("nothing accepted: no rate measured").isZero();
        // Calls accepted, then one refused: the pacer measures a rate and paces; the concurrency is restored,
        // and later refusals lower the pace, not the concurrency.
        for (int i = 0; i < 6; i++) {
            send(calls, EAST, sent, OK);
        }
        send(calls, EAST, sent, THROTTLED);
        assertThat(calls.rateOf(EAST)).isGreaterThan(0);
        assertThat(calls.limitOf(EAST)).isEqualTo(8.0);
        double paced = calls.rateOf(EAST);
        // A refusal of a call sent a horizon (50 ms) after the slow-down, not at a turn handed out before it.
        Thread.sleep(60);
        send(calls, EAST, sent, THROTTLED);
        assertThat(calls.limitOf(EAST)).isEqualTo(8.0);
        assertThat(calls.rateOf(EAST)).isLessThan(paced);
    }

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;

    @Test
    void thePaceSlowsOnceForCallsSentBeforeItLastSlowed() {
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer();
        long t = 5 * SECOND;
        // Seven accepted, the first of them answered more than a second before the refusal.
        for (int i = 0; i < 7; i++) {
            pacer.accepted(t + i * 100 * MS, t + i * 100 * MS + 50 * MS);
        }
        long sent = t + 1090 * MS;
        pacer.throttled(sent, sent + 10 * MS, Optional.empty());
        assertThat(pacer.rate())
                .as("what was accepted over the last second, a little under it")
                .isCloseTo(6 * 0.95, offset(1e-9));
        pacer.throttled(sent, sent + 2 * MS, Optional.empty());
        pacer.throttled(sent, sent + 3 * MS, Optional.empty());
        assertThat(pacer.rate()).isCloseTo(6 * 0.95, offset(1e-9));
        // Sent within a horizon (50 ms) after the first slow-down (at a turn handed out before it, into the
        // bucket the first burst emptied), with a measure above the pace: no news.
        pacer.throttled(sent + 10 * MS, sent + 11 * MS, Optional.empty());
        assertThat(pacer.rate()).isCloseTo(6 * 0.95, offset(1e-9));
        // Sent a horizon after the slow-down and refused: the new pace is still above what the server takes.
        pacer.accepted(sent + 10 * MS, sent + 40 * MS);
        pacer.throttled(sent + 61 * MS, sent + 62 * MS, Optional.empty());
        assertThat(pacer.rate()).isCloseTo(6 * 0.95 * 0.95, offset(1e-9));
    }

    @Test
    void aRetryAfterIsATimeToWaitNotARate() {
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer();
        long t = 5 * SECOND;
        assertThat(pacer.reserve(t)).as("never throttled: not paced").isEqualTo(t);
        // A token bucket refusing at 100 requests per second says its next token is free in 10 ms; it
        // would say the same at 5 or 5,000 requests per second with a token almost free.
        pacer.throttled(t, t + MS, Optional.of(Duration.ofMillis(10)));
        assertThat(pacer.rate())
                .as("nothing accepted answered yet: no rate to go by")
                .isZero();
        assertThat(pacer.reserve(t + 2 * MS)).as("held until the retry-after").isEqualTo(t + 11 * MS);
        assertThat(pacer.reserve(t + 20 * MS)).isEqualTo(t + 20 * MS);
        // The accepted calls answer; the next refusal paces at what they measured: 30 sent in the 150 ms
        // from the first until a latency (50 ms) before the refusal.
        for (int i = 0; i < 30; i++) {
            pacer.accepted(t + i * 5 * MS, t + 50 * MS + i * 5 * MS);
        }
        pacer.throttled(t + 190 * MS, t + 200 * MS, Optional.of(Duration.ofMillis(3)));
        assertThat(pacer.rate()).isCloseTo(0.95 * 30 / 0.15, offset(1e-9));
        assertThat(pacer.reserve(t + 201 * MS)).isEqualTo(t + 203 * MS);
        long second = pacer.reserve(t + 201 * MS);
        assertThat(second - (t + 203 * MS)).isEqualTo((long) (SECOND / (0.95 * 30 / 0.15)));
        // Turns are handed out at most 50 ms ahead, so that a change of pace reaches the API at once.
        long turn = second;
        while (turn != ProviderCalls.RatePacer.NOT_YET) {
            turn = pacer.reserve(t + 201 * MS);
            assertThat(turn == ProviderCalls.RatePacer.NOT_YET || turn - (t + 201 * MS) <= 50 * MS)
                    .isTrue();
        }
        assertThat(pacer.freeAt() - (t + 201 * MS)).isBetween(0L, 10 * MS);
    }

    @Test
    void aPaceThatHoldsCallsBackProbesUpwardsGentlyThenFaster() {
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer();
        long t = 5 * SECOND;
        pacer.accepted(t - 2 * SECOND, t - 2 * SECOND); // outside the second the rate is measured over
        for (int i = 2; i <= 101; i++) {
            pacer.accepted(t + i * 10 * MS, t + i * 10 * MS);
        }
        long now = t + 1010 * MS;
        pacer.throttled(now, now, Optional.empty());
        assertThat(pacer.rate()).isCloseTo(95, offset(1e-9));
        // A hundred callers keep the pacer busy: each asks again when its turn came, and each call is accepted.
        long slot = now;
        while (slot - now < SECOND) {
            slot = pacer.reserve(slot);
            pacer.accepted(slot, slot);
        }
        assertThat(pacer.rate()).as("2 %% a second just after a throttle").isCloseTo(95 * 1.02, offset(0.3));
        while (slot - now < 10 * SECOND) {
            slot = pacer.reserve(slot);
            pacer.accepted(slot, slot);
        }
        assertThat(pacer.rate())
                .as("then faster and faster: the limit may have risen, or the measure was low")
                .isGreaterThan(2 * 95);
        // A pace that holds nothing back (calls come slower than it) is not raised.
        double before = pacer.rate();
        pacer.reserve(now + 20 * SECOND);
        pacer.reserve(now + 21 * SECOND);
        assertThat(pacer.rate()).isEqualTo(before);
        // Nor one the calls do not keep up with (they wait for something else, or do not answer): it would
        // run away and let a burst through later.
        slot = now + 22 * SECOND;
        long from = slot;
        while (slot - from < 5 * SECOND) {
            slot = pacer.reserve(slot);
        }
        assertThat(pacer.rate()).isEqualTo(before);
    }

    @Test
    void oneSlowOperationDoesNotInflateTheMeasure() {
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer();
        long t = 5 * SECOND;
        // 100 requests a second answering in 50 ms for two seconds, then one that took three seconds.
        for (int i = 0; i < 200; i++) {
            pacer.accepted(t + i * 10 * MS, t + i * 10 * MS + 50 * MS);
        }
        long now = t + 2 * SECOND + 50 * MS;
        pacer.accepted(now - 3 * SECOND, now);
        pacer.throttled(now, now + MS, Optional.empty());
        assertThat(pacer.rate()).isCloseTo(0.95 * 101, offset(1.5));
    }

    @Test
    void aThrottledApiIsUsedToNinetyPercentOfItsRateWithoutFailures() {
        for (double rate : new double[] {20, 100, 500}) {
            for (boolean tellsRetryAfter : new boolean[] {true, false}) {
                ThrottledServerSimulation.Result r = new ThrottledServerSimulation(
                                rate, 10, Duration.ofMillis(50), tellsRetryAfter, 100)
                        .run((int) (rate * 20));
                String run = rate + " req/s, retry-after " + tellsRetryAfter + ": " + r;
                assertThat(r.failed()).as(run).isZero();
                assertThat(r.accepted()).as(run).isEqualTo(r.operations());
                assertThat(r.acceptedPerSecond() / rate).as(run).isGreaterThanOrEqualTo(0.9);
                // A hundred calls sent at once into a bucket of ten are mostly refused, and their first
                // retries come before any accepted call answered; once paced, one refusal every few seconds.
                assertThat(r.refused()).as(run).isLessThan(200);
                assertThat(r.settledRefusals()).as(run).isLessThanOrEqualTo((int) (r.seconds() / 2));
            }
        }
    }

    @Test
    void anApplysOwnPlanCallsLeaveTheApisTurnsToItsRequests() {
        // As `RATE=100 bench/run sim-wide 2000`: every create is first planned again by the apply
        // (PlanResourceChange, answered by the provider without a request), after a plan phase.
        for (boolean tellsRetryAfter : new boolean[] {true, false}) {
            ThrottledServerSimulation.Result r = new ThrottledServerSimulation(
                            100,
                            10,
                            Duration.ofMillis(50),
                            tellsRetryAfter,
                            100,
                            1,
                            Duration.ofNanos(200_000),
                            Duration.ofSeconds(1))
                    .run(2000);
            String run = "retry-after " + tellsRetryAfter + ": " + r;
            assertThat(r.failed()).as(run).isZero();
            assertThat(r.accepted()).as(run).isEqualTo(2000);
            // Plan calls paced like requests and counted as accepted: 0.93 of the rate.
            assertThat(r.acceptedPerSecond() / 100).as(run).isGreaterThanOrEqualTo(0.97);
            assertThat(r.acceptedPerSecondOfTheRun() / 100).as(run).isGreaterThanOrEqualTo(0.93);
            assertThat(r.refused()).as(run).isLessThan(200);
            assertThat(r.settledRefusals()).as(run).isLessThanOrEqualTo((int) (r.seconds() / 2));
        }
    }

    @Test
    void answersDelayedByALoadedCpuDoNotHoldAnyRunBelowNinetyPercentOfTheRate() {
        // As `RATE=100 bench/run sim-wide 2000` on a machine whose CPU delays each answer by 0-100 ms:
        // the first pace, measured over the first tenth of a second, is anywhere from a quarter to
        // twice the rate depending on the draw. Every draw must reach 0.9 of it, not half of them.
        // Without a cold start the main code's worst of 40 seeds was 0.78 (a first pace of 26 req/s,
        // lowered further by the refusals that followed, then probed upwards at 2 % a second); with a
        // cold start (no accepted answer in the first 300 ms) its first pace was an over-estimate that
        // the refusals took down to 60 in the first second.
        for (Duration warmUp : new Duration[] {Duration.ZERO, Duration.ofMillis(300)}) {
            for (boolean tellsRetryAfter : new boolean[] {true, false}) {
                double worst = Double.MAX_VALUE;
                String worstRun = "";
                for (int seed = 1; seed <= 40; seed++) {
                    ThrottledServerSimulation.Result r = new ThrottledServerSimulation(
                                    100,
                                    10,
                                    Duration.ofMillis(50),
                                    tellsRetryAfter,
                                    100,
                                    1,
                                    Duration.ofNanos(200_000),
                                    Duration.ofSeconds(1))
                            .withNoise(seed, Duration.ofMillis(100), warmUp)
                            .run(2000);
                    String run =
                            "seed " + seed + ", cold start " + warmUp + ", retry-after " + tellsRetryAfter + ": " + r;
                    assertThat(r.failed()).as(run).isZero();
                    assertThat(r.accepted()).as(run).isEqualTo(2000);
                    // Once paced, a refusal every second or two: the noise makes the sawtooth less regular
                    // (main's code had up to 12 in 21 s, against 7 without the noise; here the median is
                    // main's, the most 17, in the run whose first pace grew from a quarter of the rate).
                    assertThat(r.settledRefusals()).as(run).isLessThanOrEqualTo((int) r.seconds());
                    if (r.acceptedPerSecond() / 100 < worst) {
                        worst = r.acceptedPerSecond() / 100;
                        worstRun = run;
                    }
                }
                assertThat(worst).as(worstRun).isGreaterThanOrEqualTo(0.9);
            }
        }
    }

    @Test
    void aLowFirstPaceIsProbedUpwardsAtOnceAndNotLoweredByTheRefusalsJustAfterIt() {
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer();
        long t = 5 * SECOND;
        // A first measure over 100 ms holding 4 answers: 40 req/s, of an API that takes 100.
        for (int i = 0; i < 4; i++) {
            pacer.accepted(t + i * 25 * MS, t + 50 * MS + i * 25 * MS);
        }
        pacer.throttled(t + 149 * MS, t + 150 * MS, Optional.empty());
        assertThat(pacer.rate()).isCloseTo(0.95 * 40, offset(1e-9));
        double first = pacer.rate();
        pacer.accepted(t + 100 * MS, t + 155 * MS);
        pacer.accepted(t + 125 * MS, t + 180 * MS);
        // Calls sent in the next 50 ms (turns handed out at the old pace, a bucket the first burst emptied)
        // are refused too: they say nothing the slow-down did not, and the measure is above the pace.
        pacer.throttled(t + 160 * MS, t + 161 * MS, Optional.empty());
        pacer.throttled(t + 190 * MS, t + 191 * MS, Optional.empty());
        assertThat(pacer.rate()).isEqualTo(first);
        // Callers kept waiting, each call accepted: the first pace grows at the fastest rate (by more than
        // half in a second), not the 2 % a second of a pace set from a full second's measure.
        long slot = t + 200 * MS;
        while (slot - t < 1200 * MS) {
            slot = pacer.reserve(slot);
            pacer.accepted(slot, slot + 50 * MS);
        }
        assertThat(pacer.rate()).as("a second of probing from %s", first).isGreaterThan(1.5 * first);
        // The next refusal, sent well after the slow-down with a full second measured, lowers it as usual.
        double probed = pacer.rate();
        pacer.throttled(slot, slot + MS, Optional.empty());
        assertThat(pacer.rate()).isLessThan(probed);
    }

    @Test
    void aServerWhoseLimitChangesMidRunIsFollowedWithoutFailures() {
        for (boolean tellsRetryAfter : new boolean[] {true, false}) {
            // 100 requests a second for 5 s, then 30: 500 + 1,500 / 30 = 55 s at best.
            ThrottledServerSimulation.Result lowered = new ThrottledServerSimulation(
                            100,
                            10,
                            Duration.ofMillis(50),
                            tellsRetryAfter,
                            100,
                            1,
                            Duration.ofNanos(200_000),
                            Duration.ZERO)
                    .changingTo(30, Duration.ofSeconds(5))
                    .run(2000);
            assertThat(lowered.failed()).as(lowered.toString()).isZero();
            assertThat(lowered.accepted()).isEqualTo(2000);
            assertThat(lowered.seconds()).as(lowered.toString()).isLessThan(55 * 1.1);
            // A refusal every second or two: at 30 a second the burst of 10 is a third of a second, not a tenth.
            assertThat(lowered.settledRefusals()).as(lowered.toString()).isLessThanOrEqualTo((int) lowered.seconds());
            // 100, then 200: 5 + 1,500 / 200 = 12.5 s at best; the pace probes upwards to find it.
            ThrottledServerSimulation.Result raised = new ThrottledServerSimulation(
                            100,
                            10,
                            Duration.ofMillis(50),
                            tellsRetryAfter,
                            100,
                            1,
                            Duration.ofNanos(200_000),
                            Duration.ZERO)
                    .changingTo(200, Duration.ofSeconds(5))
                    .run(2000);
            assertThat(raised.failed()).as(raised.toString()).isZero();
            assertThat(raised.seconds()).as(raised.toString()).isLessThan(12.5 * 1.25);
        }
    }

    /** A clock that the calls' waits advance, so that pacing shows in what they slept. */
    private static final class ManualClock {
        long now = 5 * SECOND;
        final List<Duration> slept = new ArrayList<>();
        final List<Duration> retryDelays = new ArrayList<>();

        ProviderCalls calls() {
            return new ProviderCalls(
                    100,
                    new ProviderCalls.Settings(
                            10,
                            Duration.ofSeconds(1),
                            Duration.ofSeconds(20),
                            Duration.ofMinutes(5),
                            50,
                            Duration.ofSeconds(10)),
                    new EngineEvents() {
                        @Override
                        public void retrying(AbsResourceInstance addr, int attempt, Duration delay, String why) {
                            retryDelays.add(delay);
                        }
                    },
                    () -> false,
                    d -> {
                        slept.add(d);
                        now += d.toNanos();
                    },
                    () -> now);
        }

        /** Calls {@code operation}, which takes {@code took} and answers each of {@code answers} in turn (the last again). */
        ProviderDiagnostics call(
                ProviderCalls calls, ProviderCalls.Operation operation, Duration took, ProviderDiagnostics... answers) {
            int[] n = {0};
            return calls.call(
                    EAST,
                    VPC,
                    operation,
                    () -> {
                        now += took.toNanos();
                        return answers[Math.min(n[0]++, answers.length - 1)];
                    },
                    d -> d);
        }
    }

    @Test
    void aPlanCallTakesNoTurnFromThePaceButARefusedOnesRetryDoes() {
        ManualClock c = new ManualClock();
        ProviderCalls calls = c.calls();
        // Measured over more than a second: a settled pace (a first one measured over less is provisional
        // and probes upwards at once, which would shorten the waits counted below).
        for (int i = 0; i < 110; i++) {
            c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ofMillis(10), OK);
        }
        c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ofMillis(1), THROTTLED, OK);
        double rate = calls.rateOf(EAST);
        assertThat(rate).as("paced at what was measured").isBetween(50.0, 150.0);
        c.slept.clear();
        for (int i = 0; i < 20; i++) {
            assertThat(c.call(calls, ProviderCalls.Operation.PLAN_RESOURCE_CHANGE, Duration.ZERO, OK)
                            .hasErrors())
                    .isFalse();
        }
        assertThat(c.slept)
                .as("the provider answers a plan itself: no turn to wait for")
                .isEmpty();
        assertThat(calls.rateOf(EAST)).isEqualTo(rate);
        // Twenty requests at once: each waits its turn, one pace interval after the one before.
        for (int i = 0; i < 20; i++) {
            c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ZERO, OK);
        }
        assertThat(sleptNanos(c)).isBetween((long) (19 * SECOND / rate), (long) (21 * SECOND / rate));
        // A plan that reached the API after all and was refused: its retry takes a turn like a request, so
        // the request after it waits for the turn after that one.
        c.call(calls, ProviderCalls.Operation.PLAN_RESOURCE_CHANGE, Duration.ZERO, THROTTLED, OK);
        double slower = calls.rateOf(EAST);
        c.slept.clear();
        c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ZERO, OK);
        assertThat(sleptNanos(c)).isBetween((long) (SECOND / slower) - MS, (long) (SECOND / slower) + MS);
    }

    private static long sleptNanos(ManualClock c) {
        return c.slept.stream().mapToLong(Duration::toNanos).sum();
    }

    @Test
    void onceTheApiIsPacedARefusedCallIsRetriedAtTheNextTurnNotAfterABackoff() {
        ManualClock c = new ManualClock();
        ProviderCalls calls = c.calls();
        // Refused before anything was accepted: no pace yet, the backoff (here up to 2 s) spreads the retries.
        c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ofMillis(1), THROTTLED, OK);
        assertThat(calls.rateOf(EAST)).isZero();
        for (int i = 0; i < 10; i++) {
            c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ofMillis(10), OK);
        }
        c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ofMillis(1), THROTTLED, OK);
        double rate = calls.rateOf(EAST);
        assertThat(rate).isPositive();
        // Paced: a call refused right after another took its turn waits one pace interval, the turn after it.
        c.retryDelays.clear();
        c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ZERO, OK);
        c.call(calls, ProviderCalls.Operation.APPLY_RESOURCE_CHANGE, Duration.ZERO, THROTTLED, OK);
        assertThat(c.retryDelays).hasSize(1);
        assertThat(c.retryDelays.getFirst().toNanos()).isLessThanOrEqualTo((long) (SECOND / calls.rateOf(EAST)) + MS);
        // An operation refused again and again goes back to the exponential backoff: an API refusing
        // everything must not see the attempts spent at the pace.
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer();
        long t = 5 * SECOND;
        assertThat(ProviderCalls.pacedRetryWait(pacer, 1, t))
                .as("not paced: the backoff")
                .isEmpty();
        for (int i = 0; i < 10; i++) {
            pacer.accepted(t + i * 10 * MS, t + i * 10 * MS + 10 * MS);
        }
        pacer.throttled(t + 100 * MS, t + 101 * MS, Optional.of(Duration.ofMillis(7)));
        assertThat(ProviderCalls.pacedRetryWait(pacer, 1, t + 101 * MS))
                .as("the retry-after holds it")
                .contains(Duration.ofMillis(7));
        assertThat(ProviderCalls.pacedRetryWait(pacer, ProviderCalls.PACED_RETRIES, t + 101 * MS))
                .isPresent();
        assertThat(ProviderCalls.pacedRetryWait(pacer, ProviderCalls.PACED_RETRIES + 1, t + 101 * MS))
                .isEmpty();
    }

    @Test
    void theCircuitLetsOneOperationThroughAfterTheCoolDownAndClosesWhenItSucceeds() throws InterruptedException {
        // Long enough that a loaded machine does not end the cool-down before the refused call.
        ProviderCalls calls = calls(1, 2, Duration.ofSeconds(1));
        AtomicInteger sent = new AtomicInteger();
        send(calls, EAST, sent, THROTTLED);
        send(calls, EAST, sent, OK);
        assertThat(calls.breakerOf(EAST).getState())
                .as("failures must be in a row")
                .isEqualTo(CircuitBreaker.State.CLOSED);
        send(calls, EAST, sent, THROTTLED);
        send(calls, EAST, sent, THROTTLED);
        assertThatThrownBy(() -> send(calls, EAST, sent, OK)).isInstanceOf(ProviderCalls.ProviderUnavailable.class);
        Thread.sleep(1100);
        sent.set(0);
        assertThat(send(calls, EAST, sent, OK).hasErrors()).isFalse();
        assertThat(sent).hasValue(1);
        assertThat(calls.breakerOf(EAST).getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void transientFailuresAreRetriedWithBackoffThroughTheSleeperAndReportedAsRetries() {
        List<Integer> retried = new ArrayList<>();
        List<Duration> backoffs = new ArrayList<>();
        ProviderCalls calls = new ProviderCalls(
                8,
                new ProviderCalls.Settings(
                        4,
                        Duration.ofMillis(100),
                        Duration.ofSeconds(2),
                        Duration.ofMinutes(1),
                        50,
                        Duration.ofSeconds(10)),
                new EngineEvents() {
                    @Override
                    public void retrying(AbsResourceInstance addr, int attempt, Duration delay, String why) {
                        assertThat(addr).isEqualTo(VPC);
                        assertThat(why).isEqualTo("Throttled");
                        retried.add(attempt);
                        backoffs.add(delay);
                    }
                },
                () -> false,
                slept::add);
        // Accepted calls first: what the pacer measures the API's rate by once it throttles.
        send(calls, EAST, new AtomicInteger(), OK);
        AtomicInteger sent = new AtomicInteger();
        ProviderDiagnostics last = send(calls, EAST, sent, THROTTLED);
        assertThat(last.failure()).containsInstanceOf(Failure.Transient.class);
        assertThat(sent).hasValue(4);
        assertThat(retried).containsExactly(1, 2, 3);
        assertThat(backoffs).allSatisfy(d -> assertThat(d).isLessThanOrEqualTo(Duration.ofSeconds(2)));
        // The backoffs and the pacing the throttles started are waited through the sleeper, not for real.
        assertThat(slept).containsAll(backoffs).hasSizeGreaterThan(3);
    }

    @Test
    void aRetryAfterIsTheLeastWaitBeforeTheNextAttempt() {
        ProviderCalls calls = calls(2, 50, Duration.ofSeconds(10));
        ProviderDiagnostics slowDown = ProviderDiagnostics.builder()
                .add(ProviderDiagnostic.transientError(
                        "Throttled", "429", new Failure.Transient(Optional.of(Duration.ofSeconds(3)))))
                .build();
        send(calls, EAST, new AtomicInteger(), slowDown);
        assertThat(slept).isNotEmpty().allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ofMillis(2900)));
    }

    @Test
    void anInterruptDuringTheBackoffEndsTheRetriesAtOnce() {
        ProviderCalls calls = new ProviderCalls(
                8,
                new ProviderCalls.Settings(
                        10,
                        Duration.ofMillis(100),
                        Duration.ofSeconds(2),
                        Duration.ofMinutes(1),
                        50,
                        Duration.ofSeconds(10)),
                EngineEvents.NONE,
                () -> false,
                d -> {
                    throw new InterruptedException();
                });
        AtomicInteger sent = new AtomicInteger();
        try {
            assertThat(send(calls, EAST, sent, THROTTLED).failure()).containsInstanceOf(Failure.Transient.class);
            assertThat(sent).hasValue(1);
            assertThat(Thread.currentThread().isInterrupted())
                    .as("the interrupt is kept for the caller")
                    .isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aStopRequestEndsTheRetries() {
        ProviderCalls calls = new ProviderCalls(
                8,
                new ProviderCalls.Settings(
                        10,
                        Duration.ofMillis(100),
                        Duration.ofSeconds(2),
                        Duration.ofMinutes(1),
                        50,
                        Duration.ofSeconds(10)),
                EngineEvents.NONE,
                () -> true,
                slept::add);
        AtomicInteger sent = new AtomicInteger();
        send(calls, EAST, sent, THROTTLED);
        assertThat(sent).hasValue(1);
        assertThat(slept).isEmpty();
    }

    @Test
    void aCallInterruptedWhileWaitingForAPlaceKeepsTheCountOfPlacesRight() throws Exception {
        ProviderCalls.AdaptiveLimit limit = new ProviderCalls.AdaptiveLimit(1);
        limit.acquire();
        Thread waiter = Thread.ofPlatform().start(() -> {
            limit.acquire(); // interrupted while the only place is taken
            limit.release();
        });
        waiter.interrupt();
        waiter.join(10_000);
        assertThat(waiter.isAlive()).isFalse();
        limit.release();
        // Both places given back: one call at a time again, not two.
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(limit.tryAcquire()).isFalse();
    }
}
