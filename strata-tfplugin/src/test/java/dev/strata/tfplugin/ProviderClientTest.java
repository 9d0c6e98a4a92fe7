package dev.strata.tfplugin;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.strata.addr.AttributePath;
import dev.strata.hcl.Result;
import dev.strata.hcl.Severity;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.tfplugin.proto.goplugin.GRPCControllerGrpc;
import dev.strata.tfplugin.proto.goplugin.GoPluginProto;
import dev.strata.tfplugin.proto.v6.ProviderGrpc;
import dev.strata.tfplugin.proto.v6.Tfplugin6;
import dev.strata.tfplugin.wire.MsgpackValues;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protocol-6 client against a provider served from this JVM on loopback TCP (no provider
 * speaking protocol 6 is installed here). A shell script stands in for the plugin process and
 * prints the handshake that points at the in-test server, so the real start-up path is used.
 */
@Timeout(60)
class ProviderClientTest {
    @TempDir
    Path dir;

    private Server server;
    private final AtomicReference<Tfplugin6.ReadDataSource.Request> lastRead = new AtomicReference<>();
    private final AtomicBoolean shutdownCalled = new AtomicBoolean();

    private static ByteString type(String json) {
        return ByteString.copyFrom(json, StandardCharsets.UTF_8);
    }

    private static Tfplugin6.Schema.Attribute.Builder attr(String name) {
        return Tfplugin6.Schema.Attribute.newBuilder().setName(name);
    }

    @BeforeEach
    void serve() throws IOException {
        Type thingType = Type.object(Map.of(
                "id", Type.STRING,
                "items", Type.list(Type.object(Map.of("name", Type.STRING))),
                "filter", Type.set(Type.object(Map.of("value", Type.NUMBER)))));
        ProviderGrpc.ProviderImplBase provider = new ProviderGrpc.ProviderImplBase() {
            @Override
            public void getProviderSchema(
                    Tfplugin6.GetProviderSchema.Request req, StreamObserver<Tfplugin6.GetProviderSchema.Response> out) {
                Tfplugin6.Schema thing = Tfplugin6.Schema.newBuilder()
                        .setVersion(2)
                        .setBlock(Tfplugin6.Schema.Block.newBuilder()
                                .addAttributes(
                                        attr("id").setType(type("\"string\"")).setComputed(true))
                                .addAttributes(attr("items")
                                        .setOptional(true)
                                        .setNestedType(Tfplugin6.Schema.Object.newBuilder()
                                                .setNesting(Tfplugin6.Schema.Object.NestingMode.LIST)
                                                .addAttributes(attr("name")
                                                        .setType(type("\"string\""))
                                                        .setRequired(true))))
                                .addBlockTypes(Tfplugin6.Schema.NestedBlock.newBuilder()
                                        .setTypeName("filter")
                                        .setNesting(Tfplugin6.Schema.NestedBlock.NestingMode.SET)
                                        .setMaxItems(3)
                                        .setBlock(Tfplugin6.Schema.Block.newBuilder()
                                                .addAttributes(attr("value")
                                                        .setType(type("\"number\""))
                                                        .setRequired(true)))))
                        .build();
                out.onNext(Tfplugin6.GetProviderSchema.Response.newBuilder()
                        .setProvider(Tfplugin6.Schema.newBuilder()
                                .setBlock(Tfplugin6.Schema.Block.newBuilder()
                                        .addAttributes(attr("endpoint")
                                                .setType(type("\"string\""))
                                                .setOptional(true))))
                        .putDataSourceSchemas("fake_thing", thing)
                        .setProviderMeta(Tfplugin6.Schema.newBuilder()
                                .setBlock(Tfplugin6.Schema.Block.newBuilder()
                                        .addAttributes(attr("user_agent")
                                                .setType(type("[\"list\",\"string\"]"))
                                                .setOptional(true))))
                        .putFunctions(
                                "double",
                                Tfplugin6.Function.newBuilder()
                                        .addParameters(Tfplugin6.Function.Parameter.newBuilder()
                                                .setName("n")
                                                .setType(type("\"number\"")))
                                        .setReturn(Tfplugin6.Function.Return.newBuilder()
                                                .setType(type("\"number\"")))
                                        .build())
                        .setServerCapabilities(
                                Tfplugin6.ServerCapabilities.newBuilder().setPlanDestroy(true))
                        .build());
                out.onCompleted();
            }

            @Override
            public void validateProviderConfig(
                    Tfplugin6.ValidateProviderConfig.Request req,
                    StreamObserver<Tfplugin6.ValidateProviderConfig.Response> out) {
                out.onNext(Tfplugin6.ValidateProviderConfig.Response.newBuilder()
                        .addDiagnostics(Tfplugin6.Diagnostic.newBuilder()
                                .setSeverity(Tfplugin6.Diagnostic.Severity.WARNING)
                                .setSummary("Deprecated endpoint")
                                .setAttribute(Tfplugin6.AttributePath.newBuilder()
                                        .addSteps(Tfplugin6.AttributePath.Step.newBuilder()
                                                .setAttributeName("endpoint"))))
                        .build());
                out.onCompleted();
            }

            @Override
            public void readDataSource(
                    Tfplugin6.ReadDataSource.Request req, StreamObserver<Tfplugin6.ReadDataSource.Response> out) {
                lastRead.set(req);
                Value config = MsgpackValues.decode(req.getConfig().getMsgpack().toByteArray(), thingType);
                Map<String, Value> attrs = new java.util.TreeMap<>(config.attributes());
                attrs.put(
                        "id",
                        Value.string("thing-" + config.attributes().get("items").length()));
                out.onNext(Tfplugin6.ReadDataSource.Response.newBuilder()
                        .setState(Tfplugin6.DynamicValue.newBuilder()
                                .setMsgpack(ByteString.copyFrom(MsgpackValues.encode(Value.object(attrs), thingType))))
                        .build());
                out.onCompleted();
            }

            @Override
            public void callFunction(
                    Tfplugin6.CallFunction.Request req, StreamObserver<Tfplugin6.CallFunction.Response> out) {
                Value n = MsgpackValues.decode(req.getArguments(0).getMsgpack().toByteArray(), Type.NUMBER);
                Tfplugin6.CallFunction.Response.Builder r = Tfplugin6.CallFunction.Response.newBuilder();
                if (n.asNumber().signum() < 0) {
                    r.setError(Tfplugin6.FunctionError.newBuilder()
                            .setText("n must not be negative")
                            .setFunctionArgument(0));
                } else {
                    r.setResult(Tfplugin6.DynamicValue.newBuilder()
                            .setMsgpack(ByteString.copyFrom(MsgpackValues.encode(
                                    Value.number(n.asNumber().multiply(BigDecimal.TWO)), Type.NUMBER))));
                }
                out.onNext(r.build());
                out.onCompleted();
            }

            @Override
            public void stopProvider(
                    Tfplugin6.StopProvider.Request req, StreamObserver<Tfplugin6.StopProvider.Response> out) {
                out.onNext(Tfplugin6.StopProvider.Response.getDefaultInstance());
                out.onCompleted();
            }
        };
        GRPCControllerGrpc.GRPCControllerImplBase controller = new GRPCControllerGrpc.GRPCControllerImplBase() {
            @Override
            public void shutdown(GoPluginProto.Empty req, StreamObserver<GoPluginProto.Empty> out) {
                shutdownCalled.set(true);
                out.onNext(GoPluginProto.Empty.getDefaultInstance());
                out.onCompleted();
            }
        };
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(provider)
                .addService(controller)
                .build()
                .start();
    }

