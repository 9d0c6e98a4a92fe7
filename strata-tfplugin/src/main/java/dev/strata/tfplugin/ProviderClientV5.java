package dev.strata.tfplugin;

import com.google.protobuf.ByteString;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Severity;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.tfplugin.ProviderSchema.Attribute;
import dev.strata.tfplugin.ProviderSchema.Block;
import dev.strata.tfplugin.ProviderSchema.FunctionParameter;
import dev.strata.tfplugin.ProviderSchema.FunctionSignature;
import dev.strata.tfplugin.ProviderSchema.NestedBlock;
import dev.strata.tfplugin.ProviderSchema.NestingMode;
import dev.strata.tfplugin.ProviderSchema.Schema;
import dev.strata.tfplugin.proto.v5.ProviderGrpc;
import dev.strata.tfplugin.proto.v5.Tfplugin5;
import dev.strata.tfplugin.wire.JsonValues;
import dev.strata.tfplugin.wire.MsgpackValues;
import dev.strata.tfplugin.wire.TypeJson;
import dev.strata.tfplugin.wire.WireFormatException;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A client for a provider speaking plugin protocol 5. Each call converts Strata values to the
 * wire with the schema of the object involved, so the provider schema is fetched (once) before
 * the first call that needs it. Calls are bounded by the call timeout; a crashed or hung plugin
 * becomes an error diagnostic, never a hang or an exception.
 */
public final class ProviderClientV5 implements ProviderClient {
    private final PluginProcess plugin;
    private final ProviderGrpc.ProviderBlockingStub stub;
    private final Duration callTimeout;
    private volatile ProviderSchema schema;

    public ProviderClientV5(PluginProcess plugin, Duration callTimeout) {
        if (plugin.protocolVersion() != 5) {
            throw new IllegalArgumentException("plugin negotiated protocol " + plugin.protocolVersion() + ", not 5");
        }
        this.plugin = plugin;
        this.stub = ProviderGrpc.newBlockingStub(plugin.channel())
            .withMaxInboundMessageSize(PluginProcess.MAX_MESSAGE_BYTES)
            .withMaxOutboundMessageSize(PluginProcess.MAX_MESSAGE_BYTES);
        this.callTimeout = callTimeout;
    }

    @Override
    public PluginProcess plugin() {
        return plugin;
    }

