package dev.strata.provider;

import java.io.EOFException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * A connection to a remote endpoint that could not be made, with the reason in words ("connection
 * refused", "host name not found", "TLS handshake failed: ..."). Such a failure is not a throttle:
 * nothing listens there, or the name or the certificate is wrong, and sending the same request again
 * a minute later fails the same way. Providers report it as a permanent failure naming the endpoint,
 * so that a run against a dead endpoint ends in seconds instead of spending the retry budget that is
 * meant for throttling, 5xx responses and timeouts of established connections.
 *
 * @param endpoint where the connection was going (a URL or host:port, never credentials)
 * @param reason   why it failed, in lower-case words without Java names
 */
public record ConnectionFailure(String endpoint, String reason) {

    /** Java's own class names inside messages ("sun.security...Exception: "), which a user must not see. */
    private static final Pattern JAVA_NAME =
            Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z]\\w*(?:Exception|Error):\\s*");

    /**
     * The connection failure that {@code error} (or one of its causes) reports, if it is one: empty for
     * failures of a connection that was established (reset, timeout waiting for a response, closed
     * early), which may well succeed when retried.
     */
    public static Optional<ConnectionFailure> of(String endpoint, Throwable error) {
        return reason(error).map(r -> new ConnectionFailure(endpoint, r));
    }

    /** "could not connect to ENDPOINT: REASON". */
    public String message() {
        return "could not connect to " + endpoint + ": " + reason;
    }

    /** The reason a connection could not be established, or empty when {@code error} is not a connect failure. */
    static Optional<String> reason(Throwable error) {
        boolean connect = false;
        for (Throwable t = error; t != null; t = t.getCause()) {
            switch (t) {
                case UnknownHostException e -> {
                    return Optional.of("host name not found (DNS lookup failed)");
                }
                case UnresolvedAddressException e -> {
                    return Optional.of("host name not found (DNS lookup failed)");
                }
                case NoRouteToHostException e -> {
                    return Optional.of("no route to host");
                }
                case PortUnreachableException e -> {
                    return Optional.of("port unreachable");
                }
                case HttpConnectTimeoutException e -> {
                    return Optional.of("connection timed out");
                }
                case SSLHandshakeException e -> {
                    return Optional.of(tlsReason(e));
                }
                // TLS errors before any response are handshake failures too ("Unrecognized SSL message,
                // plaintext connection?"); a reset or close of the encrypted stream is not.
                case SSLException e
                when !lower(e.getMessage()).contains("reset")
                        && !lower(e.getMessage()).contains("closed") -> {
                    return Optional.of(tlsReason(e));
                }
                case ConnectException e -> {
                    String m = lower(e.getMessage());
                    if (m.contains("timed out")) {
                        return Optional.of("connection timed out");
                    }
                    if (m.contains("refused")) {
                        return Optional.of("connection refused");
                    }
                    connect = true;
                }
                case SocketTimeoutException e
                when lower(e.getMessage()).contains("connect") -> {
                    return Optional.of("connection timed out");
                }
                case ClosedChannelException e -> {
                    if (connect) {
                        // java.net.http reports a refused connection as a ConnectException over a closed channel.
                        return Optional.of("connection refused");
                    }
                }
                default -> {}
            }
        }
        return connect ? Optional.of("the connection could not be established") : Optional.empty();
    }

    /**
     * Any I/O failure in words for a message, without Java names: the connect reason when it is one,
     * otherwise what happened to the established connection.
     */
    public static String describe(Throwable error) {
        Optional<String> connect = reason(error);
        if (connect.isPresent()) {
            return connect.get();
        }
        for (Throwable t = error; t != null; t = t.getCause()) {
            switch (t) {
                case HttpTimeoutException e -> {
                    return "request timed out";
                }
                case SocketTimeoutException e -> {
                    return "timed out waiting for the response";
                }
                case SSLException e -> {
                    return lower(e.getMessage()).contains("reset")
                            ? "connection reset by the server"
                            : "the encrypted connection was closed before the response was complete";
                }
                case EOFException e -> {
                    return "the connection was closed before the response was complete";
                }
                case SocketException e
                when lower(e.getMessage()).contains("reset") -> {
                    return "connection reset by the server";
                }
                case InterruptedIOException e -> {
                    return "interrupted";
                }
                default -> {}
            }
        }
        for (Throwable t = error; t != null; t = t.getCause()) {
            String m = clean(t.getMessage());
            if (!m.isEmpty()) {
                return m.contains("received no bytes") ? "the connection was closed before a response arrived" : m;
            }
        }
        return "input/output error";
    }

    private static String tlsReason(SSLException e) {
        String m = clean(e.getMessage());
        if (m.contains("PKIX path") || m.contains("certification path")) {
            m = "the server's certificate is not trusted (no valid certification path to a trusted CA)";
        }
        return "TLS handshake failed" + (m.isEmpty() ? "" : ": " + m);
    }

    /** A JDK message without class names, trimmed, without a final period (callers add punctuation). */
    static String clean(String message) {
        if (message == null) {
            return "";
        }
        String m = JAVA_NAME.matcher(message).replaceAll("").strip();
        while (m.endsWith(".")) {
            m = m.substring(0, m.length() - 1);
        }
        return m;
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }
}
