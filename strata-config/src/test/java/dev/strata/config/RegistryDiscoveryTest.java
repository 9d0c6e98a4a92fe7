package dev.strata.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.strata.testing.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Service discovery ({@code https://HOST/.well-known/terraform.json}) and the registry API over HTTPS
 * against a loopback registry whose certificate a throwaway CA signed, trusted through
 * {@code SSL_CERT_FILE} as Terraform users trust a private CA; transient failures retried with a
 * doubling wait, and the reason reported after the last attempt. The waits are recorded, not slept.
 */
class RegistryDiscoveryTest {
    @TempDir
    Path dir;

    private final TestCertificates ca = TestCertificates.newAuthority("strata-test-registry-ca");
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<Duration> waits = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private HttpsServer server;
    private Path bundle;
    private String host;

    @BeforeEach
    void start() throws IOException {
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setHttpsConfigurator(new HttpsConfigurator(ca.serverContext(ca.server())));
        server.createContext("/", this::answer);
        server.start();
        host = "localhost:" + server.getAddress().getPort();
        bundle = dir.resolve("ca.pem");
        Files.writeString(bundle, ca.authority().certificatePem());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        requests.add(path);
        int status = 200;
        String body;
        if (failuresLeft.getAndDecrement() > 0) {
            status = 503;
            body = "busy";
        } else if (path.equals("/.well-known/terraform.json")) {
            body = "{\"modules.v1\": \"/v1/modules/\"}";
        } else if (path.equals("/v1/modules/acme/web/aws/versions")) {
            body = "{\"modules\": [{\"versions\": [{\"version\": \"1.0.0\"}, {\"version\": \"1.2.0\"}]}]}";
        } else {
            status = 404;
            body = "{}";
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    private List<String> versions(Map<String, String> env) throws FetchException {
        ModuleRegistry registry = new ModuleRegistry(new HttpTransport(RemoteAccess.of(env), waits::add));
        return registry.versions(new ModuleSource.Registry(host, "acme", "web", "aws", "")).stream()
                .map(Object::toString)
                .toList();
    }

    @Test
    void discoveryOverHttpsTrustsTheCaBundleOfSslCertFile() throws Exception {
        assertThat(versions(Map.of("SSL_CERT_FILE", bundle.toString()))).containsExactly("1.0.0", "1.2.0");
        assertThat(requests).containsExactly("/.well-known/terraform.json", "/v1/modules/acme/web/aws/versions");
        assertThat(waits).isEmpty();
    }

    @Test
    void anUntrustedCertificateFailsAtOnceNamingTheUrl() {
        assertThatThrownBy(() -> versions(Map.of()))
                .isInstanceOf(FetchException.class)
                .hasMessageStartingWith("Get \"https://" + host + "/.well-known/terraform.json\": ")
                .hasMessageNotContaining("attempts");
        assertThat(waits).as("a TLS failure is not retried").isEmpty();
    }

    @Test
    void transientFailuresAreRetriedWithADoublingWait() throws Exception {
        failuresLeft.set(2);
        assertThat(versions(Map.of("SSL_CERT_FILE", bundle.toString()))).containsExactly("1.0.0", "1.2.0");
        assertThat(requests)
                .containsExactly(
                        "/.well-known/terraform.json",
                        "/.well-known/terraform.json",
                        "/.well-known/terraform.json",
                        "/v1/modules/acme/web/aws/versions");
        assertThat(waits).containsExactly(Duration.ofMillis(250), Duration.ofMillis(500));
    }

    @Test
    void afterTheLastAttemptTheHostAndTheReasonAreReported() {
        failuresLeft.set(100);
        assertThatThrownBy(() -> versions(Map.of("SSL_CERT_FILE", bundle.toString())))
                .isInstanceOf(FetchException.class)
                .hasMessage("Get \"https://" + host + "/.well-known/terraform.json\": bad response code: 503 "
                        + "(giving up after " + HttpTransport.ATTEMPTS + " attempts)");
        assertThat(requests).hasSize(HttpTransport.ATTEMPTS);
    }

    @Test
    void aRefusedConnectionIsRetriedThenReportedWithTheOsReason() {
        server.stop(0);
        assertThatThrownBy(() -> versions(Map.of("SSL_CERT_FILE", bundle.toString())))
                .isInstanceOf(FetchException.class)
                .hasMessageContaining("https://" + host + "/.well-known/terraform.json")
                .hasMessageContaining("connection refused")
                .hasMessageEndingWith("(giving up after " + HttpTransport.ATTEMPTS + " attempts)");
        assertThat(waits).hasSize(HttpTransport.ATTEMPTS - 1);
    }

    @Test
    void anUnreadableCaBundleIsReportedWithItsPathAndReason() {
        Path missing = dir.resolve("nope.pem");
        assertThatThrownBy(() -> versions(Map.of("SSL_CERT_FILE", missing.toString())))
                .isInstanceOf(FetchException.class)
                .hasMessageContaining("SSL_CERT_FILE")
                .hasMessageContaining("nope.pem");
        assertThat(requests).isEmpty();
    }

    @Test
    void theCaBundleIsReadAtTheFirstRequestNotBefore() throws Exception {
        // A transport that never sends (an init with no remote module) sets up no TLS: the bundle is read,
        // and the client built, when the first request goes out.
        Path later = dir.resolve("later.pem");
        ModuleRegistry registry = new ModuleRegistry(
                new HttpTransport(RemoteAccess.of(Map.of("SSL_CERT_FILE", later.toString())), waits::add));
        Files.writeString(later, ca.authority().certificatePem());
        assertThat(registry.versions(new ModuleSource.Registry(host, "acme", "web", "aws", "")).stream()
                        .map(Object::toString))
                .containsExactly("1.0.0", "1.2.0");
    }
}