    @AfterEach
    void stopServer() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private ProviderClient start() throws IOException {
        Path script = dir.resolve("terraform-provider-fake");
        // Offered "5,6": go-plugin picks the highest both sides speak, so the stand-in answers 6.
        Files.writeString(
                script,
                "#!/bin/sh\ncase \"$PLUGIN_PROTOCOL_VERSIONS\" in *6*) ;; *) exit 9;; esac\n"
                        + "echo '1|6|tcp|127.0.0.1:" + server.getPort() + "|grpc|'\nexec sleep 30\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        PluginLaunch launch = new PluginLaunch(
                "example.com/test/fake",
                script,
                PluginLaunch.SUPPORTED_PROTOCOLS,
                Duration.ofSeconds(20),
                Duration.ofMillis(500),
                Map.of());
        Result<ProviderClient> r = ProviderClient.start(launch, Duration.ofSeconds(10));
        assertThat(r.diagnostics().hasErrors()).as(r.diagnostics().toString()).isFalse();
        assertThat(r.value().plugin().protocolVersion()).isEqualTo(6);
        return r.value();
    }

    /**
     * A provider closed while prepare()'s background start is still in progress stops the plugin that start
     * brings up, rather than leaving it running with its connection's threads (which kept an embedding JVM
     * from exiting after init or validate used only the cached schema).
     */
    @Test
    void aStartThatEndsAfterCloseStopsThePlugin() throws Exception {
        java.util.concurrent.CountDownLatch starting = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<ProviderClient> started =
                new java.util.concurrent.atomic.AtomicReference<>();
        TerraformProvider provider = new TerraformProvider(
                "example.com/test/fake",
                () -> {
                    try {
                        starting.countDown();
                        closed.await();
                        ProviderClient c = start();
                        started.set(c);
                        return Result.of(c);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                null,
                null);
        provider.prepare();
        assertThat(starting.await(20, TimeUnit.SECONDS)).isTrue();
        provider.close();
        closed.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (started.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(started.get()).as("the background start ran").isNotNull();
        long pid = started.get().plugin().pid();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as("plugin process %d stopped", pid)
                .isFalse();
        assertThat(provider.started()).isFalse();
    }

    @Test
    void schemaWithNestedAttributesAndADataSourceRead() throws IOException {
        try (ProviderClient c = start()) {
            ProviderSchema s = c.getProviderSchema().value();
            assertThat(s.capabilities().planDestroy()).isTrue();
            ProviderSchema.Schema thing = s.dataSourceSchemas().get("fake_thing");
            assertThat(thing.version()).isEqualTo(2);
            ProviderSchema.Attribute items = thing.block().attributes().get("items");
            assertThat(items.nested())
                    .hasValueSatisfying(n -> assertThat(n.nesting()).isEqualTo(ProviderSchema.NestingMode.LIST));
            assertThat(items.type()).isEqualTo(Type.list(Type.object(Map.of("name", Type.STRING))));
            assertThat(thing.block().blockTypes().get("filter").maxItems()).isEqualTo(3);

            ProviderDiagnostics v =
                    c.validateProviderConfig(s.provider().block().emptyConfig());
            assertThat(v.hasErrors()).isFalse();
            assertThat(v.asList()).singleElement().satisfies(d -> {
                assertThat(d.severity()).isEqualTo(Severity.WARNING);
                assertThat(d.attribute()).isEqualTo(AttributePath.ROOT.attr("endpoint"));
            });

            Type itemType = Type.object(Map.of("name", Type.STRING));
            Value config = Value.object(Map.of(
                    "id", Value.nullValue(Type.STRING),
                    "items",
                            Value.list(
                                    itemType,
                                    List.of(
                                            Value.object(Map.of("name", Value.string("a"))),
                                            Value.object(Map.of("name", Value.unknown(Type.STRING))))),
                    "filter",
                            Value.set(
                                    Type.object(Map.of("value", Type.NUMBER)),
                                    List.of(Value.object(Map.of(
                                            "value",
                                            Value.number(new BigDecimal("3.14159265358979323846264338327950288"))))))));
            Provider.ReadDataResponse read = c.readDataSource(new Provider.ReadDataRequest("fake_thing", config));
            assertThat(read.diagnostics().hasErrors()).isFalse();
            Value state = read.state();
            assertThat(state.attributes().get("id")).isEqualTo(Value.string("thing-2"));
            assertThat(state.attributes().get("items"))
                    .isEqualTo(config.attributes().get("items"));
            assertThat(state.attributes().get("filter"))
                    .isEqualTo(config.attributes().get("filter"));
            assertThat(lastRead.get().getTypeName()).isEqualTo("fake_thing");
            // Without a provider_meta block the request carries a null of the meta schema's type.
            Type metaType = Type.object(Map.of("user_agent", Type.list(Type.STRING)));
            assertThat(ProviderClient.decode(lastRead.get().getProviderMeta(), metaType))
                    .isEqualTo(Value.nullValue(metaType));
        }
        assertThat(shutdownCalled).isTrue();
    }

    @Test
    void theModulesProviderMetaIsEncodedWithTheProvidersMetaSchema() throws IOException {
        try (ProviderClient c = start()) {
            ProviderSchema s = c.getProviderSchema().value();
            Type metaType = Type.object(Map.of("user_agent", Type.list(Type.STRING)));
            assertThat(s.providerMeta())
                    .hasValueSatisfying(m -> assertThat(m.block().impliedType()).isEqualTo(metaType));
            Value meta =
                    Value.object(Map.of("user_agent", Value.list(Type.STRING, List.of(Value.string("example/1.0")))));
            Type itemType = Type.object(Map.of("name", Type.STRING));
            Value config = Value.object(Map.of(
                    "id", Value.nullValue(Type.STRING),
                    "items", Value.list(itemType, List.of()),
                    "filter", Value.set(Type.object(Map.of("value", Type.NUMBER)), List.of())));
            assertThat(c.readDataSource(new Provider.ReadDataRequest("fake_thing", config, meta))
                            .diagnostics()
                            .hasErrors())
                    .isFalse();
            assertThat(ProviderClient.decode(lastRead.get().getProviderMeta(), metaType))
                    .isEqualTo(meta);
        }
    }

    @Test
    void functionsAndStop() throws IOException {
        try (ProviderClient c = start()) {
            assertThat(c.callFunction(new Provider.CallFunctionRequest("double", List.of(Value.number(21))))
                            .result())
                    .isEqualTo(Value.number(42));
            var neg = c.callFunction(new Provider.CallFunctionRequest("double", List.of(Value.number(-1))));
            assertThat(neg.error()).isEqualTo("n must not be negative");
            assertThat(neg.errorArgument()).hasValue(0);
            assertThat(c.callFunction(new Provider.CallFunctionRequest("triple", List.of(Value.number(1))))
                            .error())
                    .isEqualTo(
                            "Invalid function: The provider example.com/test/fake does not support function \"triple\".");
            assertThat(c.stopProvider().hasErrors()).isFalse();
        }
    }
}
