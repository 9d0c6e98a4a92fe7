package dev.strata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.addr.InstanceKey;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.testing.S3Server;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/** The s3 backend against S3Proxy on loopback (a real S3 implementation the test starts). */
class S3BackendTest {
    static final Map<String, String> ENV = Map.of(
            "AWS_ACCESS_KEY_ID", S3Server.ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY", S3Server.SECRET_KEY);
    String bucket;
    S3Backend backend;

    static Map<String, String> settings(String bucket) {
        Map<String, String> s = new HashMap<>();
        s.put("bucket", bucket);
        s.put("key", "app/terraform.tfstate");
        s.put("region", S3Server.REGION);
        s.put("endpoints", "{\"s3\":\"" + S3Server.shared().endpoint() + "\"}");
        s.put("use_path_style", "true");
        s.put("use_lockfile", "true");
        s.put("skip_credentials_validation", "true");
        s.put("skip_requesting_account_id", "true");
        s.put("skip_s3_checksum", "true");
        return s;
    }

    @BeforeEach
    void setUp() {
        bucket = S3Server.shared().createBucket("s3backend");
        Result<S3Backend> r = S3Backend.configure(settings(bucket), ENV, "0.1.0");
        assertThat(r.diagnostics().asList()).isEmpty();
        backend = r.value();
    }

    StateManager open(String ws) {
        Result<StateManager> r = backend.open(ws, LockRequest.of("OperationTypeApply", Duration.ZERO));
        assertThat(r.diagnostics().asList()).isEmpty();
        return r.value();
    }

    @Test
    void writesIncrementSerialAndReadBack() {
        try (StateManager m = open("default")) {
            assertThat(m.exists()).isFalse();
            assertThat(m.persist(StateProcess.withCounter(m.state(), 1)).value().serial())
                    .isEqualTo(1);
            assertThat(m.persist(StateProcess.withCounter(m.state(), 2)).value().serial())
                    .isEqualTo(2);
            assertThat(m.persist(StateProcess.withCounter(m.state(), 2)).value().serial())
                    .as("no change, no write")
                    .isEqualTo(2);
        }
        try (StateManager m = open("default")) {
            assertThat(m.state().serial()).isEqualTo(2);
            assertThat(StateProcess.counter(m.state())).isEqualTo(2);
        }
        assertThat(S3Server.shared().keys(bucket)).containsExactly("app/terraform.tfstate");
    }

    @Test
    void workspacesAreLaidOutAsTerraformLaysThemOut() {
        assertThat(backend.createWorkspace("staging").diagnostics().asList()).isEmpty();
        assertThat(backend.createWorkspace("staging").diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Workspace already exists");
        try (StateManager m = open("default")) {
            m.persist(StateProcess.withCounter(m.state(), 1));
        }
        assertThat(backend.workspaces().value()).containsExactly("default", "staging");
        assertThat(S3Server.shared().keys(bucket))
                .containsExactly("app/terraform.tfstate", "env:/staging/app/terraform.tfstate");
        assertThat(backend.open("nope", LockRequest.none()).diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Workspace does not exist");
        assertThat(backend.deleteWorkspace("staging").diagnostics().asList()).isEmpty();
        assertThat(backend.workspaces().value()).containsExactly("default");
        assertThat(S3Server.shared().keys(bucket)).containsExactly("app/terraform.tfstate");
    }

    @Test
    void lockObjectExcludesOthersAndForceUnlockRemovesIt() {
        try (StateManager m = open("default")) {
            assertThat(S3Server.shared().keys(bucket)).contains("app/terraform.tfstate.tflock");
            Result<StateManager> second = backend.open("default", LockRequest.of("OperationTypePlan", Duration.ZERO));
            assertThat(second.value()).isNull();
            Diagnostic d = second.diagnostics().asList().get(0);
            assertThat(d.summary()).isEqualTo("Error acquiring the state lock");
            assertThat(d.detail()).contains("ID:        " + m.lock().id()).contains("OperationTypeApply");
            assertThat(backend.forceUnlock("default", "wrong")
                            .diagnostics()
                            .asList()
                            .get(0)
                            .detail())
                    .contains("does not match existing lock ID");
            assertThat(backend.forceUnlock("default", m.lock().id()).value().id())
                    .isEqualTo(m.lock().id());
            // The holder notices that its lock is gone and does not write.
            assertThat(m.persist(StateProcess.withCounter(m.state(), 1))
                            .diagnostics()
                            .asList())
                    .extracting(Diagnostic::summary)
                    .containsExactly("State lock lost");
        }
        assertThat(S3Server.shared().keys(bucket)).doesNotContain("app/terraform.tfstate.tflock");
    }

    @Test
    void lockInfoIsTerraformsJson() throws Exception {
        try (StateManager m = open("default")) {
            byte[] json = backend.client()
                    .getObjectAsBytes(g -> g.bucket(bucket).key("app/terraform.tfstate.tflock"))
                    .asByteArray();
            var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
            assertThat(node.get("ID").asText()).isEqualTo(m.lock().id());
            assertThat(node.get("Operation").asText()).isEqualTo("OperationTypeApply");
            assertThat(node.get("Path").asText()).isEqualTo(bucket + "/app/terraform.tfstate");
            assertThat(node.get("Who").asText()).contains("@");
            assertThat(node.get("Created").asText()).endsWith("Z");
        }
    }

    @Test
    void lockLeftByADeadProcessOnThisHostIsTakenOverWithAWarning() {
        LockInfo dead = new LockInfo(
                "dead-lock",
                "OperationTypeApply",
                "",
                "x@" + Hosts.hostName(),
                "0.1.0",
                java.time.Instant.now(),
                bucket + "/app/terraform.tfstate",
                Hosts.hostName(),
                Integer.MAX_VALUE - 7,
                null,
                null);
        backend.client()
                .putObject(
                        p -> p.bucket(bucket).key("app/terraform.tfstate.tflock"),
                        RequestBody.fromBytes(dead.toJson()));
        Result<StateManager> r = backend.open("default", LockRequest.of("OperationTypeApply", Duration.ZERO));
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("Previous lock holder ended without unlocking");
        r.value().close();
    }

    @Test
    void journalObjectsReplayAndCompact() {
        try (StateManager m = open("default")) {
            m.append(JournalTest.set(0));
            m.append(new JournalEntry.Intent("op-1", JournalTest.THING.instance(InstanceKey.of(1)), "create"));
            m.append(JournalTest.set(1));
        }
        assertThat(S3Server.shared().keys(bucket))
                .filteredOn(k -> k.contains(".journal/"))
                .hasSize(3);
        try (StateManager m = open("default")) {
            assertThat(m.journalSize()).isEqualTo(3);
            assertThat(m.state().instanceAddresses()).hasSize(2);
            assertThat(m.openIntents())
                    .extracting(JournalEntry.Intent::operationId)
                    .containsExactly("op-1");
            assertThat(m.compact().value().serial()).isEqualTo(1);
            assertThat(m.journalSize()).as("the open intent is carried over").isEqualTo(1);
        }
        try (StateManager m = open("default")) {
            assertThat(m.state().serial()).isEqualTo(1);
            assertThat(m.state().instanceAddresses()).hasSize(2);
            assertThat(m.openIntents()).hasSize(1);
        }
    }

    @Test
    void journalOfACompactionThatCrashedBeforeDeletingIsSkipped() {
        StateSnapshot compacted;
        try (StateManager m = open("default")) {
            m.append(JournalTest.set(0));
            m.append(JournalTest.set(1));
            // What a crash between the state PUT and the journal deletes leaves: the new state, the old entries.
            compacted = m.state().withSerial(m.state().serial() + 1);
        }
        backend.client()
                .putObject(
                        p -> p.bucket(bucket).key("app/terraform.tfstate"),
                        RequestBody.fromBytes(StateCodec.write(compacted)));
        try (StateManager m = open("default")) {
            assertThat(m.journalSize()).isZero();
            assertThat(m.state().instanceAddresses()).hasSize(2);
        }
        assertThat(S3Server.shared().keys(bucket)).containsExactly("app/terraform.tfstate");
    }

    @Test
    void conditionalWriteIsRefusedWhenTheObjectExists() {
        var c = backend.client();
        c.putObject(p -> p.bucket(bucket).key("probe").ifNoneMatch("*"), RequestBody.fromString("1"));
        var e = org.assertj.core.api.Assertions.catchThrowableOfType(
                software.amazon.awssdk.services.s3.model.S3Exception.class,
                () -> c.putObject(p -> p.bucket(bucket).key("probe").ifNoneMatch("*"), RequestBody.fromString("2")));
        assertThat(e).isNotNull();
        assertThat(e.statusCode()).isEqualTo(412);
        assertThat(c.getObjectAsBytes(g -> g.bucket(bucket).key("probe")).asString(StandardCharsets.UTF_8))
                .isEqualTo("1");
    }

    @Test
    void settingsAreCheckedWithTerraformsRules() {
        Map<String, String> s = new HashMap<>();
        s.put("region", "eu-west-1");
        s.put("sse_customer_key", "x");
        s.put("http_proxy", "http://proxy");
        Result<S3Backend> r = S3Backend.configure(s, Map.of(), "0.1.0");
        assertThat(r.value()).isNull();
        assertThat(r.diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactlyInAnyOrder(
                        "Unsupported s3 backend setting",
                        "Ignored s3 backend setting",
                        "Missing required argument",
                        "Missing required argument");
        Map<String, String> dynamo = settings(bucket);
        dynamo.put("dynamodb_table", "locks");
        dynamo.put("use_lockfile", "false");
        assertThat(S3Backend.configure(dynamo, ENV, "0.1.0").diagnostics().asList())
                .extracting(Diagnostic::summary)
                .containsExactly("DynamoDB locking is not supported");
    }

    @Test
    void unreachableEndpointIsExplained() {
        Map<String, String> down = settings(bucket);
        down.put("endpoints", "{\"s3\":\"http://127.0.0.1:1\"}");
        down.put("max_retries", "0");
        Result<java.util.List<String>> ws =
                S3Backend.configure(down, ENV, "0.1.0").value().workspaces();
        assertThat(ws.diagnostics().asList().get(0).detail())
                .contains("Could not reach S3 for bucket")
                .contains("http://127.0.0.1:1")
                .doesNotContain(S3Server.SECRET_KEY);
    }
}
