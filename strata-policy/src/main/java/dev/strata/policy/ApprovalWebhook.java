package dev.strata.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.resilience.Retrying;
import dev.strata.resilience.Sleeper;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pre-apply approval webhook: the plan JSON is POSTed with a correlation id after planning and
 * before any change, and the answer {@code {"result": "APPROVED"}} or
 * {@code {"result": "REJECTED", "reason": "..."}} decides. Network errors, 429 and 5xx answers are
 * retried with growing waits until the timeout; a circuit breaker per address stops calling a service
 * that keeps failing. When no answer comes, the settings' fail mode decides: closed (the default)
 * rejects, open approves with a warning.
 */
public final class ApprovalWebhook {
    private static final Logger LOG = LoggerFactory.getLogger(ApprovalWebhook.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** One breaker per address for the process: a service that keeps failing is not called again. */
    private static final Map<URI, CircuitBreaker> BREAKERS = new ConcurrentHashMap<>();

    /**
     * @param timeout  how long to wait for a decision in all (the service may hold the request open
     *                 while a person decides)
     * @param attempts the most requests made for one decision
     */
    public record Settings(URI address, Duration timeout, int attempts, boolean failOpen) {
        public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
        public static final int DEFAULT_ATTEMPTS = 5;
    }

    /** What the webhook decided, or what the fail mode decided for it. */
    public record Decision(Outcome outcome, String reason, String correlationId, int requests) {
        public boolean approved() {
            return outcome == Outcome.APPROVED || outcome == Outcome.FAILED_OPEN;
        }
    }

    public enum Outcome {
        APPROVED,
        REJECTED,
        /** No decision came and the fail mode is open: the apply goes on. */
        FAILED_OPEN,
        /** No decision came and the fail mode is closed: the apply stops. */
        FAILED_CLOSED
    }

    private final Settings settings;
    private final HttpClient client;
    private final Sleeper sleeper;
    private final Clock clock;

    public ApprovalWebhook(Settings settings) {
        this(settings, Sleeper.SYSTEM, Clock.systemUTC());
    }

    ApprovalWebhook(Settings settings, Sleeper sleeper, Clock clock) {
        this.settings = settings;
        this.sleeper = sleeper;
        this.clock = clock;
        this.client = HttpClient.newBuilder()
                .connectTimeout(min(settings.timeout(), Duration.ofSeconds(10)))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    static CircuitBreaker breaker(URI address) {
        return BREAKERS.computeIfAbsent(
                address,
                a -> CircuitBreaker.of(
                        "approval " + a,
                        CircuitBreakerConfig.custom()
                                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                                .slidingWindowSize(4)
                                .minimumNumberOfCalls(4)
                                .failureRateThreshold(75)
                                .waitDurationInOpenState(Duration.ofSeconds(30))
                                .build()));
    }

    /** Asks for a decision on {@code plan} (Terraform's plan JSON) about to be applied in {@code workspace}. */
    public Decision decide(ObjectNode plan, String workspace) {
        String id = UUID.randomUUID().toString();
        ObjectNode body = JSON.createObjectNode();
        body.put("correlation_id", id);
        body.put("workspace", workspace);
        body.set("plan", plan);
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            return unavailable(id, 0, "the plan could not be encoded: " + e.getMessage());
        }
        Instant deadline = clock.instant().plus(settings.timeout());
        CircuitBreaker breaker = breaker(settings.address());
        int[] requests = {0};
        String[] lastFailure = {null};
        Retry retry = Retry.of(
                "approval",
                RetryConfig.<Attempt>custom()
                        .maxAttempts(Math.max(1, settings.attempts()))
                        .retryOnResult(a -> a instanceof Attempt.Retryable)
                        .intervalFunction(io.github.resilience4j.core.IntervalFunction.ofExponentialBackoff(
                                Duration.ofMillis(500), 2.0, Duration.ofSeconds(10)))
                        .build());
        Attempt last = Retrying.call(
                retry,
                sleeper,
                () -> {
                    Attempt a = attempt(breaker, bytes, id, deadline, requests, lastFailure[0]);
                    if (a instanceof Attempt.Retryable r) {
                        lastFailure[0] = r.why();
                    }
                    return a;
                },
                (n, result, wait) -> clock.instant().plus(wait).isBefore(deadline));
        Decision d = switch (last) {
            case Attempt.Answered a -> new Decision(a.outcome(), a.reason(), id, requests[0]);
            case Attempt.Retryable r -> unavailable(id, requests[0], r.why());
            case Attempt.Failed f -> unavailable(id, requests[0], f.why());
        };
        LOG.info(
                "approval webhook {} (correlation id {}): {} after {} request(s){}",
                settings.address(),
                id,
                d.outcome(),
                d.requests(),
                d.reason() == null ? "" : ": " + d.reason());
        return d;
    }

    private Decision unavailable(String id, int requests, String why) {
        return new Decision(settings.failOpen() ? Outcome.FAILED_OPEN : Outcome.FAILED_CLOSED, why, id, requests);
    }

    private sealed interface Attempt {
        record Answered(Outcome outcome, String reason) implements Attempt {}

        record Retryable(String why) implements Attempt {}

        record Failed(String why) implements Attempt {}
    }

    private Attempt attempt(
            CircuitBreaker breaker, byte[] body, String id, Instant deadline, int[] requests, String lastFailure) {
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.isNegative() || left.isZero()) {
            return new Attempt.Failed("no decision within " + human(settings.timeout()));
        }
        if (!breaker.tryAcquirePermission()) {
            return new Attempt.Failed((lastFailure == null ? "the approval service kept failing" : lastFailure)
                    + "; after repeated failures it is not called for now (circuit open)");
        }
        long started = breaker.getCurrentTimestamp();
        requests[0]++;
        HttpRequest request = HttpRequest.newBuilder(settings.address())
                .timeout(left)
                .header("Content-Type", "application/json")
                .header("X-Strata-Correlation-Id", id)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            breaker.onError(breaker.getCurrentTimestamp() - started, breaker.getTimestampUnit(), e);
            return new Attempt.Failed("no decision within " + human(settings.timeout()));
        } catch (IOException e) {
            breaker.onError(breaker.getCurrentTimestamp() - started, breaker.getTimestampUnit(), e);
            return new Attempt.Retryable("the approval service could not be reached: " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            breaker.releasePermission();
            return new Attempt.Failed("interrupted while waiting for the approval service");
        }
        long took = breaker.getCurrentTimestamp() - started;
        int status = response.statusCode();
        if (status == 429 || status >= 500) {
            breaker.onError(took, breaker.getTimestampUnit(), new IOException("HTTP " + status));
            return new Attempt.Retryable("the approval service answered HTTP " + status);
        }
        if (status < 200 || status > 299) {
            breaker.onSuccess(took, breaker.getTimestampUnit());
            return new Attempt.Failed("the approval service answered HTTP " + status);
        }
        breaker.onSuccess(took, breaker.getTimestampUnit());
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            return new Attempt.Failed("the approval service's answer is not JSON");
        }
        String result = answer == null ? "" : answer.path("result").asText("");
        String reason = answer == null || !answer.hasNonNull("reason")
                ? null
                : answer.get("reason").asText();
        return switch (result) {
            case "APPROVED" -> new Attempt.Answered(Outcome.APPROVED, reason);
            case "REJECTED" -> new Attempt.Answered(Outcome.REJECTED, reason == null ? "no reason given" : reason);
            default -> new Attempt.Failed("the approval service's answer has no \"result\" of APPROVED or REJECTED");
        };
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        if (e instanceof java.net.ConnectException) {
            return "connection refused";
        }
        return m == null || m.isBlank() ? "connection failed" : m;
    }

    private static String human(Duration d) {
        if (d.toMillis() < 1000) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        return s < 60 || s % 60 != 0 ? s + "s" : (s / 60) + "m";
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Forgets every breaker's state; for tests that stand for separate processes. */
    static void resetBreakers() {
        BREAKERS.clear();
    }
}
