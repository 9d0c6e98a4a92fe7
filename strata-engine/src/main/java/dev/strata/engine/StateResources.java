package dev.strata.engine;

import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.config.RecordedResources;
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
 * The inspect phase's data (ARCHITECTURE §3.4) for {@code strata console}: the root module's resources
 * and data sources as the state records them, typed by the provider schema when one is available,
 * sensitive attributes marked. What the state lacks, and everything else (variables, locals, paths),
 * is the configuration's; a local value that refers to a resource is evaluated from the configuration
 * and is unknown.
 */
public final class StateResources implements RecordedResources {
    private final StateSnapshot state;
    private final Schemas schemas;

    public StateResources(StateSnapshot state, Schemas schemas) {
        this.state = state;
        this.schemas = schemas;
    }

    @Override
    public Optional<Value> value(Resource resource, InstanceKey key) {
        Optional<ResourceState> rs = state.resource(ModuleInstance.ROOT.resource(resource));
        if (rs.isEmpty()) {
            return Optional.empty();
        }
        Map<InstanceKey, Value> byKey = new TreeMap<>();
        for (ResourceInstanceObject o : rs.get().instances()) {
            if (o.deposed() == null) {
                byKey.put(o.key(), schemas.decode(rs.get(), o).orElseGet(() -> StateValues.infer(o.attributes())));
            }
        }
        if (key != null) {
            return Optional.ofNullable(byKey.get(key));
        }
        if (byKey.size() == 1 && byKey.containsKey(InstanceKey.NONE)) {
            return Optional.of(byKey.get(InstanceKey.NONE));
        }
        if (byKey.keySet().stream().allMatch(k -> k instanceof InstanceKey.IntKey)) {
            List<Value> els = new ArrayList<>(byKey.values());
            return Optional.of(Value.tuple(els));
        }
        Map<String, Value> m = new TreeMap<>();
        byKey.forEach((k, v) -> m.put(k instanceof InstanceKey.StringKey s ? s.key() : k.toString(), v));
        return Optional.of(Value.object(m));
    }
}
