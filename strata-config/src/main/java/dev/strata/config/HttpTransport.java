package dev.strata.config;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The HTTP requests of module installation: GETs that follow redirects, with an optional bearer
 * token, failing with a {@link FetchException} that names the URL and the reason (the OS's for
 * connection problems), as Terraform's {@code Get "URL": reason}.
 *
 * <p>Transient failures (a 5xx answer but 501, 429, a reset or refused connection, a timeout) are tried
 * again, {@value #ATTEMPTS} attempts in all with a doubling wait, as Terraform's registry client retries;
 * the last attempt's failure is reported with the number of attempts. A name that does not resolve or a
 * TLS failure is not retried. Servers are trusted by the JVM's CA certificates, or, as Go programs on
 * Linux do, by the PEM bundle {@code SSL_CERT_FILE} names instead.
 */
final class HttpTransport {
    static final int ATTEMPTS = 3;
    private static final java.time.Duration FIRST_WAIT = java.time.Duration.ofMillis(250);

    private final RemoteAccess access;
    private final dev.strata.resilience.Sleeper sleeper;
    /** Built on the first request: most inits fetch nothing, and an HTTP client sets up TLS when built. */
    private Client client;

    /** The client, and why the CA bundle of {@code SSL_CERT_FILE} cannot be used (null when it can or there is none). */
    private record Client(HttpClient http, String trustProblem) {}

    HttpTransport(RemoteAccess access) {
        this(access, dev.strata.resilience.Sleeper.SYSTEM);
    }

    HttpTransport(RemoteAccess access, dev.strata.resilience.Sleeper sleeper) {
        this.access = access;
        this.sleeper = sleeper;
    }

    private synchronized Client client() {
        if (client == null) {
            client = newClient(access);
        }
        return client;
    }

    private static Client newClient(RemoteAccess access) {
        HttpClient.Builder b = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(access.timeout());
        String bundle = access.env().get("SSL_CERT_FILE");
        String problem = null;
        if (bundle != null && !bundle.isBlank()) {
            try {
                b.sslContext(CaBundle.context(Path.of(bundle)));
            } catch (IOException e) {
                problem = "the CA certificates of SSL_CERT_FILE cannot be used: "
                        + dev.strata.hcl.IoProblems.describe(Path.of(bundle), e);
            } catch (java.security.GeneralSecurityException e) {
                problem = "the CA certificates of SSL_CERT_FILE (" + bundle + ") cannot be used: " + e.getMessage();
            }
        }
        return new Client(b.build(), problem);
    }

    RemoteAccess access() {
        return access;
    }

    /** A GET whose body is read as text; {@code token} is sent as {@code Authorization: Bearer}. */
    HttpResponse<String> getText(URI url, Optional<String> token) throws FetchException {
        return send(url, token, HttpResponse.BodyHandlers.ofString());
    }

    /** A GET whose body is written to {@code file}; any status is returned, the caller judges it. */
    HttpResponse<Path> download(URI url, Path file) throws FetchException {
        return send(url, Optional.empty(), HttpResponse.BodyHandlers.ofFile(file));
    }

    /** One attempt's outcome: an answer, or the failure of the exchange. */
    private sealed interface Attempt<T> {
        record Answered<T>(HttpResponse<T> response) implements Attempt<T> {}

        record Failed<T>(IOException failure) implements Attempt<T> {}
    }

    private <T> HttpResponse<T> send(URI url, Optional<String> token, HttpResponse.BodyHandler<T> body)
            throws FetchException {
        Client c = client();
        if (c.trustProblem() != null && "https".equalsIgnoreCase(url.getScheme())) {
            throw new FetchException("Get \"" + url + "\": " + c.trustProblem());
        }
        HttpRequest.Builder req = HttpRequest.newBuilder(url)
                .timeout(access.timeout())
                .header("User-Agent", "Strata")
                .GET();
        token.ifPresent(t -> req.header("Authorization", "Bearer " + t));
        HttpRequest request = req.build();
        int[] attempts = {0};
        io.github.resilience4j.retry.Retry retry = io.github.resilience4j.retry.Retry.of(
                "module-install",
                io.github.resilience4j.retry.RetryConfig.<Attempt<T>>custom()
                        .maxAttempts(ATTEMPTS)
                        .retryOnResult(HttpTransport::isTransient)
                        .intervalFunction(
                                io.github.resilience4j.core.IntervalFunction.ofExponentialBackoff(FIRST_WAIT, 2.0))
                        .build());
        Attempt<T> last = dev.strata.resilience.Retrying.call(
                retry,
                sleeper,
                () -> {
                    attempts[0]++;
                    try {
                        return new Attempt.Answered<>(c.http().send(request, body));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return new Attempt.Failed<>(new java.io.InterruptedIOException("interrupted"));
                    } catch (IOException e) {
                        return new Attempt.Failed<>(e);
                    }
                },
                dev.strata.resilience.Retrying.Listener.always());
        String tries = attempts[0] > 1 ? " (giving up after " + attempts[0] + " attempts)" : "";
        return switch (last) {
            case Attempt.Answered<T> a -> {
                if (attempts[0] > 1 && isTransient(last)) {
                    throw new FetchException("Get \"" + url + "\": bad response code: "
                            + a.response().statusCode() + tries);
                }
                yield a.response();
            }
            case Attempt.Failed<T> f -> {
                if (f.failure() instanceof java.io.InterruptedIOException
                        && Thread.currentThread().isInterrupted()) {
                    throw new FetchException("Get \"" + url + "\": interrupted");
                }
                throw new FetchException("Get \"" + url + "\": " + reason(f.failure()) + tries);
            }
        };
    }

    /** Whether an attempt failed in a way another attempt may not: server trouble or a lost connection. */
    private static boolean isTransient(Attempt<?> a) {
        return switch (a) {
            case Attempt.Answered<?> r -> {
                int s = r.response().statusCode();
                yield s == 429 || s / 100 == 5 && s != 501;
            }
            case Attempt.Failed<?> f -> {
                if (Thread.currentThread().isInterrupted()) {
                    yield false;
                }
                for (Throwable t = f.failure(); t != null; t = t.getCause()) {
                    if (t instanceof UnknownHostException || t instanceof javax.net.ssl.SSLException) {
                        yield false;
                    }
                }
                yield true;
            }
        };
    }

    /** The reason of a failed request, as the OS or the network stack put it. */
    static String reason(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "connection timed out";
        }
        if (e instanceof HttpTimeoutException) {
            return "request timed out";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnknownHostException) {
                return "lookup " + (t.getMessage() == null ? "of the host" : t.getMessage()) + ": no such host";
            }
            if (t instanceof ConnectException
                    && t.getMessage() != null
                    && !t.getMessage().isBlank()) {
                return "connect: " + t.getMessage().toLowerCase(java.util.Locale.ROOT);
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return e instanceof ConnectException ? "connect: connection refused" : "the request failed";
    }
}
