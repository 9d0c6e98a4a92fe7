package dev.strata.providers.cloudsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.testing.TestCertificates;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.SSLServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cloudsim provider's transport as {@link SimClient} uses it (pooled kept-alive connections, one resend of
 * a request on a connection the server had closed, the failures it reports) against a raw socket server that
 * answers as a test says.
 */
class SimClientTransportTest {

    /** What the server answers to one request: the raw bytes, and whether it then closes the connection. */
    record Answer(String raw, boolean close) {}

    private ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private String serve(Function<String, Answer> answer) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> handle(s, answer));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return "http://127.0.0.1:" + server.getLocalPort() + "/api/";
    }

    private void handle(Socket s, Function<String, Answer> answer) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (true) {
                StringBuilder head = new StringBuilder();
                int ch;
                while ((ch = in.read()) >= 0) {
                    head.append((char) ch);
                    if (head.toString().endsWith("\r\n\r\n")) {
                        break;
                    }
                }
                if (ch < 0) {
                    return;
                }
                int length = 0;
                for (String l : head.toString().split("\r\n")) {
                    if (l.toLowerCase().startsWith("content-length:")) {
                        length = Integer.parseInt(l.substring(15).trim());
                    }
                }
                String request = head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
                requests.add(request);
                Answer a = answer.apply(request);
                out.write(a.raw().getBytes(StandardCharsets.UTF_8));
                out.flush();
                if (a.close()) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private static Answer ok(String body) {
        return new Answer(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Visible-In-Ms: 7\r\nContent-Length: "
                        + body.length() + "\r\n\r\n" + body,
                false);
    }

    /** A client without retries of its own, so that every request the server sees is the transport's. */
    private static SimClient client(String endpoint) {
        return new SimClient(endpoint, "c", 0, Duration.ofSeconds(5), d -> {});
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void requestsInTurnShareOneKeptAliveConnection() throws Exception {
        String url = serve(r -> ok("{\"n\":" + requests.size() + "}"));
        SimClient client = client(url);
        try {
            for (int i = 1; i <= 5; i++) {
                ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
                SimClient.Response r = client.send(
                                "POST", "/v1/buckets", JSON.readTree("{\"name\":\"b\"}"), "k" + i, diags)
                        .orElseThrow();
                assertThat(diags.build().isEmpty()).isTrue();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body().path("n").asInt()).isEqualTo(i);
                assertThat(r.visibleInMs()).isEqualTo(7);
            }
        } finally {
            client.close();
        }
        assertThat(connections).hasValue(1);
        // The endpoint's own path prefixes the request's; the JSON body goes with its length and headers.
        assertThat(requests.getFirst())
                .startsWith("POST /api/v1/buckets HTTP/1.1\r\n")
                .containsIgnoringCase("Host: 127.0.0.1:" + server.getLocalPort() + "\r\n")
                .containsIgnoringCase("Content-Length: 12\r\n")
                .containsIgnoringCase("Content-Type: application/json\r\n")
                .contains("X-Client-Id: c\r\n")
                .contains("Idempotency-Key: k1\r\n")
                .endsWith("\r\n\r\n{\"name\":\"b\"}");
    }

    @Test
    void concurrentRequestsOpenConnectionsAsNeededAndReuseThem() throws Exception {
        String url = serve(r -> ok("{}"));
        SimClient client = client(url);
        AtomicInteger answered = new AtomicInteger();
        try {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    for (int j = 0; j < 10; j++) {
                        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
                        if (client.send("GET", "/v1/x", null, null, diags)
                                        .map(SimClient.Response::status)
                                        .orElse(0)
                                == 200) {
                            answered.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
        } finally {
            client.close();
        }
        assertThat(answered).hasValue(200);
        assertThat(connections.get()).isBetween(1, 20);
    }

    @Test
    void aKeptAliveConnectionTheServerClosedIsReplacedAndTheRequestSentAgainOnce() throws Exception {
        // The server drops every connection after one answer, without saying so (as an idle timeout does).
        String url = serve(r -> new Answer(ok("{}").raw(), true));
        SimClient client = client(url);
        try {
            for (int i = 0; i < 3; i++) {
                ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
                // POST is not idempotent: it is sent again only because it never reached the server.
                assertThat(client.send("POST", "/v1/x", JSON.readTree("{}"), null, diags)
                                .map(SimClient.Response::status))
                        .as(() -> diags.build().toString())
                        .contains(200);
                assertThat(diags.build().isEmpty()).isTrue();
            }
        } finally {
            client.close();
        }
        // Each request reached the server exactly once, each on a connection of its own.
        assertThat(requests).hasSize(3);
        assertThat(connections).hasValue(3);
    }

    @Test
    void anAnswerCutShortIsNotSentAgainAndIsAFailureOfTheEstablishedConnection() throws Exception {
        // The first answer is whole (the connection is then pooled), the second cut short, the third whole.
        AtomicInteger n = new AtomicInteger();
        String url = serve(r -> n.incrementAndGet() == 2
                ? new Answer("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{\"a\"", true)
                : ok("{}"));
        SimClient client = client(url);
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        try {
            assertThat(client.send("POST", "/v1/x", JSON.readTree("{}"), null, ProviderDiagnostics.builder()))
                    .isPresent();
            assertThat(client.send("POST", "/v1/x", JSON.readTree("{}"), null, diags))
                    .isEmpty();
        } finally {
            client.close();
        }
        // The cut answer had started: the request may have been handled, and is not sent again.
        assertThat(requests).hasSize(2);
        List<ProviderDiagnostic> ds = diags.build().asList();
        assertThat(ds).hasSize(1);
        assertThat(ds.getFirst().summary()).isEqualTo("Cloud API request failed");
        assertThat(ds.getFirst().detail())
                .isEqualTo("POST /v1/x to " + url.replaceAll("/+$", "")
                        + " did not succeed after 1 attempt"
                        + " (last: the connection was closed before the response was complete).");
        assertThat(ds.getFirst().failure()).isInstanceOf(Failure.Transient.class);
    }

    @Test
    void aRefusedConnectionIsReportedAsUnreachableWithTheEndpoint() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        SimClient client = client(url);
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        try {
            assertThat(client.send("GET", "/v1/x", null, null, diags)).isEmpty();
        } finally {
            client.close();
        }
        List<ProviderDiagnostic> ds = diags.build().asList();
        assertThat(ds).hasSize(1);
        assertThat(ds.getFirst().summary()).isEqualTo("Cloud API unreachable");
        assertThat(ds.getFirst().detail())
                .isEqualTo("GET /v1/x failed: could not connect to " + url + ": connection refused. Check that the"
                        + " cloud API (the simulator) is running and listening there, or correct the provider's"
                        + " endpoint.");
        assertThat(ds.getFirst().failure()).isEqualTo(Failure.PERMANENT);
    }

    @Test
    void anInterruptEndsARequestWaitingForItsAnswer() throws Exception {
        // The server never answers.
        String url = serve(r -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ok("{}");
        });
        SimClient client = client(url);
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        java.util.concurrent.atomic.AtomicReference<Object> result =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> result.set(client.send("GET", "/v1/x", null, null, diags)));
        while (requests.isEmpty()) {
            Thread.sleep(10);
        }
        t.interrupt();
        t.join(10_000);
        client.close();
        assertThat(t.isAlive()).isFalse();
        assertThat(result.get()).isEqualTo(java.util.Optional.empty());
        assertThat(diags.build().asList().getFirst().detail()).endsWith("(last: interrupted).");
        assertThat(requests).hasSize(1);
    }

    @Test
    void readsWaitForTheReadTimeoutAndNotTheConnectTimeout() throws Exception {
        // Connections are made within the (short) connect timeout; an answer slower than it still arrives.
        String url = serve(r -> {
            try {
                Thread.sleep(700);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ok("{\"slow\":true}");
        });
        try (SimTransport t = new SimTransport(url, Duration.ofMillis(300), Duration.ofSeconds(30))) {
            SimTransport.Reply r = t.exchange("GET", "/v1/x", null, "c", null);
            assertThat(r.status()).isEqualTo(200);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"slow\":true}");
            assertThat(r.header("x-visible-in-ms")).isEqualTo("7");
        }
    }

    @Test
    void anAnswerSlowerThanTheReadTimeoutFailsTheRequest() throws Exception {
        String url = serve(r -> {
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ok("{}");
        });
        try (SimTransport t = new SimTransport(url, Duration.ofSeconds(10), Duration.ofMillis(300))) {
            assertThatThrownBy(() -> t.exchange("GET", "/v1/x", null, "c", null))
                    .isInstanceOf(java.net.SocketTimeoutException.class);
            // Not sent again: the request had reached the server.
            assertThat(requests).hasSize(1);
        }
    }

    @Test
    void anHttpsEndpointWhoseCertificateTheJvmDoesNotTrustIsUnreachable() throws Exception {
        // A server whose certificate a throwaway CA signed: the JVM's trust store does not know it.
        TestCertificates ca = TestCertificates.newAuthority("cloudsim test CA");
        SSLServerSocket tls = (SSLServerSocket) ca.serverContext(ca.server())
                .getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        server = tls;
        Thread.ofVirtual().start(() -> {
            while (!tls.isClosed()) {
                try (Socket s = tls.accept()) {
                    connections.incrementAndGet();
                    s.getInputStream().read();
                } catch (IOException e) {
                    // the handshake failed, as it should
                }
            }
        });
        String url = "https://127.0.0.1:" + tls.getLocalPort();
        SimClient client = client(url);
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        try {
            assertThat(client.send("GET", "/v1/x", null, null, diags)).isEmpty();
        } finally {
            client.close();
        }
        List<ProviderDiagnostic> ds = diags.build().asList();
        assertThat(ds).hasSize(1);
        assertThat(ds.getFirst().summary()).isEqualTo("Cloud API unreachable");
        assertThat(ds.getFirst().detail())
                .startsWith("GET /v1/x failed: could not connect to " + url + ": TLS handshake failed");
        assertThat(ds.getFirst().failure()).isEqualTo(Failure.PERMANENT);
        assertThat(connections.get()).isEqualTo(1);
    }
}
