package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.testing.HttpStateServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The http backend against a server with Terraform's http backend semantics. */
class HttpBackendTest {
    HttpStateServer server;
    HttpBackend backend;

    Map<String, String> settings() {
        Map<String, String> s = new HashMap<>();
        s.put("address", server.address());
        s.put("lock_address", server.address());
        s.put("unlock_address", server.address());
        s.put("username", "ci");
        s.put("password", "s3cret");
        s.put("retry_wait_min", "0");
        return s;
    }

    @BeforeEach
    void setUp() throws Exception {
        server = HttpStateServer.start("ci", "s3cret");
        Result<HttpBackend> r = HttpBackend.configure(settings(), Map.of(), "0.1.0");
        assertThat(r.diagnostics().asList()).isEmpty();
        backend = r.value();
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    StateManager open() {
        Result<StateManager> r = backend.open("default", LockRequest.of("OperationTypeApply", Duration.ZERO));
        assertThat(r.diagnostics().asList()).isEmpty();
        return r.value();
    }

    @Test
    void writesAndReadsBackTheStateUnderTheLock() {
        try (StateManager m = open()) {
            assertThat(m.exists()).isFalse();
            assertThat(server.lockId()).isEqualTo(m.lock().id());
            assertThat(m.persist(StateProcess.withCounter(m.state(), 1)).value().serial())
                    .isEqualTo(1);
        }
        assertThat(server.lockId()).as("unlocked at close").isNull();
        assertThat(new String(server.state(), java.nio.charset.StandardCharsets.UTF_8))
                .contains("\"serial\": 1");
        try (StateManager m = open()) {
            assertThat(StateProcess.counter(m.state())).isEqualTo(1);
        }
    }

    @Test
    void heldLockIsRefusedWithTheHoldersInfoAndForceUnlockReleasesIt() {
        try (StateManager m = open()) {
            Result<StateManager> second = backend.open("default", LockRequest.of("OperationTypePlan", Duration.ZERO));
            assertThat(second.value()).isNull();
            assertThat(second.diagnostics().asList().get(0).detail())
                    .contains("HTTP remote state already locked: ID=" + m.lock().id())
                    .contains("OperationTypeApply");
            assertThat(backend.forceUnlock("default", "other")
                            .diagnostics()
                            .asList()
                            .get(0)
                            .detail())
                    .contains("Unexpected HTTP response code 409");
            assertThat(backend.forceUnlock("default", m.lock().id())
                            .diagnostics()
                            .asList())
                    .isEmpty();
            assertThat(server.lockId()).isNull();
        }
    }

    @Test
    void workspacesOtherThanDefaultAreRefused() {
        assertThat(backend.workspaces().value()).containsExactly("default");
        assertThat(backend.createWorkspace("x").diagnostics().asList().get(0).detail())
                .startsWith("workspaces not supported");
    }

    @Test
    void authFailuresAndServerErrorsAreExplainedAndRetried() {
        Map<String, String> wrong = settings();
        wrong.put("password", "nope");
        Result<StateManager> r =
                HttpBackend.configure(wrong, Map.of(), "0.1.0").value().open("default", LockRequest.none());
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::detail)
                .singleElement()
                .asString()
                .startsWith("HTTP remote state endpoint invalid auth")
                .doesNotContain("nope");
        server.failNext(2);
        try (StateManager m = backend.open("default", LockRequest.none()).value()) {
            assertThat(m).as("two 503 answers, retried (retry_max 2)").isNotNull();
        }
        server.failNext(3);
        assertThat(backend.open("default", LockRequest.none())
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .startsWith("Unexpected HTTP response code 503");
    }

    @Test
    void environmentVariablesAndDefaultsAreTerraforms() {
        Result<HttpSettings> s = HttpSettings.read(
                Map.of(),
                Map.of(
                        "TF_HTTP_ADDRESS",
                        "https://gitlab.example/api/state/x",
                        "TF_HTTP_LOCK_ADDRESS",
                        "https://gitlab.example/api/state/x/lock"));
        assertThat(s.value().lockMethod()).isEqualTo("LOCK");
        assertThat(s.value().unlockMethod()).isEqualTo("UNLOCK");
        assertThat(s.value().updateMethod()).isEqualTo("POST");
        assertThat(s.value().retryMax()).isEqualTo(2);
        assertThat(HttpSettings.read(Map.of("address", "ftp://x"), Map.of())
                        .diagnostics()
                        .asList()
                        .get(0)
                        .detail())
                .contains("must be an http:// or https:// URL");
    }
}
