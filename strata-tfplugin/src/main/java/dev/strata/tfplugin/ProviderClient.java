package dev.strata.tfplugin;

import com.google.protobuf.ByteString;
import dev.strata.addr.AttributePath;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Severity;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Failure;
import dev.strata.provider.PrivateState;
import dev.strata.provider.Provider.ApplyRequest;
import dev.strata.provider.Provider.ApplyResponse;
import dev.strata.provider.Provider.CallFunctionRequest;
import dev.strata.provider.Provider.CallFunctionResponse;
import dev.strata.provider.Provider.CloseEphemeralRequest;
import dev.strata.provider.Provider.ImportRequest;
import dev.strata.provider.Provider.ImportResponse;
import dev.strata.provider.Provider.ImportedResource;
import dev.strata.provider.Provider.OpenEphemeralRequest;
import dev.strata.provider.Provider.OpenEphemeralResponse;
import dev.strata.provider.Provider.PlanRequest;
import dev.strata.provider.Provider.PlanResponse;
import dev.strata.provider.Provider.ReadDataRequest;
import dev.strata.provider.Provider.ReadDataResponse;
import dev.strata.provider.Provider.ReadRequest;
import dev.strata.provider.Provider.ReadResponse;
import dev.strata.provider.Provider.RenewEphemeralRequest;
import dev.strata.provider.Provider.RenewEphemeralResponse;
import dev.strata.provider.Provider.UpgradeRequest;
import dev.strata.provider.Provider.UpgradeResponse;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ValueJson;
import dev.strata.tfplugin.ProviderSchema.Attribute;
import dev.strata.tfplugin.ProviderSchema.Block;
import dev.strata.tfplugin.ProviderSchema.FunctionParameter;
import dev.strata.tfplugin.ProviderSchema.FunctionSignature;
import dev.strata.tfplugin.ProviderSchema.NestedBlock;
import dev.strata.tfplugin.ProviderSchema.NestingMode;
import dev.strata.tfplugin.ProviderSchema.Schema;
import dev.strata.tfplugin.proto.v6.ProviderGrpc;
import dev.strata.tfplugin.proto.v6.Tfplugin6;
import dev.strata.tfplugin.wire.MsgpackValues;
import dev.strata.tfplugin.wire.TypeJson;
import dev.strata.tfplugin.wire.WireFormatException;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The gRPC client of one running plugin, for either protocol (see {@link PluginProtocol}), with the
 * provider SPI's requests and responses. Each call converts Strata values to the wire with the
 * schema of the object involved, so the provider schema is fetched (once) before the first call
 * that needs it. Calls are bounded by the call timeout; a crashed or hung plugin becomes an error
 * diagnostic, never a hang or an exception. Once the plugin has died, every call's errors are
 * {@link Failure#UNAVAILABLE} and every later call returns the same ones without reaching for it.
 * Closing the client shuts the plugin process down.
 */
final class ProviderClient implements AutoCloseable {
    private final PluginProcess plugin;
    private final PluginProtocol protocol;
    private final Duration callTimeout;
    private volatile ProviderSchema schema;
    private volatile ProviderDiagnostics crashed;

    private ProviderClient(PluginProcess plugin, PluginProtocol protocol, Duration callTimeout) {
        this.plugin = plugin;
        this.protocol = protocol;
        this.callTimeout = callTimeout;
    }

    /** Starts the plugin and returns a client for the protocol it chose. */
    static Result<ProviderClient> start(PluginLaunch launch, Duration callTimeout) {
        Result<PluginProcess> p = PluginProcess.start(launch);
        if (p.value() == null) {
            return Result.of(null, p.diagnostics());
        }
        PluginProcess plugin = p.value();
        PluginProtocol protocol = PluginProtocol.of(plugin.protocolVersion());
        if (protocol == null) {
            plugin.close();
            return Result.of(
                    null,
                    p.diagnostics()
                            .with(Diagnostic.error(
                                    "Unsupported plugin protocol",
                                    "Provider " + launch.providerName() + " chose plugin protocol "
                                            + plugin.protocolVersion() + ", which Strata does not speak.",
                                    null)));
        }
        return Result.of(new ProviderClient(plugin, protocol, callTimeout), p.diagnostics());
    }

    PluginProcess plugin() {
        return plugin;
    }

    /** The failure of a plugin that died during a call, or null while it has not. */
    ProviderDiagnostics crashed() {
        return crashed;
    }

    /**
     * Uses {@code schema} (from {@link SchemaCache}) instead of asking the plugin, so calls that
     * need it do not fetch it again. Only for a schema this same provider package reported.
     */
    void useSchema(ProviderSchema schema) {
        this.schema = schema;
    }

    // ---- calling ---------------------------------------------------------------------------------

    /**
     * One RPC and what its answer means. A call that fails (the plugin died or did not answer in
     * time) or whose answer cannot be decoded gives {@code failed} with the reason.
     */
    private <Q, R, T> T call(
            MethodDescriptor<Q, R> method, Q request, Function<R, T> answer, Function<ProviderDiagnostics, T> failed) {
        Diagnostic why;
        try {
            return answer.apply(rpc(method, request));
        } catch (StatusRuntimeException e) {
            why = plugin.callFailure(name(method), e);
        } catch (WireFormatException e) {
            why = Diagnostic.error(
                    "Invalid response from provider",
                    "Provider " + plugin.providerName()
                            + " answered the " + name(method) + " call with a value Strata cannot decode: "
                            + e.getMessage()
                            + ". This is a bug in the provider.",
                    null);
        }
        return failed.apply(ProviderDiagnostics.of(spi(why)));
    }

    private <Q, R> R rpc(MethodDescriptor<Q, R> method, Q request) {
        CallOptions options = CallOptions.DEFAULT
                .withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .withMaxInboundMessageSize(PluginProcess.MAX_MESSAGE_BYTES)
                .withMaxOutboundMessageSize(PluginProcess.MAX_MESSAGE_BYTES);
        return ClientCalls.blockingUnaryCall(plugin.channel(), protocol.method(method), options, request);
    }

    /** The call's name in the plugin's protocol, as messages name it. */
    private String name(MethodDescriptor<?, ?> method) {
        return protocol.method(method).getBareMethodName();
    }

    /**
     * A call's diagnostics. When it failed because the plugin died, its errors are
     * {@link Failure#UNAVAILABLE} and are kept: every later call returns them.
     */
    private ProviderDiagnostics checked(ProviderDiagnostics ds) {
        if (!ds.hasErrors() || !plugin.crashed()) {
            return ds;
        }
        synchronized (this) {
            if (crashed == null) {
                ProviderDiagnostics.Builder b = ProviderDiagnostics.builder();
                for (ProviderDiagnostic d : ds) {
                    b.add(
                            d.severity() == Severity.ERROR
                                    ? new ProviderDiagnostic(
                                            d.severity(), d.summary(), d.detail(), null, Failure.UNAVAILABLE)
                                    : d);
                }
                crashed = b.build();
            }
            return crashed;
        }
    }

    /** A call whose answer is its diagnostics, checked for a crash. */
    private <Q, R> ProviderDiagnostics diagnosticsOf(
            MethodDescriptor<Q, R> method, Q request, Function<R, List<Tfplugin6.Diagnostic>> diagnostics) {
        return call(method, request, r -> checked(diagnostics(diagnostics.apply(r))), this::checked);
    }

    // ---- the schema ------------------------------------------------------------------------------

    /** The provider's schema, fetched once; null with the reason when it cannot be had. */
    Result<ProviderSchema> getProviderSchema() {
        ProviderSchema cached = schema;
        if (cached != null) {
            return Result.of(cached);
        }
        return call(
                ProviderGrpc.getGetProviderSchemaMethod(),
                Tfplugin6.GetProviderSchema.Request.getDefaultInstance(),
                answer -> {
                    Tfplugin6.GetProviderSchema.Response r = protocol.schema(answer);
                    // The schema has no configuration to point into, so attribute paths are left out.
                    Diagnostics diags = Diagnostics.of(diagnostics(r.getDiagnosticsList()).asList().stream()
                            .map(d -> new Diagnostic(d.severity(), d.summary(), d.detail(), null, null))
                            .toList());
                    if (diags.hasErrors()) {
                        return Result.<ProviderSchema>of(null, diags);
                    }
                    ProviderSchema s = new ProviderSchema(
                            schema(r.getProvider()),
                            r.hasProviderMeta() ? Optional.of(schema(r.getProviderMeta())) : Optional.empty(),
                            mapValues(r.getResourceSchemasMap(), ProviderClient::schema),
                            mapValues(r.getDataSourceSchemasMap(), ProviderClient::schema),
                            mapValues(r.getFunctionsMap(), ProviderClient::function),
                            new ProviderSchema.ServerCapabilities(
                                    r.getServerCapabilities().getPlanDestroy(),
                                    r.getServerCapabilities().getGetProviderSchemaOptional(),
                                    r.getServerCapabilities().getMoveResourceState()),
                            mapValues(r.getEphemeralResourceSchemasMap(), ProviderClient::schema));
                    schema = s;
                    return Result.of(s, diags);
                },
                ds -> Result.of(null, ds.toDiagnostics()));
    }

    /** The schema, then {@code body}; without a schema, the reason as errors. */
    private <T> T withSchema(Function<ProviderSchema, T> body, Function<ProviderDiagnostics, T> failed) {
        Result<ProviderSchema> s = getProviderSchema();
        if (s.value() == null) {
            return failed.apply(checked(toProvider(s.diagnostics())));
        }
        return body.apply(s.value());
    }

    /** {@code body} with the schema of a resource type or data source; an unknown one is an error. */
    private <T> T withType(
            String kind,
            String typeName,
            Function<ProviderSchema, Map<String, Schema>> schemas,
            BiFunction<ProviderSchema, Schema, T> body,
            Function<ProviderDiagnostics, T> failed) {
        return withSchema(
                s -> {
                    Schema ts = schemas.apply(s).get(typeName);
                    if (ts == null) {
                        return failed.apply(checked(unknown(kind, typeName)));
                    }
                    return body.apply(s, ts);
                },
                failed);
    }

    private <T> T withResource(
            String typeName, BiFunction<ProviderSchema, Schema, T> body, Function<ProviderDiagnostics, T> failed) {
        return withType("resource type", typeName, ProviderSchema::resourceSchemas, body, failed);
    }

    private <T> T withDataSource(
            String typeName, BiFunction<ProviderSchema, Schema, T> body, Function<ProviderDiagnostics, T> failed) {
        return withType("data source", typeName, ProviderSchema::dataSourceSchemas, body, failed);
    }

    private <T> T withEphemeral(
            String typeName, BiFunction<ProviderSchema, Schema, T> body, Function<ProviderDiagnostics, T> failed) {
        return withType("ephemeral resource type", typeName, ProviderSchema::ephemeralResourceSchemas, body, failed);
    }

    private ProviderDiagnostics unknown(String kind, String name) {
        return ProviderDiagnostics.error(
                "Invalid " + kind,
                "The provider " + plugin.providerName() + " does not support " + kind + " \"" + name + "\".");
    }

    /** The type of an SPI placeholder for a failed call: the object type of the SPI's schema. */
    private static Type spiType(Schema s) {
        return SpiSchemas.schema(s).block().impliedType();
    }

    // ---- the provider ----------------------------------------------------------------------------

    /** Validates the provider configuration; protocol 5's prepared configuration is not used (Terraform 1.x configures with the original). */
    ProviderDiagnostics validateProviderConfig(Value config) {
        return withSchema(
                s -> diagnosticsOf(
                        ProviderGrpc.getValidateProviderConfigMethod(),
                        Tfplugin6.ValidateProviderConfig.Request.newBuilder()
                                .setConfig(encodeConfig(config, s.provider().block()))
                                .build(),
                        Tfplugin6.ValidateProviderConfig.Response::getDiagnosticsList),
                ds -> ds);
    }

    ProviderDiagnostics configureProvider(String terraformVersion, Value config) {
        return withSchema(
                s -> diagnosticsOf(
                        ProviderGrpc.getConfigureProviderMethod(),
                        Tfplugin6.ConfigureProvider.Request.newBuilder()
                                .setTerraformVersion(terraformVersion)
                                .setConfig(encodeConfig(config, s.provider().block()))
                                .setClientCapabilities(clientCapabilities())
                                .build(),
                        Tfplugin6.ConfigureProvider.Response::getDiagnosticsList),
                ds -> ds);
    }

    ProviderDiagnostics validateResourceConfig(String typeName, Value config) {
        return withResource(
                typeName,
                (s, rs) -> diagnosticsOf(
                        ProviderGrpc.getValidateResourceConfigMethod(),
                        Tfplugin6.ValidateResourceConfig.Request.newBuilder()
                                .setTypeName(typeName)
                                .setConfig(encodeConfig(config, rs.block()))
                                .setClientCapabilities(clientCapabilities())
                                .build(),
                        Tfplugin6.ValidateResourceConfig.Response::getDiagnosticsList),
                ds -> ds);
    }

    ProviderDiagnostics validateDataResourceConfig(String typeName, Value config) {
        return withDataSource(
                typeName,
                (s, ds) -> diagnosticsOf(
                        ProviderGrpc.getValidateDataResourceConfigMethod(),
                        Tfplugin6.ValidateDataResourceConfig.Request.newBuilder()
                                .setTypeName(typeName)
                                .setConfig(encodeConfig(config, ds.block()))
                                .build(),
                        Tfplugin6.ValidateDataResourceConfig.Response::getDiagnosticsList),
                d -> d);
    }

    /** The data source's state; on failure an unknown value of its type. */
    ReadDataResponse readDataSource(ReadDataRequest request) {
        return withDataSource(
                request.typeName(),
                (s, ds) -> {
                    Type t = ds.block().impliedType();
                    Function<ProviderDiagnostics, ReadDataResponse> failed =
                            d -> new ReadDataResponse(Value.unknown(spiType(ds)), checked(d));
                    return call(
                            ProviderGrpc.getReadDataSourceMethod(),
                            Tfplugin6.ReadDataSource.Request.newBuilder()
                                    .setTypeName(request.typeName())
                                    .setProviderMeta(encode(request.providerMeta(), metaType(s)))
                                    .setConfig(encodeConfig(request.config(), ds.block()))
                                    .setClientCapabilities(clientCapabilities())
                                    .build(),
                            r -> {
                                ProviderDiagnostics diags = diagnostics(r.getDiagnosticsList());
                                return diags.hasErrors() || !r.hasState() || isEmpty(r.getState())
                                        ? failed.apply(diags)
                                        : new ReadDataResponse(decode(r.getState(), t), checked(diags));
                            },
                            failed);
                },
                d -> new ReadDataResponse(Value.unknown(Type.DYNAMIC), d));
    }

    // ---- ephemeral resources ---------------------------------------------------------------------

    ProviderDiagnostics validateEphemeralResourceConfig(String typeName, Value config) {
        return withEphemeral(
                typeName,
                (s, es) -> diagnosticsOf(
                        ProviderGrpc.getValidateEphemeralResourceConfigMethod(),
                        Tfplugin6.ValidateEphemeralResourceConfig.Request.newBuilder()
                                .setTypeName(typeName)
                                .setConfig(encodeConfig(config, es.block()))
                                .build(),
                        Tfplugin6.ValidateEphemeralResourceConfig.Response::getDiagnosticsList),
                d -> d);
    }

    /** The opened object; on failure a null result with the reason. */
    OpenEphemeralResponse openEphemeralResource(OpenEphemeralRequest request) {
        return withEphemeral(
                request.typeName(),
                (s, es) -> {
                    Type t = es.block().impliedType();
                    Function<ProviderDiagnostics, OpenEphemeralResponse> failed =
                            d -> OpenEphemeralResponse.failed(checked(d));
                    return call(
                            ProviderGrpc.getOpenEphemeralResourceMethod(),
                            Tfplugin6.OpenEphemeralResource.Request.newBuilder()
                                    .setTypeName(request.typeName())
                                    .setConfig(encodeConfig(request.config(), es.block()))
                                    .setClientCapabilities(clientCapabilities())
                                    .build(),
                            r -> {
                                ProviderDiagnostics diags = diagnostics(r.getDiagnosticsList());
                                if (diags.hasErrors()) {
                                    return failed.apply(diags);
                                }
                                PrivateState priv =
                                        PrivateState.of(r.getPrivate().toByteArray());
                                if (r.hasDeferred()) {
                                    return new OpenEphemeralResponse(
                                            Value.unknown(spiType(es)), null, priv, true, checked(diags));
                                }
                                if (!r.hasResult() || isEmpty(r.getResult())) {
                                    return failed.apply(diags.with(ProviderDiagnostic.error(
                                            "Provider produced invalid object",
                                            "Provider " + plugin.providerName() + " opened ephemeral resource "
                                                    + request.typeName()
                                                    + " without a result. This is a bug in the provider.")));
                                }
                                return new OpenEphemeralResponse(
                                        decode(r.getResult(), t),
                                        r.hasRenewAt() ? instant(r.getRenewAt()) : null,
                                        priv,
                                        false,
                                        checked(diags));
                            },
                            failed);
                },
                d -> OpenEphemeralResponse.failed(d));
    }

    RenewEphemeralResponse renewEphemeralResource(RenewEphemeralRequest request) {
        return call(
                ProviderGrpc.getRenewEphemeralResourceMethod(),
                Tfplugin6.RenewEphemeralResource.Request.newBuilder()
                        .setTypeName(request.typeName())
                        .setPrivate(bytes(request.privateState()))
                        .build(),
                r -> new RenewEphemeralResponse(
                        r.hasRenewAt() ? instant(r.getRenewAt()) : null,
                        r.hasPrivate() ? PrivateState.of(r.getPrivate().toByteArray()) : request.privateState(),
                        checked(diagnostics(r.getDiagnosticsList()))),
                d -> new RenewEphemeralResponse(null, request.privateState(), checked(d)));
    }

    ProviderDiagnostics closeEphemeralResource(CloseEphemeralRequest request) {
        return diagnosticsOf(
                ProviderGrpc.getCloseEphemeralResourceMethod(),
                Tfplugin6.CloseEphemeralResource.Request.newBuilder()
                        .setTypeName(request.typeName())
                        .setPrivate(bytes(request.privateState()))
                        .build(),
                Tfplugin6.CloseEphemeralResource.Response::getDiagnosticsList);
    }

    private static ByteString bytes(PrivateState p) {
        return ByteString.copyFrom(p.bytes());
    }

    private static java.time.Instant instant(com.google.protobuf.Timestamp t) {
        return java.time.Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
    }

    /** The object brought to the current schema version; on failure an unknown value of its type. */
    UpgradeResponse upgradeResourceState(UpgradeRequest request) {
        return withResource(
                request.typeName(),
                (s, rs) -> {
                    Function<ProviderDiagnostics, UpgradeResponse> failed =
                            d -> new UpgradeResponse(Value.unknown(spiType(rs)), checked(d));
                    return call(
                            ProviderGrpc.getUpgradeResourceStateMethod(),
                            Tfplugin6.UpgradeResourceState.Request.newBuilder()
                                    .setTypeName(request.typeName())
                                    .setVersion(request.version())
                                    .setRawState(Tfplugin6.RawState.newBuilder()
                                            .setJson(ByteString.copyFrom(
                                                    request.rawStateJson(), StandardCharsets.UTF_8)))
                                    .build(),
                            r -> {
                                ProviderDiagnostics diags = diagnostics(r.getDiagnosticsList());
                                return diags.hasErrors() || isEmpty(r.getUpgradedState())
                                        ? failed.apply(diags)
                                        : new UpgradeResponse(
                                                decode(
                                                        r.getUpgradedState(),
                                                        rs.block().impliedType()),
                                                checked(diags));
                            },
                            failed);
                },
                d -> new UpgradeResponse(Value.unknown(Type.DYNAMIC), d));
    }

    /** The object as it is now; when the call fails, the current state is kept. */
    ReadResponse readResource(ReadRequest request) {
        Function<ProviderDiagnostics, ReadResponse> failed =
                d -> new ReadResponse(request.currentState(), request.currentPrivate(), checked(d));
        return withResource(
                request.typeName(),
                (s, rs) -> {
                    Type t = rs.block().impliedType();
                    return call(
                            ProviderGrpc.getReadResourceMethod(),
                            Tfplugin6.ReadResource.Request.newBuilder()
                                    .setTypeName(request.typeName())
                                    .setProviderMeta(encode(request.providerMeta(), metaType(s)))
                                    .setCurrentState(encode(request.currentState(), t))
                                    .setPrivate(ByteString.copyFrom(
                                            request.currentPrivate().bytes()))
                                    .setClientCapabilities(clientCapabilities())
                                    .build(),
                            r -> {
                                ProviderDiagnostics diags = diagnostics(r.getDiagnosticsList());
                                if (diags.hasErrors()) {
                                    return failed.apply(diags);
                                }
                                Value state =
                                        isEmpty(r.getNewState()) ? Value.nullValue(t) : decode(r.getNewState(), t);
                                return new ReadResponse(
                                        state,
                                        PrivateState.of(r.getPrivate().toByteArray()),
                                        checked(diags).with(deferral(r.hasDeferred(), r.getDeferred())));
                            },
                            failed);
                },
                failed);
    }

    /** The planned change; on failure an unknown value of the resource type. */
    PlanResponse planResourceChange(PlanRequest request) {
        return withResource(
                request.typeName(),
                (s, rs) -> {
                    Type t = rs.block().impliedType();
                    Function<ProviderDiagnostics, PlanResponse> failed =
                            d -> PlanResponse.failed(Value.unknown(spiType(rs)), checked(d));
                    return call(
                            ProviderGrpc.getPlanResourceChangeMethod(),
                            Tfplugin6.PlanResourceChange.Request.newBuilder()
                                    .setTypeName(request.typeName())
                                    .setProviderMeta(encode(request.providerMeta(), metaType(s)))
                                    .setPriorState(encode(request.priorState(), t))
                                    .setProposedNewState(encode(request.proposedNewState(), t))
                                    .setConfig(encodeConfig(request.config(), rs.block()))
                                    .setPriorPrivate(ByteString.copyFrom(
                                            request.priorPrivate().bytes()))
                                    .setClientCapabilities(clientCapabilities())
                                    .build(),
                            r -> {
                                ProviderDiagnostics diags = diagnostics(r.getDiagnosticsList());
                                if (diags.hasErrors()) {
                                    return failed.apply(diags);
                                }
                                return new PlanResponse(
                                        decode(r.getPlannedState(), t),
                                        r.getRequiresReplaceList().stream()
                                                .map(ProviderClient::path)
                                                .toList(),
                                        PrivateState.of(r.getPlannedPrivate().toByteArray()),
                                        checked(diags).with(deferral(r.hasDeferred(), r.getDeferred())),
                                        r.getLegacyTypeSystem());
                            },
                            failed);
                },
                d -> PlanResponse.failed(Value.unknown(Type.DYNAMIC), d));
    }

    /**
     * The object after the change. A failed apply still reports the object's state as far as it got,
     * so it is kept; when the call itself fails nothing says what exists, so the prior object is kept.
     */
    ApplyResponse applyResourceChange(ApplyRequest request) {
        Function<ProviderDiagnostics, ApplyResponse> failed =
                d -> new ApplyResponse(request.priorState(), request.plannedPrivate(), checked(d));
        return withResource(
                request.typeName(),
                (s, rs) -> {
                    Type t = rs.block().impliedType();
                    return call(
                            ProviderGrpc.getApplyResourceChangeMethod(),
                            Tfplugin6.ApplyResourceChange.Request.newBuilder()
                                    .setTypeName(request.typeName())
                                    .setProviderMeta(encode(request.providerMeta(), metaType(s)))
                                    .setPriorState(encode(request.priorState(), t))
                                    .setPlannedState(encode(request.plannedState(), t))
                                    .setConfig(encodeConfig(request.config(), rs.block()))
                                    .setPlannedPrivate(ByteString.copyFrom(
                                            request.plannedPrivate().bytes()))
                                    .build(),
                            r -> new ApplyResponse(
                                    isEmpty(r.getNewState()) ? Value.nullValue(t) : decode(r.getNewState(), t),
                                    PrivateState.of(r.getPrivate().toByteArray()),
                                    checked(diagnostics(r.getDiagnosticsList())),
                                    r.getLegacyTypeSystem()),
                            failed);
                },
                failed);
    }

    ImportResponse importResourceState(ImportRequest request) {
        Function<ProviderDiagnostics, ImportResponse> failed = d -> new ImportResponse(List.of(), checked(d));
        return withResource(
                request.typeName(),
                (s, rs) -> call(
                        ProviderGrpc.getImportResourceStateMethod(),
                        Tfplugin6.ImportResourceState.Request.newBuilder()
                                .setTypeName(request.typeName())
                                .setId(request.id())
                                .setClientCapabilities(clientCapabilities())
                                .build(),
                        r -> {
                            ProviderDiagnostics diags = diagnostics(r.getDiagnosticsList());
                            if (diags.hasErrors()) {
                                return failed.apply(diags);
                            }
                            List<ImportedResource> out = new ArrayList<>();
                            for (Tfplugin6.ImportResourceState.ImportedResource ir : r.getImportedResourcesList()) {
                                Schema is = s.resourceSchemas().get(ir.getTypeName());
                                if (is == null) {
                                    throw new WireFormatException(
                                            "imported object of unknown resource type \"" + ir.getTypeName() + "\"");
                                }
                                out.add(new ImportedResource(
                                        ir.getTypeName(),
                                        decode(ir.getState(), is.block().impliedType()),
                                        PrivateState.of(ir.getPrivate().toByteArray())));
                            }
                            return new ImportResponse(out, checked(diags));
                        },
                        failed),
                failed);
    }

    /**
     * Calls a provider function. A failure the function reports (with the argument at fault, if it
     * names one) is its answer; when the call cannot be made, the reason is the function's error, as
     * in Terraform.
     */
    CallFunctionResponse callFunction(CallFunctionRequest request) {
        Function<ProviderDiagnostics, CallFunctionResponse> failed =
                d -> CallFunctionResponse.failed(message(d, plugin.providerName()));
        return withSchema(
                s -> {
                    FunctionSignature f = s.functions().get(request.name());
                    if (f == null) {
                        return failed.apply(unknown("function", request.name()));
                    }
                    List<Type> types = f.argumentTypes(request.arguments().size());
                    Tfplugin6.CallFunction.Request.Builder req =
                            Tfplugin6.CallFunction.Request.newBuilder().setName(request.name());
                    for (int i = 0; i < request.arguments().size(); i++) {
                        req.addArguments(encode(request.arguments().get(i), types.get(i)));
                    }
                    return call(
                            ProviderGrpc.getCallFunctionMethod(),
                            req.build(),
                            r -> {
                                if (r.hasError() && !r.getError().getText().isEmpty()) {
                                    return r.getError().hasFunctionArgument()
                                            ? CallFunctionResponse.failed(
                                                    r.getError().getText(),
                                                    (int) r.getError().getFunctionArgument())
                                            : CallFunctionResponse.failed(
                                                    r.getError().getText());
                                }
                                return CallFunctionResponse.of(decode(r.getResult(), f.returnType()));
                            },
                            failed);
                },
                failed);
    }

    /** A function's error for a call that could not be made: its first error diagnostic. */
    static String message(ProviderDiagnostics ds, String providerName) {
        return ds.asList().stream()
                .filter(ProviderDiagnostic::isError)
                .findFirst()
                .map(d -> d.summary() + ": " + d.detail())
                .orElse("the provider " + providerName + " returned no result");
    }

    /** Asks the provider to cancel calls in progress; the process keeps running. */
    ProviderDiagnostics stopProvider() {
        return call(
                ProviderGrpc.getStopProviderMethod(),
                Tfplugin6.StopProvider.Request.getDefaultInstance(),
                r -> r.getError().isEmpty()
                        ? ProviderDiagnostics.NONE
                        : ProviderDiagnostics.error(
                                "Failed to stop provider",
                                "Provider " + plugin.providerName() + " could not stop: " + r.getError()),
                ds -> ds);
    }

    @Override
    public void close() {
        plugin.close();
    }

    // ---- conversions -----------------------------------------------------------------------------

    /** Strata tells providers it cannot handle deferrals, so one that defers anyway made a mistake. */
    private ProviderDiagnostics deferral(boolean deferred, Tfplugin6.Deferred d) {
        if (!deferred) {
            return ProviderDiagnostics.NONE;
        }
        String reason = d.getReason() == Tfplugin6.Deferred.Reason.UNRECOGNIZED
                ? "UNKNOWN"
                : d.getReason().name();
        return ProviderDiagnostics.error(
                "Provider deferred a change",
                "The provider " + plugin.providerName() + " postponed this change (" + reason
                        + "), which Strata did not" + " allow it to do. This is a bug in the provider.");
    }

    private static Tfplugin6.ClientCapabilities clientCapabilities() {
        // Strata does not handle deferred responses; write-only attributes it keeps out of plans and state.
        return Tfplugin6.ClientCapabilities.newBuilder()
                .setDeferralAllowed(false)
                .setWriteOnlyAttributesAllowed(true)
                .build();
    }

    /** The type {@code provider_meta} values are encoded with: none declared is an empty block. */
    private static Type metaType(ProviderSchema s) {
        return s.providerMeta().map(m -> m.block().impliedType()).orElse(Type.emptyObject());
    }

    /**
     * A configuration for the plugin, whose secret strings (sensitive, ephemeral, write-only) the plugin's
     * log lines are cleaned of from now on.
     */
    private Tfplugin6.DynamicValue encodeConfig(Value config, Block schema) {
        plugin.redactor().remember(config, schema);
        return encode(config, schema.impliedType());
    }

    static Tfplugin6.DynamicValue encode(Value v, Type t) {
        return Tfplugin6.DynamicValue.newBuilder()
                .setMsgpack(ByteString.copyFrom(MsgpackValues.encode(v, t)))
                .build();
    }

    static Value decode(Tfplugin6.DynamicValue dv, Type t) {
        if (!dv.getMsgpack().isEmpty()) {
            return MsgpackValues.decode(dv.getMsgpack().toByteArray(), t);
        }
        if (!dv.getJson().isEmpty()) {
            try {
                return ValueJson.decodeExact(dv.getJson().toByteArray(), t);
            } catch (IllegalArgumentException e) {
                throw new WireFormatException(e.getMessage(), e);
            }
        }
        throw new WireFormatException("DynamicValue carries neither msgpack nor JSON");
    }

    private static boolean isEmpty(Tfplugin6.DynamicValue dv) {
        return dv.getMsgpack().isEmpty() && dv.getJson().isEmpty();
    }

    private static ProviderDiagnostic spi(Diagnostic d) {
        return new ProviderDiagnostic(d.severity(), d.summary(), d.detail(), null, null);
    }

    /** Strata's own diagnostics (no attribute paths) as the SPI's. */
    static ProviderDiagnostics toProvider(Diagnostics ds) {
        return ProviderDiagnostics.of(
                ds.asList().stream().map(ProviderClient::spi).toList());
    }

    /** The provider's diagnostics with the attribute paths they point at. */
    static ProviderDiagnostics diagnostics(List<Tfplugin6.Diagnostic> in) {
        ProviderDiagnostics.Builder b = ProviderDiagnostics.builder();
        for (Tfplugin6.Diagnostic d : in) {
            Severity sev = d.getSeverity() == Tfplugin6.Diagnostic.Severity.WARNING ? Severity.WARNING : Severity.ERROR;
            AttributePath path = d.getAttribute().getStepsCount() == 0 ? null : path(d.getAttribute());
            b.add(new ProviderDiagnostic(sev, d.getSummary(), d.getDetail(), path, null));
        }
        return b.build();
    }

    static AttributePath path(Tfplugin6.AttributePath p) {
        AttributePath path = AttributePath.ROOT;
        for (Tfplugin6.AttributePath.Step s : p.getStepsList()) {
            path = switch (s.getSelectorCase()) {
                case ATTRIBUTE_NAME -> path.attr(s.getAttributeName());
                case ELEMENT_KEY_STRING -> path.key(s.getElementKeyString());
                case ELEMENT_KEY_INT -> path.index(s.getElementKeyInt());
                case SELECTOR_NOT_SET -> throw new WireFormatException("attribute path step without a selector");
            };
        }
        return path;
    }

    static Schema schema(Tfplugin6.Schema s) {
        return new Schema(s.getVersion(), block(s.getBlock()));
    }

    static Block block(Tfplugin6.Schema.Block b) {
        TreeMap<String, NestedBlock> blocks = new TreeMap<>();
        for (Tfplugin6.Schema.NestedBlock nb : b.getBlockTypesList()) {
            blocks.put(
                    nb.getTypeName(),
                    new NestedBlock(
                            nb.getTypeName(),
                            nesting(nb.getNesting()),
                            block(nb.getBlock()),
                            nb.getMinItems(),
                            nb.getMaxItems()));
        }
        return new Block(
                attributes(b.getAttributesList()),
                blocks,
                b.getDescription(),
                b.getDeprecated(),
                b.getDescriptionKind() == Tfplugin6.StringKind.MARKDOWN);
    }

    private static TreeMap<String, Attribute> attributes(List<Tfplugin6.Schema.Attribute> in) {
        TreeMap<String, Attribute> attrs = new TreeMap<>();
        for (Tfplugin6.Schema.Attribute a : in) {
            // Protocol 6 attributes carry either a cty type or nested attributes, never both.
            Optional<ProviderSchema.NestedAttributes> nested = a.hasNestedType()
                    ? Optional.of(new ProviderSchema.NestedAttributes(
                            objectNesting(a.getNestedType().getNesting()),
                            attributes(a.getNestedType().getAttributesList())))
                    : Optional.empty();
            Type type = nested.map(ProviderSchema.NestedAttributes::impliedType)
                    .orElseGet(() -> TypeJson.parse(a.getType().toByteArray()));
            attrs.put(
                    a.getName(),
                    new Attribute(
                            a.getName(),
                            type,
                            nested,
                            a.getDescription(),
                            a.getRequired(),
                            a.getOptional(),
                            a.getComputed(),
                            a.getSensitive(),
                            a.getDeprecated(),
                            a.getWriteOnly(),
                            a.getDescriptionKind() == Tfplugin6.StringKind.MARKDOWN));
        }
        return attrs;
    }

    private static NestingMode objectNesting(Tfplugin6.Schema.Object.NestingMode m) {
        return switch (m) {
            case SINGLE -> NestingMode.SINGLE;
            case LIST -> NestingMode.LIST;
            case SET -> NestingMode.SET;
            case MAP -> NestingMode.MAP;
            case INVALID, UNRECOGNIZED ->
                throw new WireFormatException("attribute nesting mode " + m + " is not valid");
        };
    }

    private static NestingMode nesting(Tfplugin6.Schema.NestedBlock.NestingMode m) {
        return switch (m) {
            case SINGLE -> NestingMode.SINGLE;
            case GROUP -> NestingMode.GROUP;
            case LIST -> NestingMode.LIST;
            case SET -> NestingMode.SET;
            case MAP -> NestingMode.MAP;
            case INVALID, UNRECOGNIZED -> throw new WireFormatException("block nesting mode " + m + " is not valid");
        };
    }

    static FunctionSignature function(Tfplugin6.Function f) {
        return new FunctionSignature(
                f.getParametersList().stream().map(ProviderClient::parameter).toList(),
                f.hasVariadicParameter() ? Optional.of(parameter(f.getVariadicParameter())) : Optional.empty(),
                TypeJson.parse(f.getReturn().getType().toByteArray()),
                f.getSummary(),
                f.getDescription(),
                f.getDeprecationMessage(),
                f.getDescriptionKind() == Tfplugin6.StringKind.MARKDOWN);
    }

    private static FunctionParameter parameter(Tfplugin6.Function.Parameter p) {
        return new FunctionParameter(
                p.getName(),
                TypeJson.parse(p.getType().toByteArray()),
                p.getAllowNullValue(),
                p.getAllowUnknownValues(),
                p.getDescription(),
                p.getDescriptionKind() == Tfplugin6.StringKind.MARKDOWN);
    }

    private static <A, B> TreeMap<String, B> mapValues(Map<String, A> in, Function<A, B> f) {
        TreeMap<String, B> out = new TreeMap<>();
        in.forEach((k, v) -> out.put(k, f.apply(v)));
        return out;
    }
}
