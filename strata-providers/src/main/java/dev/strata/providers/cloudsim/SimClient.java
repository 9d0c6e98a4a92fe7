package dev.strata.providers.cloudsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.provider.ConnectionFailure;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulator's API with the retry rules a cloud client needs: 429 waits the server's
 * {@code Retry-After}; 5xx, 504 and errors of established connections back off exponentially; each up to
 * {@code maxRetries} times (none after the last attempt, so with {@code max_retries = 0} a 429 goes
 * straight back to the engine as a transient failure with the server's retry-after, for the
 * engine's own limiter to act on). What still fails becomes a diagnostic classified transient (the
 * engine may retry the whole operation later) or permanent (4xx: retrying cannot help).
 */
final class SimClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(SimClient.class);
    /** The pause before the one retry of a refused connection. */
    static final Duration CONNECT_RETRY_PAUSE = Duration.ofMillis(250);

    /** Waits between attempts; a seam so that tests can advance a simulated clock instead. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    record Response(int status, JsonNode body) {
        String message() {
            return body.path("error").path("message").asText("HTTP " + status);
        }

        String code() {
            return body.path("error").path("code").asText("");
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String endpoint;
    private final String clientId;
    final int maxRetries;
    final Duration consistencyTimeout;
    final Sleeper sleeper;

    SimClient(String endpoint, String clientId, int maxRetries, Duration consistencyTimeout, Sleeper sleeper) {
        this.endpoint = endpoint.replaceAll("/+$", "");
        this.clientId = clientId;
        this.maxRetries = maxRetries;
        this.consistencyTimeout = consistencyTimeout;
        this.sleeper = sleeper;
    }

    /**
     * Sends a request, retrying throttling and server errors; returns the final response (which
     * may be a 4xx), or empty with a diagnostic when the request never succeeded. A connection that
     * cannot be made at all (refused, unknown host, no route, TLS handshake) is not retried like a
     * throttle: a refused connection gets one more try after {@link #CONNECT_RETRY_PAUSE} (a listener
     * being restarted refuses for a moment; none with {@code max_retries = 0}), then the request fails with a permanent error naming the
     * endpoint and the reason, so a run against a simulator that is down ends in seconds.
     */
    Optional<Response> send(String method, String path, JsonNode body, String idempotencyKey, ProviderDiagnostics.Builder diags) {
        Duration backoff = Duration.ofMillis(200);
        String last = "no response";
        Optional<Duration> retryAfter = Optional.empty();
        boolean connectRetried = false;
        for (int attempt = 0; attempt <= maxRetries; attempt++) {
            long started = System.nanoTime();
            try {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint + path)).timeout(Duration.ofSeconds(60))
                        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                        .header("Content-Type", "application/json");
                if (clientId != null) {
                    b.header("X-Client-Id", clientId);
                }
                if (idempotencyKey != null) {
                    b.header("Idempotency-Key", idempotencyKey);
                }
                HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                LOG.debug("cloudsim {} {} -> {} in {} ms ({} bytes, attempt {})", method, path, r.statusCode(),
                        millisSince(started), r.body().length(), attempt + 1);
                Response resp = new Response(r.statusCode(), r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body()));
                if (r.statusCode() == 429) {
                    Duration wait = retryAfter(r);
                    retryAfter = Optional.of(wait);
                    last = "throttled";
                    if (attempt < maxRetries) {
                        LOG.debug("cloudsim {} {} throttled; retrying in {} ms as the server asked", method, path, wait.toMillis());
                        sleeper.sleep(wait);
                    }
                    continue;
                }
                if (r.statusCode() >= 500) {
                    last = "server error " + r.statusCode();
                    retryAfter = Optional.empty();
                    if (attempt < maxRetries) {
                        LOG.debug("cloudsim {} {} got {}; retrying in {} ms", method, path, r.statusCode(), backoff.toMillis());
                        sleeper.sleep(backoff);
                    }
                    backoff = backoff.multipliedBy(2);
                    continue;
                }
                return Optional.of(resp);
            } catch (IOException e) {
                Optional<ConnectionFailure> unreachable = ConnectionFailure.of(endpoint, e);
                if (unreachable.isPresent()) {
                    ConnectionFailure f = unreachable.get();
                    // With max_retries = 0 the provider never waits, here neither.
                    boolean again = maxRetries > 0 && !connectRetried && f.reason().equals("connection refused");
                    LOG.debug("cloudsim {} {}: {} after {} ms{}", method, path, f.message(), millisSince(started),
                            again ? "; one more try in " + CONNECT_RETRY_PAUSE.toMillis() + " ms" : "; not retried");
                    if (again) {
                        connectRetried = true;
                        attempt--;
                        try {
                            sleeper.sleep(CONNECT_RETRY_PAUSE);
                            continue;
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    diags.add(ProviderDiagnostic.error("Cloud API unreachable", method + " " + path + " failed: "
                            + f.message() + ". Check that the cloud API (the simulator) is running and listening there, "
                            + "or correct the provider's endpoint."));
                    return Optional.empty();
                }
                last = ConnectionFailure.describe(e);
                retryAfter = Optional.empty();
                LOG.debug("cloudsim {} {} failed after {} ms: {}", method, path, millisSince(started), last);
                if (attempt == maxRetries) {
                    break;
                }
                try {
                    sleeper.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
                backoff = backoff.multipliedBy(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                last = "interrupted";
                break;
            }
        }
        diags.add(ProviderDiagnostic.transientError("Cloud API request failed", method + " " + path + " to " + endpoint
                + " did not succeed after " + (maxRetries + 1) + " attempts (last: " + last + ").", new Failure.Transient(retryAfter)));
        return Optional.empty();
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /**
     * How long the server asked to wait: the simulator's exact {@code X-Retry-After-Ms}, else
     * {@code Retry-After} in seconds, else one second.
     */
    static Duration retryAfter(HttpResponse<?> r) {
        try {
            Optional<String> ms = r.headers().firstValue("X-Retry-After-Ms");
            if (ms.isPresent()) {
                return Duration.ofMillis(Math.max(0, Long.parseLong(ms.get().trim())));
            }
            return Duration.ofSeconds(Math.max(0, r.headers().firstValue("Retry-After").map(v -> Long.parseLong(v.trim())).orElse(1L)));
        } catch (NumberFormatException e) {
            // An HTTP-date or garbage: wait the usual second.
            return Duration.ofSeconds(1);
        }
    }

    static ProviderDiagnostic permanent(String summary, Response r) {
        return ProviderDiagnostic.error(summary, r.message() + (r.code().isEmpty() ? "" : " (" + r.code() + ")"));
    }
}
