package dev.strata.providers.cloudsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.provider.ConnectionFailure;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cloudsim provider's blocking HTTP/1.1 client against a raw socket server that answers as a test says. */
class SimHttpTest {

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

    private static SimHttp client(String endpoint) {
        return new SimHttp(endpoint, Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void requestsInTurnShareOneKeptAliveConnection() throws IOException {
        String url = serve(r -> ok("{\"n\":" + requests.size() + "}"));
        try (SimHttp http = client(url)) {
            for (int i = 1; i <= 5; i++) {
                SimHttp.Reply r = http.exchange(
                        "POST", "/v1/buckets", "{\"name\":\"b\"}".getBytes(StandardCharsets.UTF_8), "X-Client-Id", "c");
                assertThat(r.status()).isEqualTo(200);
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":" + i + "}");
                assertThat(r.header("x-visible-in-ms")).isEqualTo("7");
            }
            assertThat(connections).hasValue(1);
            assertThat(http.idleConnections()).isEqualTo(1);
        }
        // The endpoint's own path prefixes the request's; the body goes with its length.
        assertThat(requests.getFirst())
                .startsWith("POST /api/v1/buckets HTTP/1.1\r\n")
                .contains("Host: 127.0.0.1:" + server.getLocalPort() + "\r\n")
                .contains("Content-Length: 12\r\n")
                .contains("X-Client-Id: c\r\n")
                .endsWith("\r\n\r\n{\"name\":\"b\"}");
    }

    @Test
    void concurrentRequestsOpenConnectionsAsNeededAndPoolThem() throws Exception {
        String url = serve(r -> ok("{}"));
        try (SimHttp http = client(url)) {
            List<Thread> threads = new java.util.ArrayList<>();
            AtomicInteger answered = new AtomicInteger();
            for (int i = 0; i < 20; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        for (int j = 0; j < 10; j++) {
                            if (http.exchange("GET", "/v1/x", null).status() == 200) {
                                answered.incrementAndGet();
                            }
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(answered).hasValue(200);
            assertThat(connections.get()).isBetween(1, 20);
            assertThat(http.idleConnections()).isEqualTo(connections.get());
        }
    }

    @Test
    void aChunkedAnswerIsReassembled() throws IOException {
        String url = serve(r -> new Answer(
                "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\n{\"a\"\r\n5\r\n:\"bc\"\r\n1\r\n}\r\n0\r\n\r\n",
                false));
        try (SimHttp http = client(url)) {
            SimHttp.Reply r = http.exchange("GET", "/v1/x", null);
            assertThat(r.status()).isEqualTo(201);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":\"bc\"}");
            // and the connection stays usable
            assertThat(http.exchange("GET", "/v1/x", null).status()).isEqualTo(201);
            assertThat(connections).hasValue(1);
        }
    }

    @Test
    void aKeptAliveConnectionTheServerClosedIsReplacedAndTheRequestSentAgain() throws IOException {
        // The server drops every connection after one answer, without saying so (as an idle timeout does).
        String url = serve(r -> new Answer(ok("{}").raw(), true));
        try (SimHttp http = client(url)) {
            for (int i = 0; i < 3; i++) {
                assertThat(http.exchange("DELETE", "/v1/x/" + i, null).status()).isEqualTo(200);
            }
        }
        // Each request reached the server exactly once.
        assertThat(requests).hasSize(3);
        assertThat(connections).hasValue(3);
    }

    @Test
    void connectionCloseIsHonouredAndABodyWithoutLengthEndsAtTheClose() throws IOException {
        String url =
                serve(r -> new Answer("HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\noops", true));
        try (SimHttp http = client(url)) {
            SimHttp.Reply r = http.exchange("GET", "/v1/x", null);
            assertThat(r.status()).isEqualTo(500);
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("oops");
            assertThat(http.idleConnections()).isZero();
        }
    }

    @Test
    void anAnswerCutShortIsAnErrorOfTheEstablishedConnection() throws IOException {
        String url = serve(r -> new Answer("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{\"a\"", true));
        try (SimHttp http = client(url)) {
            assertThatThrownBy(() -> http.exchange("GET", "/v1/x", null))
                    .isInstanceOf(IOException.class)
                    .satisfies(e -> assertThat(ConnectionFailure.of(url, e)).isEmpty())
                    .satisfies(e -> assertThat(ConnectionFailure.describe(e))
                            .isEqualTo("the connection was closed before the response was complete"));
            assertThat(http.idleConnections()).isZero();
        }
        // A broken answer on a fresh connection is not sent again.
        assertThat(requests).hasSize(1);
    }

    @Test
    void aRefusedConnectionIsAConnectionFailure() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (SimHttp http = client("http://127.0.0.1:" + port)) {
            assertThatThrownBy(() -> http.exchange("GET", "/v1/x", null))
                    .isInstanceOf(IOException.class)
                    .satisfies(e -> assertThat(ConnectionFailure.of("x", e).map(ConnectionFailure::reason))
                            .contains("connection refused"));
        }
    }
}
