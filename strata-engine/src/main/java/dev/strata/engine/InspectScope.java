package dev.strata.engine;

import dev.strata.addr.AbsResource;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
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
 * sensitive attributes marked); everything else (variables, locals, paths) is the configuration
 * scope's. A local value that refers to a resource is still evaluated by the configuration scope and
 * is unknown.
 */
public final class InspectScope implements Scope {
    private final Scope config;
    private final StateSnapshot state;
    private final Schemas schemas;

    public InspectScope(Scope config, StateSnapshot state, Schemas schemas) {
        this.config = config;
        this.state = state;
        this.schemas = schemas;
    }

    @Override
    public FunctionTable functions() {
        return config.functions();
    }

    @Override
    public Result<Resolved> resolve(Traversal t) {
        Result<Reference> parsed = Reference.parse(t);
        if (parsed.value() == null) {
            return config.resolve(t);
        }
        Reference ref = parsed.value();
        int consumed = t.steps().size() - ref.remaining().size();
        return switch (ref.subject()) {
            case Resource r -> recorded(ModuleInstance.ROOT.resource(r), null, consumed, t);
            case ResourceInstance ri -> recorded(ModuleInstance.ROOT.resource(ri.resource()), ri.key(), consumed, t);
            default -> config.resolve(t);
        };
    }

    private Result<Resolved> recorded(AbsResource r, InstanceKey key, int consumed, Traversal t) {
        Optional<ResourceState> rs = state.resource(r);
        if (rs.isEmpty()) {
            return config.resolve(t);
        }
        Map<InstanceKey, Value> byKey = new TreeMap<>();
        for (ResourceInstanceObject o : rs.get().instances()) {
            if (o.deposed() == null) {
                byKey.put(o.key(), schemas.decode(rs.get(), o).orElseGet(() -> StateValues.infer(
                        o.attributes())));
            }
        }
        if (key != null) {
            Value v = byKey.get(key);
            return v == null ? config.resolve(t) : Result.of(new Resolved(v, consumed));
        }
        if (byKey.size() == 1 && byKey.containsKey(InstanceKey.NONE)) {
            return Result.of(new Resolved(byKey.get(InstanceKey.NONE), consumed));
        }
        if (byKey.keySet().stream().allMatch(k -> k instanceof InstanceKey.IntKey)) {
            List<Value> els = new ArrayList<>(byKey.values());
            return Result.of(new Resolved(Value.tuple(els), consumed));
        }
        Map<String, Value> m = new TreeMap<>();
        byKey.forEach((k, v) -> m.put(k instanceof InstanceKey.StringKey s ? s.key() : k.toString(), v));
        return Result.of(new Resolved(Value.object(m), consumed));
    }
}
