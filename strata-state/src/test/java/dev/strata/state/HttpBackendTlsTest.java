package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.testing.HttpStateServer;
import dev.strata.testing.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The http backend over TLS: a private CA, mutual TLS, and the settings' errors. */
class HttpBackendTlsTest {
    final TestCertificates certs = TestCertificates.newAuthority("strata test CA");
    final TestCertificates.Issued client = certs.client("strata");
    HttpStateServer server;

    @BeforeEach
    void setUp() throws Exception {
        server = HttpStateServer.startTls(certs.serverContext(certs.server()), true);
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    Map<String, String> settings() {
        Map<String, String> s = new HashMap<>();
        s.put("address", server.address());
        s.put("lock_address", server.address());
        s.put("unlock_address", server.address());
        s.put("retry_max", "0");
        s.put("client_ca_certificate_pem", certs.authority().certificatePem());
        s.put("client_certificate_pem", client.certificatePem());
        s.put("client_private_key_pem", client.privateKeyPem());
        return s;
    }

    static List<Diagnostic> openDiagnostics(Map<String, String> settings, Map<String, String> env) {
        Result<HttpBackend> b = HttpBackend.configure(settings, env, "0.1.0");
        if (b.hasErrors()) {
            return b.diagnostics().asList();
        }
        return b.value().open("default", LockRequest.none()).diagnostics().asList();
    }

    @Test
    void mutualTlsWritesAndReadsTheStateUnderTheLock() {
        HttpBackend backend =
                HttpBackend.configure(settings(), Map.of(), "0.1.0").value();
        try (StateManager m = backend.open("default", LockRequest.of("OperationTypeApply", Duration.ZERO))
                .value()) {
            assertThat(server.lockId()).isEqualTo(m.lock().id());
            m.persist(StateProcess.withCounter(m.state(), 1));
        }
        assertThat(server.lockId()).isNull();
        assertThat(new String(server.state(), StandardCharsets.UTF_8)).contains("\"serial\": 1");
    }

    @Test
    void thePemTextsMayComeFromTheEnvironment() {
        Map<String, String> s = settings();
        Map<String, String> env = Map.of(
                "TF_HTTP_CLIENT_CA_CERTIFICATE_PEM", s.remove("client_ca_certificate_pem"),
                "TF_HTTP_CLIENT_CERTIFICATE_PEM", s.remove("client_certificate_pem"),
                "TF_HTTP_CLIENT_PRIVATE_KEY_PEM", s.remove("client_private_key_pem"));
        assertThat(openDiagnostics(s, env)).isEmpty();
    }

    @Test
    void withoutTheClientCertificateTheServerRefusesTheHandshake() {
        Map<String, String> s = settings();
        s.remove("client_certificate_pem");
        s.remove("client_private_key_pem");
        assertThat(openDiagnostics(s, Map.of()))
                .extracting(Diagnostic::detail)
                .singleElement()
                .asString()
                .startsWith("Could not reach the http backend at " + server.address());
    }

    @Test
    void aServerOutsideTheGivenAuthorityIsNotTrusted() {
        Map<String, String> s = settings();
        s.put(
                "client_ca_certificate_pem",
                TestCertificates.newAuthority("other").authority().certificatePem());
        assertThat(openDiagnostics(s, Map.of()))
                .extracting(Diagnostic::detail)
                .singleElement()
                .asString()
                .contains("TLS failed")
                .contains("skip_cert_verification");
        s.put("skip_cert_verification", "true");
        assertThat(openDiagnostics(s, Map.of()))
                .as("skip_cert_verification still presents the client certificate")
                .isEmpty();
    }

    @Test
    void badPemSettingsAreExplainedWithoutTheirContent() {
        Map<String, String> s = settings();
        s.remove("client_private_key_pem");
        assertThat(openDiagnostics(s, Map.of()))
                .extracting(Diagnostic::detail)
                .singleElement()
                .asString()
                .contains("must be set together");

        s = settings();
        s.put("client_private_key_pem", "not a key");
        assertThat(openDiagnostics(s, Map.of()))
                .extracting(Diagnostic::summary)
                .containsExactly("Invalid client_private_key_pem");

        s = settings();
        s.put("client_certificate_pem", "garbage");
        assertThat(openDiagnostics(s, Map.of()))
                .extracting(Diagnostic::summary)
                .containsExactly("Invalid client_certificate_pem");

        s = settings();
        s.put("client_private_key_pem", certs.client("x").privateKeyPem());
        assertThat(openDiagnostics(s, Map.of()))
                .as("a key that is not the certificate's fails the handshake")
                .isNotEmpty()
                .allSatisfy(d -> assertThat(d.detail()).doesNotContain("PRIVATE KEY-----"));
    }

    @Test
    void theSettingsTextHidesThePasswordAndTheKey() {
        Map<String, String> s = settings();
        s.put("password", "hunter2");
        String text = HttpSettings.read(s, Map.of()).value().toString();
        assertThat(text).doesNotContain("hunter2").doesNotContain("PRIVATE KEY");
    }
}