    private ProviderGrpc.ProviderBlockingStub stub() {
        return stub.withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs one RPC, turning transport failures and undecodable answers into diagnostics. */
    private <T> PluginResult<T> call(String rpc, Supplier<PluginResult<T>> body) {
        try {
            return body.get();
        } catch (StatusRuntimeException e) {
            return PluginResult.failed(plugin.callFailure(rpc, e));
        } catch (WireFormatException e) {
            return PluginResult.failed(Diagnostic.error("Invalid response from provider",
                "Provider " + plugin.providerName() + " answered the " + rpc + " call with a value Strata cannot decode: "
                    + e.getMessage() + ". This is a bug in the provider.", null));
        }
    }

    @Override
    public void useSchema(ProviderSchema schema) {
        this.schema = schema;
    }

    @Override
    public PluginResult<ProviderSchema> getProviderSchema() {
        ProviderSchema cached = schema;
        if (cached != null) {
            return PluginResult.of(cached, List.of());
        }
        return call("GetSchema", () -> {
            Tfplugin5.GetProviderSchema.Response r = stub().getSchema(Tfplugin5.GetProviderSchema.Request.getDefaultInstance());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            if (hasErrors(diags)) {
                return PluginResult.of(null, diags);
            }
            ProviderSchema s = new ProviderSchema(
                schema(r.getProvider()),
                r.hasProviderMeta() ? Optional.of(schema(r.getProviderMeta())) : Optional.empty(),
                mapValues(r.getResourceSchemasMap(), ProviderClientV5::schema),
                mapValues(r.getDataSourceSchemasMap(), ProviderClientV5::schema),
                mapValues(r.getFunctionsMap(), ProviderClientV5::function),
                new ProviderSchema.ServerCapabilities(r.getServerCapabilities().getPlanDestroy(),
                    r.getServerCapabilities().getGetProviderSchemaOptional(),
                    r.getServerCapabilities().getMoveResourceState()),
                mapValues(r.getEphemeralResourceSchemasMap(), ProviderClientV5::schema));
            schema = s;
            return PluginResult.of(s, diags);
        });
    }

    /** Protocol 5's PrepareProviderConfig: validates and returns the configuration with provider defaults. */
    @Override
    public PluginResult<Value> validateProviderConfig(Value config) {
        return withSchema(s -> call("PrepareProviderConfig", () -> {
            Type t = s.provider().block().impliedType();
            Tfplugin5.PrepareProviderConfig.Response r = stub().prepareProviderConfig(
                Tfplugin5.PrepareProviderConfig.Request.newBuilder().setConfig(encode(config, t)).build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            Value prepared = r.hasPreparedConfig() && !isEmpty(r.getPreparedConfig())
                ? decode(r.getPreparedConfig(), t) : config;
            return PluginResult.of(hasErrors(diags) ? null : prepared, diags);
        }));
    }

    @Override
    public PluginResult<Void> configureProvider(String terraformVersion, Value config) {
        return withSchema(s -> call("Configure", () -> {
            Tfplugin5.Configure.Response r = stub().configure(Tfplugin5.Configure.Request.newBuilder()
                .setTerraformVersion(terraformVersion)
                .setConfig(encode(config, s.provider().block().impliedType()))
                .setClientCapabilities(clientCapabilities())
                .build());
            return PluginResult.of(null, diagnostics(r.getDiagnosticsList()));
        }));
    }

    @Override
    public PluginResult<Void> validateResourceConfig(String typeName, Value config) {
        return withSchema(s -> resourceSchema(s, typeName).map(rs -> call("ValidateResourceTypeConfig", () -> {
            Tfplugin5.ValidateResourceTypeConfig.Response r = stub().validateResourceTypeConfig(
                Tfplugin5.ValidateResourceTypeConfig.Request.newBuilder()
                    .setTypeName(typeName)
                    .setConfig(encode(config, rs.block().impliedType()))
                    .setClientCapabilities(clientCapabilities())
                    .build());
            return PluginResult.<Void>of(null, diagnostics(r.getDiagnosticsList()));
        })).orElseGet(() -> unknownType("resource type", typeName)));
    }

    @Override
    public PluginResult<Void> validateDataResourceConfig(String typeName, Value config) {
        return withSchema(s -> dataSchema(s, typeName).map(ds -> call("ValidateDataSourceConfig", () -> {
            Tfplugin5.ValidateDataSourceConfig.Response r = stub().validateDataSourceConfig(
                Tfplugin5.ValidateDataSourceConfig.Request.newBuilder()
                    .setTypeName(typeName)
                    .setConfig(encode(config, ds.block().impliedType()))
                    .build());
            return PluginResult.<Void>of(null, diagnostics(r.getDiagnosticsList()));
        })).orElseGet(() -> unknownType("data source", typeName)));
    }

    @Override
    public PluginResult<Value> readDataSource(String typeName, Value config, Value providerMeta) {
        return withSchema(s -> dataSchema(s, typeName).map(ds -> call("ReadDataSource", () -> {
            Type t = ds.block().impliedType();
            Tfplugin5.ReadDataSource.Response r = stub().readDataSource(Tfplugin5.ReadDataSource.Request.newBuilder()
                .setTypeName(typeName)
                .setProviderMeta(encode(providerMeta, metaType(s)))
                .setConfig(encode(config, t))
                .setClientCapabilities(clientCapabilities())
                .build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            Value state = r.hasState() && !isEmpty(r.getState()) ? decode(r.getState(), t) : null;
            return PluginResult.of(hasErrors(diags) ? null : state, diags);
        })).orElseGet(() -> unknownType("data source", typeName)));
    }

    @Override
    public PluginResult<Value> upgradeResourceState(String typeName, long version, byte[] rawStateJson) {
        return withSchema(s -> resourceSchema(s, typeName).map(rs -> call("UpgradeResourceState", () -> {
            Tfplugin5.UpgradeResourceState.Response r = stub().upgradeResourceState(
                Tfplugin5.UpgradeResourceState.Request.newBuilder()
                    .setTypeName(typeName)
                    .setVersion(version)
                    .setRawState(Tfplugin5.RawState.newBuilder().setJson(ByteString.copyFrom(rawStateJson)))
                    .build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            Value v = hasErrors(diags) || isEmpty(r.getUpgradedState()) ? null
                : decode(r.getUpgradedState(), rs.block().impliedType());
            return PluginResult.of(v, diags);
        })).orElseGet(() -> unknownType("resource type", typeName)));
    }

    @Override
    public PluginResult<ResourceResults.Read> readResource(String typeName, Value currentState, byte[] privateData,
                                                         Value providerMeta) {
        return withSchema(s -> resourceSchema(s, typeName).map(rs -> call("ReadResource", () -> {
            Type t = rs.block().impliedType();
            Tfplugin5.ReadResource.Response r = stub().readResource(Tfplugin5.ReadResource.Request.newBuilder()
                .setTypeName(typeName)
                .setProviderMeta(encode(providerMeta, metaType(s)))
                .setCurrentState(encode(currentState, t))
                .setPrivate(ByteString.copyFrom(privateData))
                .setClientCapabilities(clientCapabilities())
                .build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            if (hasErrors(diags)) {
                return PluginResult.<ResourceResults.Read>of(null, diags);
            }
            Value state = isEmpty(r.getNewState()) ? Value.nullValue(t) : decode(r.getNewState(), t);
            return PluginResult.of(new ResourceResults.Read(state, r.getPrivate().toByteArray(),
                r.hasDeferred() ? Optional.of(deferral(r.getDeferred())) : Optional.empty()), diags);
        })).orElseGet(() -> unknownType("resource type", typeName)));
    }

    @Override
    public PluginResult<ResourceResults.Plan> planResourceChange(String typeName, Value priorState, Value proposedNewState,
                                                                 Value config, byte[] priorPrivate, Value providerMeta) {
        return withSchema(s -> resourceSchema(s, typeName).map(rs -> call("PlanResourceChange", () -> {
            Type t = rs.block().impliedType();
            Tfplugin5.PlanResourceChange.Response r = stub().planResourceChange(Tfplugin5.PlanResourceChange.Request.newBuilder()
                .setTypeName(typeName)
                .setProviderMeta(encode(providerMeta, metaType(s)))
                .setPriorState(encode(priorState, t))
                .setProposedNewState(encode(proposedNewState, t))
                .setConfig(encode(config, t))
                .setPriorPrivate(ByteString.copyFrom(priorPrivate))
                .setClientCapabilities(clientCapabilities())
                .build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            if (hasErrors(diags)) {
                return PluginResult.<ResourceResults.Plan>of(null, diags);
            }
            List<List<PluginDiagnostic.PathStep>> replace = r.getRequiresReplaceList().stream().map(ProviderClientV5::path).toList();
            return PluginResult.of(new ResourceResults.Plan(decode(r.getPlannedState(), t), replace,
                r.getPlannedPrivate().toByteArray(), r.getLegacyTypeSystem(),
                r.hasDeferred() ? Optional.of(deferral(r.getDeferred())) : Optional.empty()), diags);
        })).orElseGet(() -> unknownType("resource type", typeName)));
    }

    @Override
    public PluginResult<ResourceResults.Apply> applyResourceChange(String typeName, Value priorState, Value plannedState,
                                                                   Value config, byte[] plannedPrivate, Value providerMeta) {
        return withSchema(s -> resourceSchema(s, typeName).map(rs -> call("ApplyResourceChange", () -> {
            Type t = rs.block().impliedType();
            Tfplugin5.ApplyResourceChange.Response r = stub().applyResourceChange(Tfplugin5.ApplyResourceChange.Request.newBuilder()
                .setTypeName(typeName)
                .setProviderMeta(encode(providerMeta, metaType(s)))
                .setPriorState(encode(priorState, t))
                .setPlannedState(encode(plannedState, t))
                .setConfig(encode(config, t))
                .setPlannedPrivate(ByteString.copyFrom(plannedPrivate))
                .build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            // A failed apply still reports the object's state as far as it got, so it is kept.
            Value state = isEmpty(r.getNewState()) ? Value.nullValue(t) : decode(r.getNewState(), t);
            return PluginResult.of(new ResourceResults.Apply(state, r.getPrivate().toByteArray(), r.getLegacyTypeSystem()), diags);
        })).orElseGet(() -> unknownType("resource type", typeName)));
    }

    @Override
    public PluginResult<List<ResourceResults.Imported>> importResourceState(String typeName, String id) {
        return withSchema(s -> resourceSchema(s, typeName).map(rs -> call("ImportResourceState", () -> {
            Tfplugin5.ImportResourceState.Response r = stub().importResourceState(Tfplugin5.ImportResourceState.Request.newBuilder()
                .setTypeName(typeName)
                .setId(id)
                .setClientCapabilities(clientCapabilities())
                .build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            if (hasErrors(diags)) {
                return PluginResult.<List<ResourceResults.Imported>>of(null, diags);
            }
            List<ResourceResults.Imported> out = new ArrayList<>();
            for (Tfplugin5.ImportResourceState.ImportedResource ir : r.getImportedResourcesList()) {
                Schema is = s.resourceSchemas().get(ir.getTypeName());
                if (is == null) {
                    throw new WireFormatException("imported object of unknown resource type \"" + ir.getTypeName() + "\"");
                }
                out.add(new ResourceResults.Imported(ir.getTypeName(), decode(ir.getState(), is.block().impliedType()),
                    ir.getPrivate().toByteArray()));
            }
            return PluginResult.of(out, diags);
        })).orElseGet(() -> unknownType("resource type", typeName)));
    }

    private static ResourceResults.DeferralReason deferral(Tfplugin5.Deferred d) {
        return switch (d.getReason()) {
            case RESOURCE_CONFIG_UNKNOWN -> ResourceResults.DeferralReason.RESOURCE_CONFIG_UNKNOWN;
            case PROVIDER_CONFIG_UNKNOWN -> ResourceResults.DeferralReason.PROVIDER_CONFIG_UNKNOWN;
            case ABSENT_PREREQ -> ResourceResults.DeferralReason.ABSENT_PREREQ;
            case UNKNOWN, UNRECOGNIZED -> ResourceResults.DeferralReason.UNKNOWN;
        };
    }

    @Override
    public PluginResult<Map<String, FunctionSignature>> getFunctions() {
        return call("GetFunctions", () -> {
            Tfplugin5.GetFunctions.Response r = stub().getFunctions(Tfplugin5.GetFunctions.Request.getDefaultInstance());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            return PluginResult.<Map<String, FunctionSignature>>of(
                hasErrors(diags) ? null : mapValues(r.getFunctionsMap(), ProviderClientV5::function), diags);
        });
    }

    @Override
    public PluginResult<dev.strata.provider.Provider.CallFunctionResponse> callFunction(String name, List<Value> arguments) {
        return withSchema(s -> {
            FunctionSignature f = s.functions().get(name);
            if (f == null) {
                return unknownType("function", name);
            }
            return call("CallFunction", () -> {
                List<Type> types = f.argumentTypes(arguments.size());
                Tfplugin5.CallFunction.Request.Builder req = Tfplugin5.CallFunction.Request.newBuilder().setName(name);
                for (int i = 0; i < arguments.size(); i++) {
                    req.addArguments(encode(arguments.get(i), types.get(i)));
                }
                Tfplugin5.CallFunction.Response r = stub().callFunction(req.build());
                if (r.hasError() && !r.getError().getText().isEmpty()) {
                    // A function's failure is its answer, not a failed call: the caller words the diagnostic.
                    return PluginResult.of(r.getError().hasFunctionArgument()
                        ? dev.strata.provider.Provider.CallFunctionResponse.failed(r.getError().getText(),
                            (int) r.getError().getFunctionArgument())
                        : dev.strata.provider.Provider.CallFunctionResponse.failed(r.getError().getText()), List.of());
                }
                return PluginResult.of(dev.strata.provider.Provider.CallFunctionResponse.of(
                    decode(r.getResult(), f.returnType())), List.of());
            });
        });
    }

    @Override
    public PluginResult<Void> stopProvider() {
        return call("Stop", () -> {
            Tfplugin5.Stop.Response r = stub().stop(Tfplugin5.Stop.Request.getDefaultInstance());
            if (!r.getError().isEmpty()) {
                return PluginResult.failed(Diagnostic.error("Failed to stop provider",
                    "Provider " + plugin.providerName() + " could not stop: " + r.getError(), null));
            }
            return PluginResult.of(null, List.of());
        });
    }

    @Override
    public void close() {
        plugin.close();
    }

    // ---- conversions -----------------------------------------------------------------------------

    private <T> PluginResult<T> withSchema(Function<ProviderSchema, PluginResult<T>> body) {
        PluginResult<ProviderSchema> s = getProviderSchema();
        if (s.value().isEmpty()) {
            return new PluginResult<>(Optional.empty(), s.diagnostics());
        }
        return body.apply(s.value().get());
    }

    private static Optional<Schema> resourceSchema(ProviderSchema s, String type) {
        return Optional.ofNullable(s.resourceSchemas().get(type));
    }

    private static Optional<Schema> dataSchema(ProviderSchema s, String type) {
        return Optional.ofNullable(s.dataSourceSchemas().get(type));
    }

    private <T> PluginResult<T> unknownType(String kind, String name) {
        return PluginResult.failed(Diagnostic.error("Invalid " + kind,
            "The provider " + plugin.providerName() + " does not support " + kind + " \"" + name + "\".", null));
    }

    private static Tfplugin5.ClientCapabilities clientCapabilities() {
        // Strata does not handle deferred responses or write-only attributes yet, so it claims neither.
        return Tfplugin5.ClientCapabilities.newBuilder().setDeferralAllowed(false).setWriteOnlyAttributesAllowed(false).build();
    }

    /** The type {@code provider_meta} values are encoded with: none declared is an empty block. */
    private static Type metaType(ProviderSchema s) {
        return s.providerMeta().map(m -> m.block().impliedType()).orElse(Type.emptyObject());
    }

    static Tfplugin5.DynamicValue encode(Value v, Type t) {
        return Tfplugin5.DynamicValue.newBuilder().setMsgpack(ByteString.copyFrom(MsgpackValues.encode(v, t))).build();
    }

    static Value decode(Tfplugin5.DynamicValue dv, Type t) {
        if (!dv.getMsgpack().isEmpty()) {
            return MsgpackValues.decode(dv.getMsgpack().toByteArray(), t);
        }
        if (!dv.getJson().isEmpty()) {
            return JsonValues.decode(dv.getJson().toByteArray(), t);
        }
        throw new WireFormatException("DynamicValue carries neither msgpack nor JSON");
    }

    private static boolean isEmpty(Tfplugin5.DynamicValue dv) {
        return dv.getMsgpack().isEmpty() && dv.getJson().isEmpty();
    }

    private static boolean hasErrors(List<PluginDiagnostic> diags) {
        return diags.stream().anyMatch(d -> d.diagnostic().isError());
    }

    static List<PluginDiagnostic> diagnostics(List<Tfplugin5.Diagnostic> in) {
        List<PluginDiagnostic> out = new ArrayList<>(in.size());
        for (Tfplugin5.Diagnostic d : in) {
            Severity sev = d.getSeverity() == Tfplugin5.Diagnostic.Severity.WARNING ? Severity.WARNING : Severity.ERROR;
            out.add(new PluginDiagnostic(new Diagnostic(sev, d.getSummary(), d.getDetail(), null, null), path(d.getAttribute())));
        }
        return out;
    }

    static List<PluginDiagnostic.PathStep> path(Tfplugin5.AttributePath p) {
        List<PluginDiagnostic.PathStep> path = new ArrayList<>();
        for (Tfplugin5.AttributePath.Step s : p.getStepsList()) {
            path.add(switch (s.getSelectorCase()) {
                case ATTRIBUTE_NAME -> new PluginDiagnostic.PathStep.AttributeName(s.getAttributeName());
                case ELEMENT_KEY_STRING -> new PluginDiagnostic.PathStep.ElementKeyString(s.getElementKeyString());
                case ELEMENT_KEY_INT -> new PluginDiagnostic.PathStep.ElementKeyInt(s.getElementKeyInt());
                case SELECTOR_NOT_SET -> throw new WireFormatException("attribute path step without a selector");
            });
        }
        return path;
    }

    static Schema schema(Tfplugin5.Schema s) {
        return new Schema(s.getVersion(), block(s.getBlock()));
    }

    static Block block(Tfplugin5.Schema.Block b) {
        TreeMap<String, Attribute> attrs = new TreeMap<>();
        for (Tfplugin5.Schema.Attribute a : b.getAttributesList()) {
            attrs.put(a.getName(), new Attribute(a.getName(), TypeJson.parse(a.getType().toByteArray()), Optional.empty(),
                a.getDescription(), a.getRequired(), a.getOptional(), a.getComputed(), a.getSensitive(),
                a.getDeprecated(), a.getWriteOnly(),
                a.getDescriptionKind() == Tfplugin5.StringKind.MARKDOWN));
        }
        TreeMap<String, NestedBlock> blocks = new TreeMap<>();
        for (Tfplugin5.Schema.NestedBlock nb : b.getBlockTypesList()) {
            blocks.put(nb.getTypeName(), new NestedBlock(nb.getTypeName(), nesting(nb.getNesting()), block(nb.getBlock()),
                nb.getMinItems(), nb.getMaxItems()));
        }
        return new Block(attrs, blocks, b.getDescription(), b.getDeprecated(),
            b.getDescriptionKind() == Tfplugin5.StringKind.MARKDOWN);
    }

    private static NestingMode nesting(Tfplugin5.Schema.NestedBlock.NestingMode m) {
        return switch (m) {
            case SINGLE -> NestingMode.SINGLE;
            case GROUP -> NestingMode.GROUP;
            case LIST -> NestingMode.LIST;
            case SET -> NestingMode.SET;
            case MAP -> NestingMode.MAP;
            case INVALID, UNRECOGNIZED -> throw new WireFormatException("block nesting mode " + m + " is not valid");
        };
    }

    static FunctionSignature function(Tfplugin5.Function f) {
        return new FunctionSignature(
            f.getParametersList().stream().map(ProviderClientV5::parameter).toList(),
            f.hasVariadicParameter() ? Optional.of(parameter(f.getVariadicParameter())) : Optional.empty(),
            TypeJson.parse(f.getReturn().getType().toByteArray()),
            f.getSummary(), f.getDescription(), f.getDeprecationMessage(),
            f.getDescriptionKind() == Tfplugin5.StringKind.MARKDOWN);
    }

    private static FunctionParameter parameter(Tfplugin5.Function.Parameter p) {
        return new FunctionParameter(p.getName(), TypeJson.parse(p.getType().toByteArray()), p.getAllowNullValue(),
            p.getAllowUnknownValues(), p.getDescription(),
            p.getDescriptionKind() == Tfplugin5.StringKind.MARKDOWN);
    }

    private static <A, B> TreeMap<String, B> mapValues(Map<String, A> in, Function<A, B> f) {
        TreeMap<String, B> out = new TreeMap<>();
        in.forEach((k, v) -> out.put(k, f.apply(v)));
        return out;
    }
}
