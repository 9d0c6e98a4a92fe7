package dev.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The approval webhook against a loopback server: approve, reject, time out, flap. */
class ApprovalWebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;
    private final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
    private final List<String> ids = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();

    private URI serve(Function<Integer, Reply> reply) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/approve", (HttpExchange x) -> {
            int n = calls.incrementAndGet();
            bodies.add(JSON.readTree(x.getRequestBody()));
            ids.add(x.getRequestHeaders().getFirst("X-Strata-Correlation-Id"));
            Reply r = reply.apply(n);
            if (r.delay() != null) {
                try {
                    Thread.sleep(r.delay().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] b = r.body().getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(r.status(), b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
                x.getResponseBody().write(b);
            }
            x.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/approve");
    }

    record Reply(int status, String body, Duration delay) {
        static Reply ok(String body) {
            return new Reply(200, body, null);
        }
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static ObjectNode plan() {
        ObjectNode p = JSON.createObjectNode();
        p.put("format_version", "1.2");
        p.putArray("resource_changes").addObject().put("address", "terraform_data.a");
        return p;
    }

    private ApprovalWebhook webhook(URI uri, Duration timeout, boolean failOpen) {
        return new ApprovalWebhook(new ApprovalWebhook.Settings(uri, timeout, 5, failOpen), d -> {}, Clock.systemUTC());
    }

    @Test
    void approvedWithThePlanAndACorrelationId() throws Exception {
        URI uri = serve(n -> Reply.ok("{\"result\": \"APPROVED\", \"reason\": \"change ticket 42\"}"));
        ApprovalWebhook.Decision d = webhook(uri, Duration.ofSeconds(10), false).decide(plan(), "default");
        assertThat(d.outcome()).isEqualTo(ApprovalWebhook.Outcome.APPROVED);
        assertThat(d.reason()).isEqualTo("change ticket 42");
        assertThat(d.approved()).isTrue();
        assertThat(bodies).singleElement().satisfies(b -> {
            assertThat(b.path("correlation_id").asText()).isEqualTo(d.correlationId());
            assertThat(b.at("/plan/resource_changes/0/address").asText()).isEqualTo("terraform_data.a");
            assertThat(b.path("workspace").asText()).isEqualTo("default");
        });
        assertThat(ids).containsExactly(d.correlationId());
    }

    @Test
    void rejectedWithTheReason() throws Exception {
        URI uri = serve(n -> Reply.ok("{\"result\": \"REJECTED\", \"reason\": \"freeze until Monday\"}"));
        ApprovalWebhook.Decision d = webhook(uri, Duration.ofSeconds(10), true).decide(plan(), "default");
        assertThat(d.outcome()).isEqualTo(ApprovalWebhook.Outcome.REJECTED);
        assertThat(d.reason()).isEqualTo("freeze until Monday");
        assertThat(d.approved())
                .as("a rejection is not a failure: fail-open does not apply")
                .isFalse();
    }

    @Test
    void serverErrorsAreRetriedUntilAnAnswer() throws Exception {
        URI uri = serve(n -> n < 3 ? new Reply(503, "", null) : Reply.ok("{\"result\": \"APPROVED\"}"));
        ApprovalWebhook.Decision d = webhook(uri, Duration.ofSeconds(10), false).decide(plan(), "default");
        assertThat(d.outcome()).isEqualTo(ApprovalWebhook.Outcome.APPROVED);
        assertThat(d.requests()).isEqualTo(3);
        assertThat(ids).as("one correlation id for every retry").containsOnly(d.correlationId());
    }

    @Test
    void timeoutFailsClosedOrOpen() throws Exception {
        URI uri = serve(n -> new Reply(200, "{\"result\": \"APPROVED\"}", Duration.ofSeconds(3)));
        ApprovalWebhook.Decision closed =
                webhook(uri, Duration.ofMillis(500), false).decide(plan(), "default");
        assertThat(closed.outcome()).isEqualTo(ApprovalWebhook.Outcome.FAILED_CLOSED);
        assertThat(closed.reason()).contains("no decision within");
        assertThat(closed.approved()).isFalse();
        ApprovalWebhook.Decision open =
                webhook(uri, Duration.ofMillis(500), true).decide(plan(), "default");
        assertThat(open.outcome()).isEqualTo(ApprovalWebhook.Outcome.FAILED_OPEN);
        assertThat(open.approved()).isTrue();
    }

    @Test
    void flappingServiceOpensTheBreaker() throws Exception {
        URI uri = serve(n -> n % 2 == 0 ? new Reply(502, "", null) : new Reply(500, "", null));
        ApprovalWebhook.Decision first =
                webhook(uri, Duration.ofSeconds(30), false).decide(plan(), "default");
        assertThat(first.outcome()).isEqualTo(ApprovalWebhook.Outcome.FAILED_CLOSED);
        assertThat(first.requests()).as("the breaker stops the fifth request").isEqualTo(4);
        assertThat(first.reason()).contains("HTTP 502").contains("circuit open");
        // The next apply in this process does not call the failing service at all.
        ApprovalWebhook.Decision next =
                webhook(uri, Duration.ofSeconds(30), true).decide(plan(), "default");
        assertThat(next.requests()).isZero();
        assertThat(next.outcome()).isEqualTo(ApprovalWebhook.Outcome.FAILED_OPEN);
        assertThat(calls.get()).isEqualTo(4);
    }

    @Test
    void unreachableServiceAndBadAnswersAreNoDecision() throws Exception {
        URI uri = serve(n -> Reply.ok("{\"verdict\": \"yes\"}"));
        ApprovalWebhook.Decision bad =
                webhook(uri, Duration.ofSeconds(5), false).decide(plan(), "default");
        assertThat(bad.outcome()).isEqualTo(ApprovalWebhook.Outcome.FAILED_CLOSED);
        assertThat(bad.reason()).contains("APPROVED or REJECTED");
        server.stop(0);
        server = null;
        ApprovalWebhook.Decision down =
                webhook(uri, Duration.ofSeconds(5), false).decide(plan(), "default");
        assertThat(down.outcome()).isEqualTo(ApprovalWebhook.Outcome.FAILED_CLOSED);
        assertThat(down.reason()).contains("could not be reached").contains("circuit open");
    }
}
