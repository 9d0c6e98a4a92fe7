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
import dev.strata.state.ResourceInstanceAddr;
import dev.strata.state.StateAddress;
import dev.strata.state.StateEdits;
import dev.strata.state.StateSnapshot;
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
                String from = absolute(mi, m.from());
                String to = absolute(mi, m.to());
                Result<StateAddress> src = StateAddress.parse(from);
                Result<StateAddress> dst = StateAddress.parse(to);
                if (src.value() == null || dst.value() == null) {
                    continue;
                }
                if (StateEdits.matching(s, src.value()).isEmpty() || !StateEdits.matching(s, dst.value()).isEmpty()) {
                    continue;
                }
                List<ResourceInstanceAddr> before = StateEdits.matching(s, src.value());
                Result<StateSnapshot> moved = StateEdits.move(s, src.value(), dst.value());
                if (moved.value() == null) {
                    for (Diagnostic d : moved.diagnostics()) {
                        diags.add(Diagnostic.error(d.summary(), d.detail(), m.declRange()));
                    }
                    continue;
                }
                List<ResourceInstanceAddr> after = StateEdits.matching(moved.value(), dst.value());
                if (before.size() == after.size()) {
                    for (int i = 0; i < before.size(); i++) {
                        previous.put(StateAddrs.of(after.get(i)), StateAddrs.of(before.get(i)));
                    }
                }
                s = moved.value();
            }
        }
        return new Applied(s, previous, diags.build());
    }

    private static String absolute(ModuleInstance mi, Targetable t) {
        String rel = switch (t) {
            case ModuleInstance m -> m.toString();
            case AbsResource r -> r.toString();
            case AbsResourceInstance r -> r.toString();
        };
        return mi.isRoot() ? rel : mi + "." + rel;
    }

}
