package dev.strata.providers.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.lang.value.Value;
import dev.strata.provider.testkit.ProviderTester;
import dev.strata.state.LockRequest;
import dev.strata.state.PgBackend;
import dev.strata.state.StateCodec;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteStateDataTest {

    @TempDir
    Path dir;

    /** remote.tfstate was written by Terraform 1.11 applying a configuration with three root outputs. */
    private Path stateFile(Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try (InputStream in = getClass().getResourceAsStream("remote.tfstate")) {
            Files.copy(in, target);
        }
        return target;
    }

    private static Value config(Map<String, Value> m) {
        return Value.object(m);
    }

    private static final String REMOTE_STATE = "terraform_remote_state";

    private static ProviderTester defaultProvider() {
        return ProviderTester.configure(new TerraformProvider());
    }

    /** The arguments that read the local state file {@code path}, with {@code defaults}. */
    private static Map<String, Value> local(Path path, Map<String, Value> defaults) {
        return Map.of(
                "backend",
                Value.string("local"),
                "config",
                config(Map.of("path", Value.string(path.toString()))),
                "defaults",
                config(defaults));
    }

    /** The state in remote.tfstate. */
    private StateSnapshot remoteState() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("remote.tfstate")) {
            return StateCodec.read(in.readAllBytes(), "remote.tfstate", "").value();
        }
    }

    @Test
    void readsRootOutputsOfALocalState() throws IOException {
        Path f = stateFile(dir.resolve("other/terraform.tfstate"));
        Value v = defaultProvider()
                .readData(REMOTE_STATE, local(f, Map.of("plain", Value.string("fallback"), "extra", Value.number(1))));
        Map<String, Value> out = v.attributes().get("outputs").attributes();
        assertThat(out.get("plain")).isEqualTo(Value.string("hello"));
        assertThat(out.get("extra")).isEqualTo(Value.number(1));
        assertThat(out.get("obj").attributes().get("ports"))
                .isEqualTo(Value.tuple(List.of(Value.number(80), Value.number(443))));
        assertThat(out.get("secret").isSensitive()).isTrue();
        assertThat(out.get("secret").unmark()).isEqualTo(Value.string("s3cr3t"));
        assertThat(v.toString()).doesNotContain("s3cr3t");
    }

    @Test
    void workspacesAndMissingStates() throws IOException {
        stateFile(dir.resolve("envs/staging/terraform.tfstate"));
        Value v = defaultProvider()
                .readData(
                        REMOTE_STATE,
                        Map.of(
                                "backend",
                                Value.string("local"),
                                "workspace",
                                Value.string("staging"),
                                "config",
                                config(Map.of(
                                        "workspace_dir",
                                        Value.string(dir.resolve("envs").toString())))));
        assertThat(v.attributes().get("outputs").attributes()).containsKey("plain");
        // As in Terraform 1.11: no state at all is an error, defaults or not.
        var none =
                defaultProvider().tryReadData(REMOTE_STATE, local(dir.resolve("nope"), Map.of("a", Value.string("b"))));
        assertThat(none.diagnostics().hasErrors()).isTrue();
        assertThat(none.diagnostics().toString()).contains("Unable to find remote state");
        assertThat(defaultProvider()
                        .validateDataSource(REMOTE_STATE, Map.of("backend", Value.string("azurerm")))
                        .hasErrors())
                .isTrue();
        assertThat(defaultProvider()
                        .validateDataSource(
                                REMOTE_STATE,
                                Map.of(
                                        "backend",
                                        Value.string("local"),
                                        "config",
                                        config(Map.of("conn_str", Value.string("x")))))
                        .hasErrors())
                .as("an argument the local backend does not take")
                .isTrue();
        Files.writeString(dir.resolve("bad.tfstate"), "{not json");
        assertThat(defaultProvider()
                        .tryReadData(
                                REMOTE_STATE,
                                Map.of(
                                        "backend",
                                        Value.string("local"),
                                        "config",
                                        config(Map.of(
                                                "path",
                                                Value.string(dir.resolve("bad.tfstate")
                                                        .toString())))))
                        .diagnostics()
                        .hasErrors())
                .isTrue();
    }

    @Test
    void relativePathsResolveAgainstTheWorkingDirectoryNotTheJvms() throws IOException {
        Path work = dir.resolve("work");
        stateFile(dir.resolve("network/terraform.tfstate"));
        stateFile(work.resolve("terraform.tfstate.d/prod/terraform.tfstate"));
        Value v = ProviderTester.configure(new TerraformProvider(), Map.of(), work, Map.of())
                .readData(
                        REMOTE_STATE,
                        Map.of(
                                "backend",
                                Value.string("local"),
                                "config",
                                config(Map.of("path", Value.string("../network/terraform.tfstate")))));
        assertThat(v.attributes().get("outputs").attributes().get("plain")).isEqualTo(Value.string("hello"));
        Value prod = ProviderTester.configure(new TerraformProvider(), Map.of(), work, Map.of())
                .readData(REMOTE_STATE, Map.of("backend", Value.string("local"), "workspace", Value.string("prod")));
        assertThat(prod.attributes().get("outputs").attributes().get("plain")).isEqualTo(Value.string("hello"));
    }

    @Test
    void outputsKeepTheirRecordedTypesOverDefaults() throws IOException {
        Path f = stateFile(dir.resolve("s/terraform.tfstate"));
        Value v = defaultProvider().readData(REMOTE_STATE, local(f, Map.of("plain", Value.number(7))));
        Value out = v.attributes().get("outputs");
        assertThat(out.attributes().get("plain").type()).isEqualTo(dev.strata.lang.types.Type.STRING);
        assertThat(out.attributes().get("obj").attributes().get("ports").type().toString())
                .contains("tuple");
    }

    @Test
    void readsAStateFromThePgBackendWithoutLockingIt() throws Exception {
        int port = dev.strata.testing.PostgresServer.withPassword().port();
        String conn = "postgres://" + dev.strata.testing.PostgresServer.SUPERUSER + ":"
                + dev.strata.testing.PostgresServer.PASSWORD + "@127.0.0.1:" + port + "/postgres?sslmode=disable";
        String schemaName = "rs_" + ProcessHandle.current().pid();
        PgBackend backend =
                PgBackend.connect(conn, schemaName, Map.of(), "test").value();
        StateSnapshot written = remoteState();
        var created = backend.createWorkspace("blue");
        assertThat(created.hasErrors()).as(created.diagnostics().toString()).isFalse();
        try (StateManager m = backend.open("blue", LockRequest.of("OperationTypeApply", Duration.ofSeconds(10)))
                .value()) {
            assertThat(m.persist(written.withLineage(m.state().lineage())).hasErrors())
                    .isFalse();
            // The writer still holds the lock: the reader must not wait for it.
            Value v = ProviderTester.configure(new TerraformProvider(), Map.of(), dir, Map.of("PG_CONN_STR", conn))
                    .readData(
                            REMOTE_STATE,
                            Map.of(
                                    "backend",
                                    Value.string("pg"),
                                    "workspace",
                                    Value.string("blue"),
                                    "config",
                                    config(Map.of("schema_name", Value.string(schemaName))),
                                    "defaults",
                                    config(Map.of("extra", Value.string("d")))));
            Map<String, Value> out = v.attributes().get("outputs").attributes();
            assertThat(out.get("plain")).isEqualTo(Value.string("hello"));
            assertThat(out.get("extra")).isEqualTo(Value.string("d"));
            assertThat(out.get("secret").isSensitive()).isTrue();
            assertThat(v.toString()).doesNotContain("s3cr3t");
        }
        var missing = defaultProvider()
                .tryReadData(
                        REMOTE_STATE,
                        Map.of(
                                "backend",
                                Value.string("pg"),
                                "workspace",
                                Value.string("green"),
                                "config",
                                config(Map.of(
                                        "conn_str", Value.string(conn), "schema_name", Value.string(schemaName)))));
        assertThat(missing.diagnostics().toString()).contains("Unable to find remote state");
        var noConn = ProviderTester.configure(new TerraformProvider(), Map.of(), dir, Map.of())
                .tryReadData(REMOTE_STATE, Map.of("backend", Value.string("pg")));
        assertThat(noConn.diagnostics().toString()).contains("PG_CONN_STR");
    }

    @Test
    void readsAStateFromTheS3BackendWithEndpointsObjectAndWorkspacePrefix() throws Exception {
        String bucket = dev.strata.testing.S3Server.shared().createBucket("remote-state");
        Map<String, String> env = Map.of(
                "AWS_ACCESS_KEY_ID", dev.strata.testing.S3Server.ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY", dev.strata.testing.S3Server.SECRET_KEY);
        Map<String, String> settings = new java.util.HashMap<>(Map.of(
                "bucket", bucket,
                "key", "net/terraform.tfstate",
                "region", "us-east-1",
                "use_path_style", "true",
                "use_lockfile", "true",
                "skip_s3_checksum", "true"));
        settings.put(
                "endpoints", "{\"s3\":\"" + dev.strata.testing.S3Server.shared().endpoint() + "\"}");
        dev.strata.state.S3Backend backend =
                dev.strata.state.S3Backend.configure(settings, env, "test").value();
        StateSnapshot written = remoteState();
        var created = backend.createWorkspace("blue");
        assertThat(created.hasErrors()).as(created.diagnostics().toString()).isFalse();
        try (StateManager m = backend.open("blue", LockRequest.of("OperationTypeApply", Duration.ofSeconds(10)))
                .value()) {
            assertThat(m.persist(written.withLineage(m.state().lineage())).hasErrors())
                    .isFalse();
            Map<String, Value> cfg = new java.util.TreeMap<>();
            settings.forEach((k, v) -> {
                if (!k.equals("endpoints")) {
                    cfg.put(k, Value.string(v));
                }
            });
            cfg.put(
                    "endpoints",
                    config(Map.of(
                            "s3",
                            Value.string(dev.strata.testing.S3Server.shared().endpoint()))));
            Value v = ProviderTester.configure(new TerraformProvider(), Map.of(), dir, env)
                    .readData(
                            REMOTE_STATE,
                            Map.of(
                                    "backend", Value.string("s3"),
                                    "workspace", Value.string("blue"),
                                    "config", config(cfg)));
            Map<String, Value> out = v.attributes().get("outputs").attributes();
            assertThat(out.get("plain")).isEqualTo(Value.string("hello"));
            assertThat(out.get("secret").isSensitive()).isTrue();
            var missing = ProviderTester.configure(new TerraformProvider(), Map.of(), dir, env)
                    .tryReadData(
                            REMOTE_STATE,
                            Map.of(
                                    "backend", Value.string("s3"),
                                    "workspace", Value.string("green"),
                                    "config", config(cfg)));
            assertThat(missing.diagnostics().toString()).contains("Unable to find remote state");
        }
    }

    @Test
    void readsAStateFromTheHttpBackend() throws Exception {
        try (var server = dev.strata.testing.HttpStateServer.start()) {
            dev.strata.state.HttpBackend backend = dev.strata.state.HttpBackend.configure(
                            Map.of("address", server.address()), Map.of(), "test")
                    .value();
            StateSnapshot written = remoteState();
            try (StateManager m = backend.open("default", LockRequest.none()).value()) {
                assertThat(m.replace(written, true).hasErrors()).isFalse();
            }
            Value v = ProviderTester.configure(new TerraformProvider(), Map.of(), dir, Map.of())
                    .readData(
                            REMOTE_STATE,
                            Map.of(
                                    "backend", Value.string("http"),
                                    "config", config(Map.of("address", Value.string(server.address())))));
            assertThat(v.attributes().get("outputs").attributes().get("plain")).isEqualTo(Value.string("hello"));
        }
    }
}
