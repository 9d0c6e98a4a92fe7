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
 */
final class HttpTransport {
    private final HttpClient client;
    private final RemoteAccess access;

    HttpTransport(RemoteAccess access) {
        this.access = access;
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(access.timeout())
                .build();
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

    private <T> HttpResponse<T> send(URI url, Optional<String> token, HttpResponse.BodyHandler<T> body)
            throws FetchException {
        HttpRequest.Builder req = HttpRequest.newBuilder(url)
                .timeout(access.timeout())
                .header("User-Agent", "Strata")
                .GET();
        token.ifPresent(t -> req.header("Authorization", "Bearer " + t));
        try {
            return client.send(req.build(), body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FetchException("Get \"" + url + "\": interrupted");
        } catch (IOException e) {
            throw new FetchException("Get \"" + url + "\": " + reason(e));
        }
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
