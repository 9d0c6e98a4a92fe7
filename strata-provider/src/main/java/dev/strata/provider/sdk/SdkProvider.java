package dev.strata.provider.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.addr.AttributePath;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import dev.strata.provider.SchemaValues;
import dev.strata.provider.ValueJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A {@link Provider} made of {@link ManagedResource}s and {@link DataSource}s. It does the
 * protocol's bookkeeping (dispatch by type name, unknown type names, schema checks) and plans with
 * the plugin framework's rules: defaults fill null optional+computed attributes, computed
 * attributes the configuration leaves null are unknown on create and on any update that changes
 * something (unless declared stable), and a change to a force-new attribute requires replacement.
 */
public class SdkProvider implements Provider {

    /**
     * Made on the first state upgrade, not with the class: an ObjectMapper costs a cold JVM 15-20 ms to
     * build, on the path of every command that configures a built-in provider, and a run that only
     * creates never upgrades a state.
     */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = new ObjectMapper();
    }

    private final ProviderSchema schema;
    private final Map<String, ManagedResource> resources = new LinkedHashMap<>();
    private final Map<String, DataSource> dataSources = new LinkedHashMap<>();
    private final EngineContext context;
    private volatile boolean stopRequested;

    public SdkProvider(
            Schema providerSchema, List<? extends ManagedResource> resources, List<? extends DataSource> dataSources) {
        this(providerSchema, resources, dataSources, new EngineContext());
    }

    /**
     * A provider whose resources and data sources share {@code context}, through which they see the
     * working directory and environment that {@code configure} was given.
     */
    public SdkProvider(
            Schema providerSchema,
            List<? extends ManagedResource> resources,
            List<? extends DataSource> dataSources,
            EngineContext context) {
        this.context = java.util.Objects.requireNonNull(context, "context");
        Map<String, Schema> rs = new TreeMap<>();
        for (ManagedResource r : resources) {
            this.resources.put(r.typeName(), r);
            rs.put(r.typeName(), r.schema());
        }
        Map<String, Schema> ds = new TreeMap<>();
        for (DataSource d : dataSources) {
            this.dataSources.put(d.typeName(), d);
            ds.put(d.typeName(), d.schema());
        }
        this.schema = new ProviderSchema(providerSchema, new TreeMap<>(rs), new TreeMap<>(ds));
    }

    @Override
    public ProviderSchema schema() {
        return schema;
    }

    /** Provider-specific configuration checks; the default has none. */
    protected void validateConfig(Value config, ProviderDiagnostics.Builder diags) {}

    /** Takes the provider configuration; the default needs none. */
    protected void configure(Value config, ProviderDiagnostics.Builder diags) {}

    /** The working directory and environment given to {@code configure}. */
    protected EngineContext context() {
        return context;
    }

    /** Whether {@link #stop()} was called, for long operations that should end early. */
    protected boolean stopRequested() {
        return stopRequested;
    }

    @Override
    public ProviderDiagnostics validateProviderConfig(Value config) {
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        diags.addAll(SchemaValues.checkConfig(schema.provider().block(), config));
        if (!diags.hasErrors()) {
            validateConfig(config, diags);
        }
        return diags.build();
    }

    @Override
    public ProviderDiagnostics configure(ConfigureRequest request) {
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        context.configured(request);
        configure(request.config(), diags);
        return diags.build();
    }

    @Override
    public ProviderDiagnostics validateResourceConfig(String typeName, Value config) {
        ManagedResource r = resources.get(typeName);
        if (r == null) {
            return unknownType("resource", typeName);
        }
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        diags.addAll(SchemaValues.checkConfig(r.schema().block(), config));
        if (!diags.hasErrors()) {
            r.validate(config, diags);
        }
        return diags.build();
    }

    @Override
    public ProviderDiagnostics validateDataResourceConfig(String typeName, Value config) {
        DataSource d = dataSources.get(typeName);
        if (d == null) {
            return unknownType("data source", typeName);
        }
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        diags.addAll(SchemaValues.checkConfig(d.schema().block(), config));
        if (!diags.hasErrors()) {
            d.validate(config, diags);
        }
        return diags.build();
    }

    @Override
    public PlanResponse planResourceChange(PlanRequest req) {
        ManagedResource r = resources.get(req.typeName());
        if (r == null) {
            return PlanResponse.failed(req.proposedNewState(), unknownType("resource", req.typeName()));
        }
        Value proposed = req.proposedNewState();
        if (proposed.isNull()) {
            return new PlanResponse(proposed, List.of(), req.priorPrivate(), ProviderDiagnostics.NONE);
        }
        Block block = r.schema().block();
        Value prior = req.priorState();
        Value config = req.config();
        // Write-only values are the configuration's alone: never planned, as the plugin frameworks null them.
        Value planned = dev.strata.provider.SchemaValues.nullWriteOnly(block, proposed);
        Set<String> defaulted = new java.util.HashSet<>();
        for (Map.Entry<String, Value> d : r.defaults().entrySet()) {
            if (isNull(config, d.getKey())) {
                planned = Attrs.with(planned, d.getKey(), d.getValue());
                defaulted.add(d.getKey());
            }
        }
        List<AttributePath> replace = new ArrayList<>();
        if (!prior.isNull()) {
            for (String name : r.forceNew()) {
                Value before = Attrs.get(prior, name);
                Value after = Attrs.get(planned, name);
                if (!after.isWhollyKnown() || !before.equalsIgnoringMarks(after)) {
                    replace.add(AttributePath.of(name));
                }
            }
        }
        boolean changing = prior.isNull() || !replace.isEmpty() || !prior.equalsIgnoringMarks(planned);
        if (changing) {
            for (Map.Entry<String, Attribute> e : block.attributes().entrySet()) {
                String name = e.getKey();
                boolean keep = !prior.isNull()
                        && replace.isEmpty()
                        && r.stableComputed().contains(name);
                if (e.getValue().computed() && isNull(config, name) && !defaulted.contains(name) && !keep) {
                    planned =
                            Attrs.with(planned, name, Value.unknown(e.getValue().type()));
                }
            }
        }
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        Value finalPlanned = planned;
        Value modified = r.modifyPlan(
                new ManagedResource.PlanContext() {
                    @Override
                    public Value prior() {
                        return prior;
                    }

                    @Override
                    public Value config() {
                        return config;
                    }

                    @Override
                    public Value planned() {
                        return finalPlanned;
                    }

                    @Override
                    public List<AttributePath> requiresReplace() {
                        return replace;
                    }
                },
                diags);
        return new PlanResponse(modified == null ? planned : modified, replace, req.priorPrivate(), diags.build());
    }

    private static boolean isNull(Value object, String name) {
        Value v = object.attributes().get(name);
        return v == null || (v.isKnown() && v.isNull());
    }

    @Override
    public ApplyResponse applyResourceChange(ApplyRequest req) {
        ManagedResource r = resources.get(req.typeName());
        if (r == null) {
            return new ApplyResponse(req.priorState(), req.plannedPrivate(), unknownType("resource", req.typeName()));
        }
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        Value prior = req.priorState();
        Value planned = req.plannedState();
        Value newState;
        try {
            if (planned.isNull()) {
                r.delete(prior, diags);
                newState = diags.hasErrors() ? prior : planned;
            } else if (prior.isNull()) {
                newState = r.create(planned, req.config(), req.idempotencyToken(), diags);
                if (newState == null) {
                    newState = prior;
                }
            } else {
                newState = r.update(prior, planned, req.config(), diags);
                if (newState == null) {
                    newState = prior;
                }
            }
        } catch (RuntimeException e) {
            diags.add(crash(e));
            newState = prior;
        }
        return new ApplyResponse(newState, req.plannedPrivate(), diags.build());
    }

    @Override
    public ReadResponse readResource(ReadRequest req) {
        ManagedResource r = resources.get(req.typeName());
        if (r == null) {
            return new ReadResponse(req.currentState(), req.currentPrivate(), unknownType("resource", req.typeName()));
        }
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        Value state;
        try {
            state = r.read(req.currentState(), diags);
        } catch (RuntimeException e) {
            diags.add(crash(e));
            state = req.currentState();
        }
        if (state == null) {
            state = diags.hasErrors() ? req.currentState() : r.schema().block().nullValue();
        }
        return new ReadResponse(state, req.currentPrivate(), diags.build());
    }

    @Override
    public ImportResponse importResourceState(ImportRequest req) {
        ManagedResource r = resources.get(req.typeName());
        if (r == null) {
            return new ImportResponse(List.of(), unknownType("resource", req.typeName()));
        }
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        Value state = r.importState(req.id(), diags);
        if (state == null || diags.hasErrors()) {
            return new ImportResponse(List.of(), diags.build());
        }
        return new ImportResponse(List.of(new ImportedResource(req.typeName(), state, null)), diags.build());
    }

    @Override
    public UpgradeResponse upgradeResourceState(UpgradeRequest req) {
        ManagedResource r = resources.get(req.typeName());
        if (r == null) {
            return new UpgradeResponse(Value.NULL, unknownType("resource", req.typeName()));
        }
        Block block = r.schema().block();
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        try {
            JsonNode raw = Mapper.INSTANCE.readTree(req.rawStateJson());
            if (req.version() == r.schema().version()) {
                return new UpgradeResponse(ValueJson.fromNode(raw, block.impliedType()), ProviderDiagnostics.NONE);
            }
            if (req.version() > r.schema().version()) {
                diags.add(ProviderDiagnostic.error(
                        "Resource instance managed by newer provider version",
                        "The current state of this " + req.typeName() + " was created by a newer provider version"
                                + " (schema version " + req.version() + ") than this one ("
                                + r.schema().version()
                                + "). Use the newer provider version."));
                return new UpgradeResponse(block.nullValue(), diags.build());
            }
            Value v = r.upgrade(req.version(), raw, diags);
            return new UpgradeResponse(v == null ? block.nullValue() : v, diags.build());
        } catch (IOException | IllegalArgumentException e) {
            diags.add(ProviderDiagnostic.error(
                    "Unable to read resource state",
                    "The stored state of this " + req.typeName() + " does not match its schema: " + e.getMessage()));
            return new UpgradeResponse(block.nullValue(), diags.build());
        }
    }

    @Override
    public ReadDataResponse readDataSource(ReadDataRequest req) {
        DataSource d = dataSources.get(req.typeName());
        if (d == null) {
            return new ReadDataResponse(req.config(), unknownType("data source", req.typeName()));
        }
        ProviderDiagnostics.Builder diags = ProviderDiagnostics.builder();
        Value state;
        try {
            state = d.read(req.config(), diags);
        } catch (RuntimeException e) {
            diags.add(crash(e));
            state = null;
        }
        return new ReadDataResponse(state == null ? d.schema().block().nullValue() : state, diags.build());
    }

    @Override
    public ProviderDiagnostics stop() {
        stopRequested = true;
        return ProviderDiagnostics.NONE;
    }

    private ProviderDiagnostics unknownType(String kind, String typeName) {
        List<String> names = new ArrayList<>(kind.equals("resource") ? resources.keySet() : dataSources.keySet());
        return ProviderDiagnostics.error(
                "Invalid " + kind + " type",
                "This provider does not support " + kind + " type \"" + typeName + "\". Its " + kind + " types are: "
                        + (names.isEmpty() ? "none" : String.join(", ", names)) + ".");
    }

    // A bug in provider code must not take the engine down with it, nor lose the object: the
    // caller keeps the prior state. The message is the exception's type only, since exception
    // messages may quote values.
    private static ProviderDiagnostic crash(RuntimeException e) {
        return ProviderDiagnostic.error(
                "Provider internal error",
                "The provider failed unexpectedly (" + e.getClass().getSimpleName() + "). This is a bug in the"
                        + " provider; please report it.");
    }
}
