package dev.strata.engine;

import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Resource;
import dev.strata.addr.TerraformAttr;
import dev.strata.config.ConfigData;
import dev.strata.config.ReferenceScope;
import dev.strata.config.ScopeData;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The inspect phase (ARCHITECTURE §3.4) for {@code strata console}: the root module's resources and
 * data sources resolve to their recorded state (typed by the provider schema when one is available,
 * sensitive attributes marked); everything else (variables, locals, paths), and a resource or
 * instance the state lacks, is the configuration's. A local value that refers to a resource is still
 * evaluated from the configuration and is unknown.
 */
public final class InspectData implements ScopeData {
    private final ConfigData config;
    private final StateSnapshot state;
    private final Schemas schemas;

    private InspectData(ConfigData config, StateSnapshot state, Schemas schemas) {
        this.config = config;
        this.state = state;
        this.schemas = schemas;
    }

    /** The scope of the root module's configuration with its resources as {@code state} records them. */
    public static Scope scope(ConfigData config, StateSnapshot state, Schemas schemas) {
        return new ReferenceScope(new InspectData(config, state, schemas));
    }

    @Override
    public FunctionTable functions() {
        return config.functions();
    }

    @Override
    public Diagnostics invalidReference(Diagnostics problems) {
        return config.invalidReference(problems);
    }

    @Override
    public Result<Value> resource(Resource resource, InstanceKey key, SourceRange at) {
        Optional<ResourceState> rs = state.resource(StateAddrs.of(ModuleInstance.ROOT.resource(resource)));
        if (rs.isEmpty()) {
            return config.resource(resource, key, at);
        }
        Map<InstanceKey, Value> byKey = new TreeMap<>();
        for (ResourceInstanceObject o : rs.get().instances()) {
            if (o.deposed() == null) {
                byKey.put(StateAddrs.of(o.key()), schemas.decode(rs.get(), o).orElseGet(() -> StateValues.infer(
                        o.attributes())));
            }
        }
        if (key != null) {
            Value v = byKey.get(key);
            return v == null ? config.resource(resource, key, at) : Result.of(v);
        }
        if (byKey.size() == 1 && byKey.containsKey(InstanceKey.NONE)) {
            return Result.of(byKey.get(InstanceKey.NONE));
        }
        if (byKey.keySet().stream().allMatch(k -> k instanceof InstanceKey.IntKey)) {
            List<Value> els = new ArrayList<>(byKey.values());
            return Result.of(Value.tuple(els));
        }
        Map<String, Value> m = new TreeMap<>();
        byKey.forEach((k, v) -> m.put(k instanceof InstanceKey.StringKey s ? s.key() : k.toString(), v));
        return Result.of(Value.object(m));
    }

    @Override
    public Result<Value> inputVariable(InputVariable variable, SourceRange at) {
        return config.inputVariable(variable, at);
    }

    @Override
    public Result<Value> localValue(LocalValue local, SourceRange at) {
        return config.localValue(local, at);
    }

    @Override
    public Result<Value> moduleCall(ModuleCall call, InstanceKey key, String output, SourceRange at) {
        return config.moduleCall(call, key, output, at);
    }

    @Override
    public Result<Value> countIndex(SourceRange at) {
        return config.countIndex(at);
    }

    @Override
    public Result<Value> forEachAttr(ForEachAttr attr, SourceRange at) {
        return config.forEachAttr(attr, at);
    }

    @Override
    public Result<Value> pathAttr(PathAttr attr, SourceRange at) {
        return config.pathAttr(attr, at);
    }

    @Override
    public Result<Value> terraformAttr(TerraformAttr attr, SourceRange at) {
        return config.terraformAttr(attr, at);
    }

    @Override
    public Result<Value> self(SourceRange at) {
        return config.self(at);
    }
}
