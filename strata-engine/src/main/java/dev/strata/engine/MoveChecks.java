package dev.strata.engine;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Targetable;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleCallConfig;
import dev.strata.config.MovedConfig;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourceRange;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code moved} blocks Terraform refuses to plan with: a move from an address the configuration
 * still declares, and two moves that disagree about one end. Texts are Terraform 1.11's.
 */
final class MoveChecks {
    private MoveChecks() {}

    static Diagnostics validate(ConfigTree tree) {
        Diagnostics.Builder out = Diagnostics.builder();
        for (ConfigNode n : tree.nodes()) {
            Map<String, MovedConfig> byFrom = new HashMap<>();
            Map<String, MovedConfig> byTo = new HashMap<>();
            for (MovedConfig m : n.module().moved()) {
                stillDeclared(tree, n.path(), m, out);
                MovedConfig sameFrom = byFrom.putIfAbsent(m.from().toString(), m);
                if (sameFrom != null && !sameFrom.to().toString().equals(m.to().toString())) {
                    Noun noun = Noun.of(m.from());
                    out.add(Diagnostic.error(
                            "Ambiguous move statements",
                            "A statement at "
                                    + Moves.at(sameFrom.declRange()) + " declared that " + m.from() + " moved to "
                                    + sameFrom.to() + ", but this statement instead declares that it moved to " + m.to()
                                    + ".\n\nEach " + noun.full() + " can move to only one destination " + noun.brief()
                                    + ".",
                            m.declRange()));
                }
                MovedConfig sameTo = byTo.putIfAbsent(m.to().toString(), m);
                if (sameTo != null && !sameTo.from().toString().equals(m.from().toString())) {
                    Noun noun = Noun.of(m.to());
                    out.add(Diagnostic.error(
                            "Ambiguous move statements",
                            "A statement at "
                                    + Moves.at(sameTo.declRange()) + " declared that " + sameTo.from() + " moved to "
                                    + m.to()
                                    + ", but this statement instead declares that " + m.from()
                                    + " moved there.\n\nEach "
                                    + noun.full() + " can have moved from only one source " + noun.brief() + ".",
                            m.declRange()));
                }
            }
        }
        return out.build();
    }

    /**
     * A move from a resource or a module call that is still in the configuration: Terraform refuses
     * it rather than leaving the object where it is. (Single instances would need the expansion.)
     */
    private static void stillDeclared(ConfigTree tree, Module path, MovedConfig m, Diagnostics.Builder out) {
        // An end with a key makes the other an instance too (a resource moved to its index zero).
        boolean whole = !(m.from() instanceof AbsResourceInstance) && !(m.to() instanceof AbsResourceInstance);
        SourceRange declared = !whole
                ? null
                : switch (m.from()) {
                    case AbsResource r ->
                        tree.node(within(path, r.module()))
                                .map(n -> n.module().resources().get(r.resource()))
                                .map(ResourceConfig::declRange)
                                .orElse(null);
                    case ModuleInstance mi -> {
                        ModuleInstance.Step last = mi.steps().get(mi.steps().size() - 1);
                        if (!(last.key() instanceof InstanceKey.NoKey)
                                || !(m.to() instanceof ModuleInstance to)
                                || !(to.steps().get(to.steps().size() - 1).key() instanceof InstanceKey.NoKey)) {
                            yield null;
                        }
                        yield tree.node(within(path, mi.parent()))
                                .map(n -> n.module().moduleCalls().get(last.name()))
                                .map(ModuleCallConfig::declRange)
                                .orElse(null);
                    }
                    case AbsResourceInstance r -> null;
                };
        if (declared == null) {
            return;
        }
        Noun noun = Noun.of(m.from());
        out.add(Diagnostic.error(
                "Moved object still exists",
                "This statement declares a move from " + m.from()
                        + ", but that " + noun.full() + " is still declared at " + Moves.at(declared)
                        + ".\n\nChange your "
                        + "configuration so that this " + noun.brief() + " will be declared as " + m.to() + " instead.",
                m.declRange()));
    }

    private static Module within(Module path, ModuleInstance rel) {
        Module out = path;
        for (ModuleInstance.Step s : rel.steps()) {
            out = out.child(s.name());
        }
        return out;
    }

    /** How Terraform names what an address refers to, in full and for the second mention. */
    private record Noun(String full, String brief) {
        static Noun of(Targetable t) {
            return switch (t) {
                case AbsResource r -> new Noun("resource", "resource");
                case AbsResourceInstance r -> new Noun("resource instance", "instance");
                case ModuleInstance mi ->
                    mi.steps().get(mi.steps().size() - 1).key() instanceof InstanceKey.NoKey
                            ? new Noun("module call", "call")
                            : new Noun("module instance", "instance");
            };
        }
    }
}
