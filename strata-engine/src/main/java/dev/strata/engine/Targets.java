package dev.strata.engine;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Targetable;
import java.util.List;

/** Matching of {@code -target} and {@code -exclude} addresses against graph vertices and instances. */
final class Targets {
    private Targets() {}

    static boolean matchesResource(List<Targetable> targets, Node.ResourceNode rn) {
        for (Targetable t : targets) {
            AbsResource r = switch (t) {
                case AbsResource ar -> ar;
                case AbsResourceInstance ai -> ai.containingResource();
                case ModuleInstance mi -> null;
            };
            if (r != null
                    && r.module().module().equals(rn.module())
                    && r.resource().equals(rn.resource())) {
                return true;
            }
        }
        return false;
    }

    static boolean matchesModule(List<Targetable> targets, Module m) {
        for (Targetable t : targets) {
            if (t instanceof ModuleInstance mi && !mi.isRoot() && mi.module().equals(m)) {
                return true;
            }
        }
        return false;
    }

    /** Whether an instance is inside the targets; everything is without targets. */
    static boolean matchesInstance(List<Targetable> targets, AbsResourceInstance ai) {
        if (targets.isEmpty()) {
            return true;
        }
        for (Targetable t : targets) {
            boolean hit = switch (t) {
                case AbsResource ar -> ar.equals(ai.containingResource());
                case AbsResourceInstance x -> x.equals(ai);
                case ModuleInstance mi -> mi.targetContains(ai.module());
            };
            if (hit) {
                return true;
            }
        }
        return false;
    }

    /** Whether an instance is named by one of the {@code -exclude} addresses; nothing is without excludes. */
    static boolean excludesInstance(List<Targetable> excludes, AbsResourceInstance ai) {
        return !excludes.isEmpty() && matchesInstance(excludes, ai);
    }
}
