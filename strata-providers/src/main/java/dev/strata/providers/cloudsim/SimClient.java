package dev.strata.providers.cloudsim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.provider.ConnectionFailure;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.resilience.Retrying;
import dev.strata.resilience.Sleeper;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulator's API with the retry rules a cloud client needs: 5xx, 504 and errors of established
 * connections back off exponentially, up to {@code maxRetries} times. A 429 is not retried here: it goes
 * straight back to the engine as a transient failure carrying the server's exact retry-after, so the
 * engine's limiter sees the throttling and lowers the concurrency and pace of all calls to this
 * provider (a client that slept and retried on its own would hide it, and idle a whole call slot for
 * each throttled request). What fails becomes a diagnostic classified transient (the engine may retry
 * the whole operation later) or permanent (4xx: retrying cannot help).
 */
final class SimClient {

    private static final Logger LOG = LoggerFactory.getLogger(SimClient.class);
    /** The pause before the one retry of a refused connection. */
    static final Duration CONNECT_RETRY_PAUSE = Duration.ofMillis(250);

    /** The first pause before retrying a server error or a broken connection; it doubles with each attempt. */
    static final Duration BACKOFF = Duration.ofMillis(200);

    /**
     * An answer; {@code visibleInMs} is the simulator's {@code X-Visible-In-Ms} of a create (how long until
     * reads show the new object), -1 when absent.
     */
    record Response(int status, JsonNode body, long visibleInMs) {
        String message() {
            return body.path("error").path("message").asText("HTTP " + status);
        }

        String code() {
            return body.path("error").path("code").asText("");
        }
    }

    // Apache HttpCore 5's classic (blocking) requester on a pool of kept-alive connections: each request runs
    // on its caller's (virtual) thread, without the JDK client's asynchronous hand-offs between threads,
    // which cost more CPU per request than the create they carried.
    private final SimTransport http;
    private final String endpoint;
    private final String clientId;
    final int maxRetries;
    final Duration consistencyTimeout;
    final Sleeper sleeper;
    private final Retry retry;
    private final Retry reconnect;

    SimClient(String endpoint, String clientId, int maxRetries, Duration consistencyTimeout, Sleeper sleeper) {
        this.endpoint = endpoint.replaceAll("/+$", "");
        this.http = new SimTransport(this.endpoint, CONNECT_TIMEOUT, REQUEST_TIMEOUT);
        this.clientId = clientId;
        this.maxRetries = maxRetries;
        this.consistencyTimeout = consistencyTimeout;
        this.sleeper = sleeper;
        this.retry = Retry.of(
                "cloudsim requests",
                RetryConfig.<Outcome>custom()
                        .maxAttempts(maxRetries + 1)
                        .retryOnResult(o -> o instanceof Outcome.ServerError || o instanceof Outcome.Broken)
                        .intervalBiFunction((attempt, o) -> BACKOFF.toMillis() << Math.min(attempt - 1, 20))
                        .failAfterMaxAttempts(false)
                        .build());
        // With max_retries = 0 the provider never waits, here neither.
        this.reconnect = Retry.of(
                "cloudsim connections",
                RetryConfig.<Outcome>custom()
                        .maxAttempts(maxRetries > 0 ? 2 : 1)
                        .retryOnResult(o -> o instanceof Outcome.Unreachable u
                                && u.failure().reason().equals("connection refused"))
                        .intervalBiFunction((attempt, o) -> CONNECT_RETRY_PAUSE.toMillis())
                        .failAfterMaxAttempts(false)
                        .build());
    }

    /** What one request got. */
    private sealed interface Outcome {
        record Answered(Response response) implements Outcome {}

        record Throttled(Duration retryAfter) implements Outcome {}

        record ServerError(int status) implements Outcome {}

        /** An established connection failed (reset, timed out): worth another try. */
        record Broken(String reason) implements Outcome {}

        /** No connection could be made: retrying like a throttle cannot help. */
        record Unreachable(ConnectionFailure failure) implements Outcome {}

        record Interrupted() implements Outcome {}
    }

