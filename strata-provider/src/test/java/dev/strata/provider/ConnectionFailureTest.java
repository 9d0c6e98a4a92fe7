package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class ConnectionFailureTest {

    /** A loopback port nothing listens on: bound, then closed. */
    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static IOException send(String url) throws InterruptedException {
        try {
            HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            return e;
        }
        throw new AssertionError("the request to " + url + " should have failed");
    }

    @Test
    void aRealRefusedConnectionIsRecognisedThoughTheJdkGivesItNoMessage() throws Exception {
        String endpoint = "http://127.0.0.1:" + closedPort();
        IOException e = send(endpoint + "/x");
        assertThat(ConnectionFailure.of(endpoint, e)).contains(new ConnectionFailure(endpoint, "connection refused"));
        assertThat(ConnectionFailure.of(endpoint, e).orElseThrow().message())
                .isEqualTo("could not connect to " + endpoint + ": connection refused");
    }

    @Test
    void eachWayAConnectionCannotBeMadeHasItsReason() {
        assertThat(ConnectionFailure.reason(new UnknownHostException("db.example")))
                .contains("host name not found (DNS lookup failed)");
        ConnectException unresolved = new ConnectException();
        unresolved.initCause(new UnresolvedAddressException());
        assertThat(ConnectionFailure.reason(unresolved)).contains("host name not found (DNS lookup failed)");
        assertThat(ConnectionFailure.reason(new NoRouteToHostException("No route to host")))
                .contains("no route to host");
        assertThat(ConnectionFailure.reason(new ConnectException("Connection refused")))
                .contains("connection refused");
        assertThat(ConnectionFailure.reason(new ConnectException("Connection timed out")))
                .contains("connection timed out");
        assertThat(ConnectionFailure.reason(new HttpConnectTimeoutException("HTTP connect timed out")))
                .contains("connection timed out");
        assertThat(ConnectionFailure.reason(new IOException(
                        "wrapped",
                        new SSLHandshakeException(
                                "PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid "
                                        + "certification path to requested target"))))
                .contains(
                        "TLS handshake failed: the server's certificate is not trusted (no valid certification path to a trusted CA)");
        assertThat(ConnectionFailure.reason(new SSLHandshakeException("Remote host terminated the handshake")))
                .contains("TLS handshake failed: Remote host terminated the handshake");
        // What java.net.http says when an https:// endpoint speaks plain HTTP.
        assertThat(ConnectionFailure.reason(
                        new javax.net.ssl.SSLException("Unrecognized SSL message, plaintext connection?")))
                .contains("TLS handshake failed: Unrecognized SSL message, plaintext connection?");
        assertThat(ConnectionFailure.reason(new javax.net.ssl.SSLException("Connection reset")))
                .isEmpty();
        assertThat(ConnectionFailure.describe(new javax.net.ssl.SSLException("Connection reset")))
                .isEqualTo("connection reset by the server");
    }

    @Test
    void failuresOfAnEstablishedConnectionAreNotConnectionFailures() {
        assertThat(ConnectionFailure.reason(new HttpTimeoutException("request timed out")))
                .isEmpty();
        assertThat(ConnectionFailure.reason(new SocketException("Connection reset")))
                .isEmpty();
        assertThat(ConnectionFailure.reason(new EOFException())).isEmpty();
        assertThat(ConnectionFailure.describe(new HttpTimeoutException("request timed out")))
                .isEqualTo("request timed out");
        assertThat(ConnectionFailure.describe(new SocketException("Connection reset")))
                .isEqualTo("connection reset by the server");
        assertThat(ConnectionFailure.describe(new IOException("HTTP/1.1 header parser received no bytes")))
                .isEqualTo("the connection was closed before a response arrived");
    }

    @Test
    void messagesNeverNameJavaClasses() {
        assertThat(ConnectionFailure.describe(new IOException("java.security.cert.CertificateException: bad thing.")))
                .isEqualTo("bad thing");
        assertThat(ConnectionFailure.describe(new IOException())).isEqualTo("input/output error");
        assertThat(ConnectionFailure.describe(new ConnectException()))
                .isEqualTo("the connection could not be established");
    }
}
