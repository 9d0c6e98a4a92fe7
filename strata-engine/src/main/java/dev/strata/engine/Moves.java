package dev.strata.engine;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Targetable;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.MovedConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.state.StateEdits;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code moved} blocks, applied to the prior state before planning as Terraform does: an object at
 * the old address with nothing at the new one moves, and its planned change records where it was.
 * Moves in a module apply to the module's unkeyed instance (the common case of a singular module).
 */
final class Moves {
    private Moves() {}

    /** The moved state, and for each new instance address the old one. */
    record Applied(StateSnapshot state, Map<AbsResourceInstance, AbsResourceInstance> previous, Diagnostics diagnostics) {}

    static Applied apply(ConfigTree tree, StateSnapshot state) {
        Map<AbsResourceInstance, AbsResourceInstance> previous = new HashMap<>();
        Diagnostics.Builder diags = Diagnostics.builder();
        StateSnapshot s = state;
        for (ConfigNode n : tree.nodes()) {
            ModuleInstance mi = n.path().unkeyedInstance();
            for (MovedConfig m : n.module().moved()) {
                Targetable src = absolute(mi, m.from());
                Targetable dst = absolute(mi, m.to());
                if (StateEdits.matching(s, src).isEmpty() || !StateEdits.matching(s, dst).isEmpty()) {
                    continue;
                }
                List<AbsResourceInstance> before = StateEdits.matching(s, src);
                Result<StateSnapshot> moved = StateEdits.move(s, src, dst);
                if (moved.value() == null) {
                    for (Diagnostic d : moved.diagnostics()) {
                        diags.add(Diagnostic.error(d.summary(), d.detail(), m.declRange()));
                    }
                    continue;
                }
                List<AbsResourceInstance> after = StateEdits.matching(moved.value(), dst);
                if (before.size() == after.size()) {
                    for (int i = 0; i < before.size(); i++) {
                        previous.put(after.get(i), before.get(i));
                    }
                }
                s = moved.value();
            }
        }
        return new Applied(s, previous, diags.build());
    }

    private static Targetable absolute(ModuleInstance mi, Targetable t) {
        return switch (t) {
            case ModuleInstance m -> within(mi, m);
            case AbsResource r -> within(mi, r.module()).resource(r.resource());
            case AbsResourceInstance r -> within(mi, r.module()).resourceInstance(r.resource());
        };
    }

    private static ModuleInstance within(ModuleInstance outer, ModuleInstance inner) {
        List<ModuleInstance.Step> steps = new ArrayList<>(outer.steps());
        steps.addAll(inner.steps());
        return new ModuleInstance(steps);
    }

}
