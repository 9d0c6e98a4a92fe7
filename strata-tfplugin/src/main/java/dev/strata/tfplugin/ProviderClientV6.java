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
import dev.strata.tfplugin.proto.v6.ProviderGrpc;
import dev.strata.tfplugin.proto.v6.Tfplugin6;
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
 * A client for a provider speaking plugin protocol 6. Each call converts Strata values to the
 * wire with the schema of the object involved, so the provider schema is fetched (once) before
 * the first call that needs it. Calls are bounded by the call timeout; a crashed or hung plugin
 * becomes an error diagnostic, never a hang or an exception.
 */
public final class ProviderClientV6 implements ProviderClient {
    private final PluginProcess plugin;
    private final ProviderGrpc.ProviderBlockingStub stub;
    private final Duration callTimeout;
    private volatile ProviderSchema schema;

    public ProviderClientV6(PluginProcess plugin, Duration callTimeout) {
        if (plugin.protocolVersion() != 6) {
            throw new IllegalArgumentException("plugin negotiated protocol " + plugin.protocolVersion() + ", not 6");
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
        return call("GetProviderSchema", () -> {
            Tfplugin6.GetProviderSchema.Response r = stub().getProviderSchema(Tfplugin6.GetProviderSchema.Request.getDefaultInstance());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            if (hasErrors(diags)) {
                return PluginResult.of(null, diags);
            }
            ProviderSchema s = new ProviderSchema(
                schema(r.getProvider()),
                r.hasProviderMeta() ? Optional.of(schema(r.getProviderMeta())) : Optional.empty(),
                mapValues(r.getResourceSchemasMap(), ProviderClientV6::schema),
                mapValues(r.getDataSourceSchemasMap(), ProviderClientV6::schema),
                mapValues(r.getFunctionsMap(), ProviderClientV6::function),
                new ProviderSchema.ServerCapabilities(r.getServerCapabilities().getPlanDestroy(),
                    r.getServerCapabilities().getGetProviderSchemaOptional(),
                    r.getServerCapabilities().getMoveResourceState()),
                mapValues(r.getEphemeralResourceSchemasMap(), ProviderClientV6::schema));
            schema = s;
            return PluginResult.of(s, diags);
        });
    }

    /** Protocol 6 validates without changing the configuration, so the given value comes back. */
    @Override
    public PluginResult<Value> validateProviderConfig(Value config) {
        return withSchema(s -> call("ValidateProviderConfig", () -> {
            Tfplugin6.ValidateProviderConfig.Response r = stub().validateProviderConfig(
                Tfplugin6.ValidateProviderConfig.Request.newBuilder()
                    .setConfig(encode(config, s.provider().block().impliedType())).build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            return PluginResult.of(hasErrors(diags) ? null : config, diags);
        }));
    }

    @Override
    public PluginResult<Void> configureProvider(String terraformVersion, Value config) {
        return withSchema(s -> call("ConfigureProvider", () -> {
            Tfplugin6.ConfigureProvider.Response r = stub().configureProvider(Tfplugin6.ConfigureProvider.Request.newBuilder()
                .setTerraformVersion(terraformVersion)
                .setConfig(encode(config, s.provider().block().impliedType()))
                .setClientCapabilities(clientCapabilities())
                .build());
            return PluginResult.of(null, diagnostics(r.getDiagnosticsList()));
        }));
    }

    @Override
    public PluginResult<Void> validateResourceConfig(String typeName, Value config) {
        return withSchema(s -> resourceSchema(s, typeName).map(rs -> call("ValidateResourceConfig", () -> {
            Tfplugin6.ValidateResourceConfig.Response r = stub().validateResourceConfig(
                Tfplugin6.ValidateResourceConfig.Request.newBuilder()
                    .setTypeName(typeName)
                    .setConfig(encode(config, rs.block().impliedType()))
                    .setClientCapabilities(clientCapabilities())
                    .build());
            return PluginResult.<Void>of(null, diagnostics(r.getDiagnosticsList()));
        })).orElseGet(() -> unknownType("resource type", typeName)));
    }

    @Override
    public PluginResult<Void> validateDataResourceConfig(String typeName, Value config) {
        return withSchema(s -> dataSchema(s, typeName).map(ds -> call("ValidateDataResourceConfig", () -> {
            Tfplugin6.ValidateDataResourceConfig.Response r = stub().validateDataResourceConfig(
                Tfplugin6.ValidateDataResourceConfig.Request.newBuilder()
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
            Tfplugin6.ReadDataSource.Response r = stub().readDataSource(Tfplugin6.ReadDataSource.Request.newBuilder()
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
            Tfplugin6.UpgradeResourceState.Response r = stub().upgradeResourceState(
                Tfplugin6.UpgradeResourceState.Request.newBuilder()
                    .setTypeName(typeName)
                    .setVersion(version)
                    .setRawState(Tfplugin6.RawState.newBuilder().setJson(ByteString.copyFrom(rawStateJson)))
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
            Tfplugin6.ReadResource.Response r = stub().readResource(Tfplugin6.ReadResource.Request.newBuilder()
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
            Tfplugin6.PlanResourceChange.Response r = stub().planResourceChange(Tfplugin6.PlanResourceChange.Request.newBuilder()
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
            List<List<PluginDiagnostic.PathStep>> replace = r.getRequiresReplaceList().stream().map(ProviderClientV6::path).toList();
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
            Tfplugin6.ApplyResourceChange.Response r = stub().applyResourceChange(Tfplugin6.ApplyResourceChange.Request.newBuilder()
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
            Tfplugin6.ImportResourceState.Response r = stub().importResourceState(Tfplugin6.ImportResourceState.Request.newBuilder()
                .setTypeName(typeName)
                .setId(id)
                .setClientCapabilities(clientCapabilities())
                .build());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            if (hasErrors(diags)) {
                return PluginResult.<List<ResourceResults.Imported>>of(null, diags);
            }
            List<ResourceResults.Imported> out = new ArrayList<>();
            for (Tfplugin6.ImportResourceState.ImportedResource ir : r.getImportedResourcesList()) {
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

    private static ResourceResults.DeferralReason deferral(Tfplugin6.Deferred d) {
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
            Tfplugin6.GetFunctions.Response r = stub().getFunctions(Tfplugin6.GetFunctions.Request.getDefaultInstance());
            List<PluginDiagnostic> diags = diagnostics(r.getDiagnosticsList());
            return PluginResult.<Map<String, FunctionSignature>>of(
                hasErrors(diags) ? null : mapValues(r.getFunctionsMap(), ProviderClientV6::function), diags);
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
                Tfplugin6.CallFunction.Request.Builder req = Tfplugin6.CallFunction.Request.newBuilder().setName(name);
                for (int i = 0; i < arguments.size(); i++) {
                    req.addArguments(encode(arguments.get(i), types.get(i)));
                }
                Tfplugin6.CallFunction.Response r = stub().callFunction(req.build());
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
        return call("StopProvider", () -> {
            Tfplugin6.StopProvider.Response r = stub().stopProvider(Tfplugin6.StopProvider.Request.getDefaultInstance());
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

    private static Tfplugin6.ClientCapabilities clientCapabilities() {
        // Strata does not handle deferred responses or write-only attributes yet, so it claims neither.
        return Tfplugin6.ClientCapabilities.newBuilder().setDeferralAllowed(false).setWriteOnlyAttributesAllowed(false).build();
    }

    /** The type {@code provider_meta} values are encoded with: none declared is an empty block. */
    private static Type metaType(ProviderSchema s) {
        return s.providerMeta().map(m -> m.block().impliedType()).orElse(Type.emptyObject());
    }

    static Tfplugin6.DynamicValue encode(Value v, Type t) {
        return Tfplugin6.DynamicValue.newBuilder().setMsgpack(ByteString.copyFrom(MsgpackValues.encode(v, t))).build();
    }

    static Value decode(Tfplugin6.DynamicValue dv, Type t) {
        if (!dv.getMsgpack().isEmpty()) {
            return MsgpackValues.decode(dv.getMsgpack().toByteArray(), t);
        }
        if (!dv.getJson().isEmpty()) {
            return JsonValues.decode(dv.getJson().toByteArray(), t);
        }
        throw new WireFormatException("DynamicValue carries neither msgpack nor JSON");
    }

    private static boolean isEmpty(Tfplugin6.DynamicValue dv) {
        return dv.getMsgpack().isEmpty() && dv.getJson().isEmpty();
    }

    private static boolean hasErrors(List<PluginDiagnostic> diags) {
        return diags.stream().anyMatch(d -> d.diagnostic().isError());
    }

    static List<PluginDiagnostic> diagnostics(List<Tfplugin6.Diagnostic> in) {
        List<PluginDiagnostic> out = new ArrayList<>(in.size());
        for (Tfplugin6.Diagnostic d : in) {
            Severity sev = d.getSeverity() == Tfplugin6.Diagnostic.Severity.WARNING ? Severity.WARNING : Severity.ERROR;
            out.add(new PluginDiagnostic(new Diagnostic(sev, d.getSummary(), d.getDetail(), null, null), path(d.getAttribute())));
        }
        return out;
    }

    static List<PluginDiagnostic.PathStep> path(Tfplugin6.AttributePath p) {
        List<PluginDiagnostic.PathStep> path = new ArrayList<>();
        for (Tfplugin6.AttributePath.Step s : p.getStepsList()) {
            path.add(switch (s.getSelectorCase()) {
                case ATTRIBUTE_NAME -> new PluginDiagnostic.PathStep.AttributeName(s.getAttributeName());
                case ELEMENT_KEY_STRING -> new PluginDiagnostic.PathStep.ElementKeyString(s.getElementKeyString());
                case ELEMENT_KEY_INT -> new PluginDiagnostic.PathStep.ElementKeyInt(s.getElementKeyInt());
                case SELECTOR_NOT_SET -> throw new WireFormatException("attribute path step without a selector");
            });
        }
        return path;
    }

    static Schema schema(Tfplugin6.Schema s) {
        return new Schema(s.getVersion(), block(s.getBlock()));
    }

    static Block block(Tfplugin6.Schema.Block b) {
        TreeMap<String, NestedBlock> blocks = new TreeMap<>();
        for (Tfplugin6.Schema.NestedBlock nb : b.getBlockTypesList()) {
            blocks.put(nb.getTypeName(), new NestedBlock(nb.getTypeName(), nesting(nb.getNesting()), block(nb.getBlock()),
                nb.getMinItems(), nb.getMaxItems()));
        }
        return new Block(attributes(b.getAttributesList()), blocks, b.getDescription(), b.getDeprecated(),
            b.getDescriptionKind() == Tfplugin6.StringKind.MARKDOWN);
    }

    private static TreeMap<String, Attribute> attributes(List<Tfplugin6.Schema.Attribute> in) {
        TreeMap<String, Attribute> attrs = new TreeMap<>();
        for (Tfplugin6.Schema.Attribute a : in) {
            // Protocol 6 attributes carry either a cty type or nested attributes, never both.
            Optional<ProviderSchema.NestedAttributes> nested = a.hasNestedType()
                ? Optional.of(new ProviderSchema.NestedAttributes(objectNesting(a.getNestedType().getNesting()),
                    attributes(a.getNestedType().getAttributesList())))
                : Optional.empty();
            Type type = nested.map(ProviderSchema.NestedAttributes::impliedType)
                .orElseGet(() -> TypeJson.parse(a.getType().toByteArray()));
            attrs.put(a.getName(), new Attribute(a.getName(), type, nested, a.getDescription(), a.getRequired(),
                a.getOptional(), a.getComputed(), a.getSensitive(), a.getDeprecated(), a.getWriteOnly(),
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
            case INVALID, UNRECOGNIZED -> throw new WireFormatException("attribute nesting mode " + m + " is not valid");
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
            f.getParametersList().stream().map(ProviderClientV6::parameter).toList(),
            f.hasVariadicParameter() ? Optional.of(parameter(f.getVariadicParameter())) : Optional.empty(),
            TypeJson.parse(f.getReturn().getType().toByteArray()),
            f.getSummary(), f.getDescription(), f.getDeprecationMessage(),
            f.getDescriptionKind() == Tfplugin6.StringKind.MARKDOWN);
    }

    private static FunctionParameter parameter(Tfplugin6.Function.Parameter p) {
        return new FunctionParameter(p.getName(), TypeJson.parse(p.getType().toByteArray()), p.getAllowNullValue(),
            p.getAllowUnknownValues(), p.getDescription(),
            p.getDescriptionKind() == Tfplugin6.StringKind.MARKDOWN);
    }

    private static <A, B> TreeMap<String, B> mapValues(Map<String, A> in, Function<A, B> f) {
        TreeMap<String, B> out = new TreeMap<>();
        in.forEach((k, v) -> out.put(k, f.apply(v)));
        return out;
    }
}
