package dev.strata.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(calls.rateOf(EAST)).isGreaterThan(0);
        send(calls, WEST, sent, OK);
        assertThat(calls.limitOf(WEST)).isEqualTo(8.0);
        assertThat(calls.rateOf(WEST)).isZero();
    }

    @Test
    void callsThrottledTogetherLowerTheLimitAndPaceOnceAndALaterThrottleAgain() throws Exception {
        ProviderCalls calls = calls(1, 50, Duration.ofSeconds(10));
        AtomicInteger sent = new AtomicInteger();
        for (int i = 0; i < 6; i++) {
            send(calls, EAST, sent, OK);
        }
        // Four calls in flight at once, all refused: one signal that the pace was too high, not four.
        java.util.concurrent.CountDownLatch inFlight = new java.util.concurrent.CountDownLatch(4);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            threads.add(Thread.ofVirtual()
                    .start(() -> calls.call(
                            EAST,
                            VPC,
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
    }

    @Test
    void thePaceSlowsOnceForCallsSentBeforeItLastSlowed() {
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer(slept::add);
        for (int i = 0; i < 6; i++) {
            pacer.success();
        }
        long sent = System.nanoTime();
        pacer.throttled(sent, Optional.empty());
        assertThat(pacer.rate())
                .as("what was accepted over the last second, a little under it")
                .isCloseTo(6 * 0.95, org.assertj.core.data.Offset.offset(1e-9));
        pacer.throttled(sent, Optional.empty());
        pacer.throttled(sent, Optional.empty());
        assertThat(pacer.rate()).isCloseTo(6 * 0.95, org.assertj.core.data.Offset.offset(1e-9));
        pacer.throttled(System.nanoTime(), Optional.empty());
        assertThat(pacer.rate()).isCloseTo(6 * 0.95 * 0.9, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aRefusalBeforeAnyAnswerPacesAtTheRateTheServersRetryAfterImplies() {
        ProviderCalls.RatePacer pacer = new ProviderCalls.RatePacer(slept::add);
        // 100 requests per second: the next one in 10 ms. Nothing accepted has answered yet.
        pacer.throttled(System.nanoTime(), Optional.of(Duration.ofMillis(10)));
        assertThat(pacer.rate()).isCloseTo(95.0, org.assertj.core.data.Offset.offset(1e-9));
        ProviderCalls.RatePacer blind = new ProviderCalls.RatePacer(slept::add);
        blind.throttled(System.nanoTime(), Optional.empty());
        assertThat(blind.rate()).as("without a hint: one request per second").isEqualTo(1.0);
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
}