    /**
     * Sends a request, retrying server errors; returns the final response (which may be a 4xx), or
     * empty with a diagnostic when the request never succeeded (a 429 at once, transient with the
     * server's retry-after). A connection that
     * cannot be made at all (refused, unknown host, no route, TLS handshake) is not retried like a
     * throttle: a refused connection gets one more try after {@link #CONNECT_RETRY_PAUSE} (a listener
     * being restarted refuses for a moment; none with {@code max_retries = 0}), then the request fails with a permanent error naming the
     * endpoint and the reason, so a run against a simulator that is down ends in seconds.
     */
    Optional<Response> send(
            String method, String path, JsonNode body, String idempotencyKey, ProviderDiagnostics.Builder diags) {
        int[] attempts = {0};
        Outcome last = Retrying.call(
                retry,
                sleeper,
                () -> Retrying.call(
                        reconnect,
                        sleeper,
                        () -> exchange(method, path, body, idempotencyKey, ++attempts[0]),
                        (n, o, wait) -> {
                            LOG.debug("cloudsim {} {}: one more try in {} ms", method, path, wait.toMillis());
                            return true;
                        }),
                (n, o, wait) -> {
                    switch (o) {
                        case Outcome.ServerError e ->
                            LOG.debug(
                                    "cloudsim {} {} got {}; retrying in {} ms",
                                    method,
                                    path,
                                    e.status(),
                                    wait.toMillis());
                        default -> LOG.debug("cloudsim {} {}: retrying in {} ms", method, path, wait.toMillis());
                    }
                    return true;
                });
        String failed = switch (last) {
            case Outcome.Answered a -> null;
            case Outcome.Unreachable u -> {
                diags.add(ProviderDiagnostic.error(
                        "Cloud API unreachable",
                        method + " " + path + " failed: "
                                + u.failure().message()
                                + ". Check that the cloud API (the simulator) is running and listening there, "
                                + "or correct the provider's endpoint."));
                yield "";
            }
            // An interrupt while waiting to retry ends the request like one during it.
            case Outcome o when Thread.currentThread().isInterrupted() -> "interrupted";
            case Outcome.Throttled t -> "throttled";
            case Outcome.ServerError e -> "server error " + e.status();
            case Outcome.Broken b -> b.reason();
            case Outcome.Interrupted i -> "interrupted";
        };
        if (failed == null) {
            return Optional.of(((Outcome.Answered) last).response());
        }
        if (!failed.isEmpty()) {
            Optional<Duration> retryAfter =
                    last instanceof Outcome.Throttled t ? Optional.of(t.retryAfter()) : Optional.empty();
            diags.add(ProviderDiagnostic.transientError(
                    "Cloud API request failed",
                    method + " " + path + " to " + endpoint + " did not succeed after " + attempts[0]
                            + (attempts[0] == 1 ? " attempt" : " attempts") + " (last: " + failed + ").",
                    new Failure.Transient(retryAfter)));
        }
        return Optional.empty();
    }

    /** One request and what came of it. */
    private Outcome exchange(String method, String path, JsonNode body, String idempotencyKey, int attempt) {
        long started = System.nanoTime();
        try {
            // Bytes, not a String: Jackson reads UTF-8 itself, one decoding and one copy fewer.
            byte[] payload = body == null ? null : SimJson.write(body);
            SimTransport.Reply r = http.exchange(method, path, payload, clientId, idempotencyKey);
            if (LOG.isDebugEnabled()) {
                LOG.debug(
                        "cloudsim {} {} -> {} in {} ms ({} bytes, attempt {})",
                        method,
                        path,
                        r.status(),
                        millisSince(started),
                        r.body().length,
                        attempt);
            }
            if (r.status() == 429) {
                return new Outcome.Throttled(retryAfter(r));
            }
            if (r.status() >= 500) {
                return new Outcome.ServerError(r.status());
            }
            return new Outcome.Answered(new Response(r.status(), SimJson.read(r.body()), visibleInMs(r)));
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted()) {
                // A virtual thread's blocking socket is closed by its interrupt.
                return new Outcome.Interrupted();
            }
            Optional<ConnectionFailure> unreachable = ConnectionFailure.of(endpoint, e);
            if (unreachable.isPresent()) {
                LOG.debug(
                        "cloudsim {} {}: {} after {} ms",
                        method,
                        path,
                        unreachable.get().message(),
                        millisSince(started));
                return new Outcome.Unreachable(unreachable.get());
            }
            String reason = SimTransport.describe(e);
            LOG.debug("cloudsim {} {} failed after {} ms: {}", method, path, millisSince(started), reason);
            return new Outcome.Broken(reason);
        }
    }

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    /** Closes the idle connections. */
    void close() {
        http.close();
    }

    /** The simulator's {@code X-Visible-In-Ms} of a create's answer; -1 when absent or not a number. */
    static long visibleInMs(SimTransport.Reply r) {
        String v = r.header(VISIBLE_IN_MS);
        if (v == null) {
            return -1;
        }
        try {
            return Math.max(0, Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The simulator's header (see {@code CloudSim.VISIBLE_IN_MS}; the provider does not depend on the simulator's module). */
    static final String VISIBLE_IN_MS = "X-Visible-In-Ms";

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /**
     * How long the server asked to wait: the simulator's exact {@code X-Retry-After-Ms}, else
     * {@code Retry-After} in seconds, else one second.
     */
    static Duration retryAfter(SimTransport.Reply r) {
        try {
            String ms = r.header("X-Retry-After-Ms");
            if (ms != null) {
                return Duration.ofMillis(Math.max(0, Long.parseLong(ms.trim())));
            }
            String s = r.header("Retry-After");
            return Duration.ofSeconds(Math.max(0, s == null ? 1L : Long.parseLong(s.trim())));
        } catch (NumberFormatException e) {
            // An HTTP-date or garbage: wait the usual second.
            return Duration.ofSeconds(1);
        }
    }

    static ProviderDiagnostic permanent(String summary, Response r) {
        return ProviderDiagnostic.error(summary, r.message() + (r.code().isEmpty() ? "" : " (" + r.code() + ")"));
    }
}
