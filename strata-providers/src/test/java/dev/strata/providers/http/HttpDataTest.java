package dev.strata.providers.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Failure;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderRegistry;
import dev.strata.provider.testkit.ProviderTester;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpDataTest {

    private HttpServer server;
    private String base;
    private final AtomicInteger flaky = new AtomicInteger();
    private final List<String> seen = new ArrayList<>();
    private final List<Duration> slept = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/text", ex -> {
            seen.add(ex.getRequestMethod() + " " + ex.getRequestHeaders().getFirst("X-Token") + " "
                    + new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "hello ✓".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
            ex.getResponseHeaders().add("x-multi", "a");
            ex.getResponseHeaders().add("x-multi", "b");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/missing", ex -> {
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        server.createContext("/binary", ex -> {
            ex.getResponseHeaders().add("Content-Type", "application/octet-stream");
            ex.sendResponseHeaders(200, 3);
            ex.getResponseBody().write(new byte[] {1, 2, 3});
            ex.close();
        });
        server.createContext("/flaky", ex -> {
            int n = flaky.incrementAndGet();
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(n < 3 ? 503 : 200, n < 3 ? -1 : body.length);
            if (n >= 3) {
                ex.getResponseBody().write(body);
            }
            ex.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ProviderTester tester() {
        return ProviderTester.configure(new HttpProvider(slept::add));
    }

    @Test
    void registered() {
        assertThat(ProviderRegistry.load()
                        .resolve(
                                Provider.hashicorp("http"),
                                VersionConstraint.parse("~> 3.4").value())
                        .hasErrors())
                .isFalse();
    }

    @Test
    void getsBodyStatusAndHeaders() {
        Value v = tester().readData(
                        "http",
                        Map.of(
                                "url",
                                Value.string(base + "/text"),
                                "request_headers",
                                Value.map(Type.STRING, Map.of("X-Token", Value.string("t1")))));
        assertThat(v.attributes().get("response_body")).isEqualTo(Value.string("hello ✓"));
        assertThat(v.attributes().get("body")).isEqualTo(Value.string("hello ✓"));
        assertThat(v.attributes().get("response_body_base64").asString())
                .isEqualTo(java.util.Base64.getEncoder().encodeToString("hello ✓".getBytes(StandardCharsets.UTF_8)));
        assertThat(v.attributes().get("status_code")).isEqualTo(Value.number(200));
        assertThat(v.attributes().get("id")).isEqualTo(Value.string(base + "/text"));
        Map<String, Value> h = v.attributes().get("response_headers").attributes();
        assertThat(h.get("Content-Type")).isEqualTo(Value.string("text/plain; charset=utf-8"));
        assertThat(h.get("X-Multi")).isEqualTo(Value.string("a, b"));
        assertThat(seen).containsExactly("GET t1 ");
    }

    @Test
    void postsTheBody() {
        tester().readData(
                        "http",
                        Map.of(
                                "url",
                                Value.string(base + "/text"),
                                "method",
                                Value.string("POST"),
                                "request_body",
                                Value.string("{\"q\":1}")));
        assertThat(seen).containsExactly("POST null {\"q\":1}");
    }

    @Test
    void non2xxIsNotAnError() {
        Value v = tester().readData("http", Map.of("url", Value.string(base + "/missing")));
        assertThat(v.attributes().get("status_code")).isEqualTo(Value.number(404));
        assertThat(v.attributes().get("response_body")).isEqualTo(Value.string(""));
    }

    @Test
    void binaryContentWarns() {
        var r = tester().tryReadData("http", Map.of("url", Value.string(base + "/binary")));
        assertThat(r.diagnostics().hasErrors()).isFalse();
        assertThat(r.diagnostics().asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Content-Type is not recognized as a text type, got \"application/octet-stream\"");
        assertThat(r.state().attributes().get("response_body_base64")).isEqualTo(Value.string("AQID"));
    }

    @Test
    void retriesServerErrorsWithBackoff() {
        Value v = tester().readData(
                        "http",
                        Map.of(
                                "url",
                                Value.string(base + "/flaky"),
                                "retry",
                                Value.objectOf(
                                        "attempts",
                                        Value.number(3),
                                        "min_delay_ms",
                                        Value.number(100),
                                        "max_delay_ms",
                                        Value.number(150))));
        assertThat(v.attributes().get("status_code")).isEqualTo(Value.number(200));
        assertThat(flaky.get()).isEqualTo(3);
        assertThat(slept).containsExactly(Duration.ofMillis(100), Duration.ofMillis(150));
    }

    @Test
    void withoutRetryAServerErrorIsReturned() {
        Value v = tester().readData("http", Map.of("url", Value.string(base + "/flaky")));
        assertThat(v.attributes().get("status_code")).isEqualTo(Value.number(503));
        assertThat(slept).isEmpty();
    }

    @Test
    void aRefusedConnectionIsRetriedAsTheRetryBlockSaysThenFailsPermanentlyNamingTheEndpoint() {
        server.stop(0);
        var r = tester().tryReadData(
                        "http",
                        Map.of(
                                "url",
                                Value.string(base + "/text?token=abc"),
                                "retry",
                                Value.objectOf(
                                        "attempts",
                                        Value.number(1),
                                        "min_delay_ms",
                                        Value.number(10),
                                        "max_delay_ms",
                                        Value.number(10))));
        assertThat(r.diagnostics().asList())
                .extracting(ProviderDiagnostic::summary)
                .containsExactly("Error making request");
        // Not transient: the engine must not spend its throttling budget on an endpoint that is down.
        assertThat(r.diagnostics().failure()).containsInstanceOf(Failure.Permanent.class);
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("The GET request failed after 2 attempts: could not connect to " + base
                        + ": connection refused.")
                .doesNotContain("token");
        assertThat(slept).containsExactly(Duration.ofMillis(10));
    }

    @Test
    void aHostNameThatDoesNotResolveIsNotRetried() {
        var r = tester().tryReadData(
                        "http",
                        Map.of(
                                "url",
                                Value.string("http://strata-test.invalid/x"),
                                "retry",
                                Value.objectOf(
                                        "attempts",
                                        Value.number(3),
                                        "min_delay_ms",
                                        Value.number(10),
                                        "max_delay_ms",
                                        Value.number(10))));
        assertThat(r.diagnostics().failure()).containsInstanceOf(Failure.Permanent.class);
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo(
                        "The GET request failed: could not connect to http://strata-test.invalid: host name not found (DNS lookup failed).");
        assertThat(slept).isEmpty();
    }

    @Test
    void aTimeoutOfAnEstablishedConnectionStaysTransient() {
        java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
        server.createContext("/slow", ex -> {
            try {
                answer.await(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        var r = tester().tryReadData(
                        "http", Map.of("url", Value.string(base + "/slow"), "request_timeout_ms", Value.number(200)));
        answer.countDown();
        assertThat(r.diagnostics().failure()).containsInstanceOf(Failure.Transient.class);
        assertThat(r.diagnostics().asList().getFirst().detail())
                .isEqualTo("The GET request to " + base + " failed: request timed out.");
    }

    @Test
    void invalidConfigurations() {
        assertThat(tester().validateDataSource("http", Map.of("url", Value.string(base), "method", Value.string("PUT")))
                        .hasErrors())
                .isTrue();
        assertThat(tester().validateDataSource(
                                "http",
                                Map.of(
                                        "url",
                                        Value.string(base),
                                        "insecure",
                                        Value.TRUE,
                                        "ca_cert_pem",
                                        Value.string("x")))
                        .hasErrors())
                .isTrue();
        assertThat(tester().validateDataSource(
                                "http", Map.of("url", Value.string(base), "client_cert_pem", Value.string("x")))
                        .hasErrors())
                .isTrue();
        var bad = tester().tryReadData("http", Map.of("url", Value.string("ftp://example.invalid/x")));
        assertThat(bad.diagnostics().hasErrors()).isTrue();
    }

    @Test
    void headerKeysAreCanonical() {
        assertThat(HttpData.canonical("content-type")).isEqualTo("Content-Type");
        assertThat(HttpData.canonical("X-MULTI-value")).isEqualTo("X-Multi-Value");
    }
}
