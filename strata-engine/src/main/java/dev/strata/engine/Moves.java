package dev.strata.engine;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.addr.Targetable;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.MovedConfig;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateEdits;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code moved} blocks, applied to the prior state before planning as Terraform does: an object at
 * the old address with nothing at the new one moves, and its planned change records where it was.
 * Chained statements take an object to the end of the chain; the statements that would move an object
 * onto one that is still there are reported in a warning. Moves in a module apply to the module's
 * unkeyed instance (the common case of a singular module).
 */
final class Moves {
    private Moves() {}

    /** The moved state, and for each new instance address the old one. */
    record Applied(
            StateSnapshot state, Map<AbsResourceInstance, AbsResourceInstance> previous, Diagnostics diagnostics) {}

    /** One move with both ends absolute; {@code config} is null for a move Terraform implies. */
    private record Statement(Targetable from, Targetable to, MovedConfig config) {
        boolean implied() {
            return config == null;
        }
    }

    static Applied apply(ConfigTree tree, StateSnapshot state) {
        List<Statement> explicit = new ArrayList<>();
        for (ConfigNode n : tree.nodes()) {
            ModuleInstance mi = n.path().unkeyedInstance();
            for (MovedConfig m : n.module().moved()) {
                explicit.add(new Statement(absolute(mi, m.from()), absolute(mi, m.to()), m));
            }
        }
        Diagnostics invalid = MoveChecks.validate(tree);
        if (invalid.hasErrors()) {
            return new Applied(state, Map.of(), invalid);
        }
        List<Statement> all = new ArrayList<>(explicit);
        all.addAll(implied(tree, state, explicit));
        Diagnostics cycles = cycles(all);
        if (cycles.hasErrors()) {
            return new Applied(state, Map.of(), cycles);
        }
        Diagnostics.Builder diags = Diagnostics.builder();
        Map<AbsResourceInstance, AbsResourceInstance> previous = new HashMap<>();
        Set<String> blocked = new LinkedHashSet<>();
        StateSnapshot s = state;
        for (Statement st : reverseChainOrder(all)) {
            Set<AbsResourceInstance> present = new HashSet<>(instances(s));
            // A statement moves whole units (an instance, a resource or a module instance): a unit whose
            // destination holds anything stays where it is, all of it, as in Terraform.
            Map<Targetable, List<AbsResourceInstance>> units = new LinkedHashMap<>();
            for (AbsResourceInstance x : instances(s)) {
                if (translate(st, x) != null) {
                    units.computeIfAbsent(unit(st, x), k -> new ArrayList<>()).add(x);
                }
            }
            for (Map.Entry<Targetable, List<AbsResourceInstance>> u : units.entrySet()) {
                List<AbsResourceInstance> moving = u.getValue();
                Map<AbsResourceInstance, AbsResourceInstance> dest = new LinkedHashMap<>();
                moving.forEach(x -> dest.put(x, endOfChain(all, st, translate(st, x))));
                if (dest.entrySet().stream().allMatch(d -> d.getKey().equals(d.getValue()))) {
                    continue;
                }
                Set<Targetable> targets = new HashSet<>();
                dest.forEach((x, d) -> targets.add(unitAt(u.getKey(), x, d)));
                boolean taken = present.stream()
                        .anyMatch(y -> !moving.contains(y) && targets.stream().anyMatch(t -> within(y, t)));
                if (taken) {
                    AbsResourceInstance first = moving.get(0);
                    blocked.add("  - " + u.getKey() + " could not move to "
                            + unitAt(u.getKey(), first, translate(st, first)));
                    continue;
                }
                for (AbsResourceInstance x : moving) {
                    Result<StateSnapshot> moved = StateEdits.move(s, x, dest.get(x));
                    if (moved.value() == null) {
                        for (Diagnostic d : moved.diagnostics()) {
                            diags.add(Diagnostic.error(
                                    d.summary(),
                                    d.detail(),
                                    st.implied() ? null : st.config().declRange()));
                        }
                        continue;
                    }
                    AbsResourceInstance original = previous.remove(x);
                    previous.put(dest.get(x), original == null ? x : original);
                    s = moved.value();
                }
            }
        }
        if (!blocked.isEmpty()) {
            diags.add(Diagnostic.warning(
                    "Unresolved resource instance address changes",
                    "Strata tried to adjust "
                            + "resource instance addresses in the prior state based on change information recorded in the "
                            + "configuration, but some adjustments did not succeed due to existing objects already at the "
                            + "intended addresses:\n" + String.join("\n", blocked)
                            + "\n\nStrata has planned to destroy "
                            + "these objects. If Strata's proposed changes aren't appropriate, you must first resolve the "
                            + "conflicts using the \"strata state\" subcommands and then create a new plan.",
                    null));
        }
        return new Applied(s, previous, diags.build());
    }

    /**
     * The moves Terraform implies when {@code count} is added to a resource (its unkeyed object becomes
     * index zero) or removed (index zero becomes unkeyed), unless a {@code moved} block names the resource.
     */
    private static List<Statement> implied(ConfigTree tree, StateSnapshot state, List<Statement> explicit) {
        // Looked at a resource at a time, not through a map of every instance: this runs before every plan,
        // usually with nothing to move.
        Map<AbsResource, Statement> out = new TreeMap<>();
        Map<ModuleInstance, Optional<ConfigNode>> nodes = new HashMap<>();
        InstanceKey zero = InstanceKey.of(0);
        for (ResourceState rs : state.resources()) {
            AbsResource ar = rs.addr();
            if (ar.resource().mode() != ResourceMode.MANAGED) {
                continue;
            }
            boolean unkeyed = false;
            boolean indexZero = false;
            for (ResourceInstanceObject o : rs.instances()) {
                unkeyed |= o.key() instanceof InstanceKey.NoKey;
                indexZero |= o.key().equals(zero);
            }
            if (!unkeyed && !indexZero) {
                continue;
            }
            ResourceConfig rc = nodes.computeIfAbsent(ar.module(), m -> tree.node(m.module()))
                    .map(n -> n.module().resources().get(ar.resource()))
                    .orElse(null);
            if (rc == null || explicit.stream().anyMatch(st -> names(st.from(), ar) || names(st.to(), ar))) {
                continue;
            }
            // With both objects in state the move is blocked, and reported as Terraform reports it.
            if (rc.count() != null && unkeyed) {
                out.putIfAbsent(ar, new Statement(ar.instance(InstanceKey.NONE), ar.instance(zero), null));
            } else if (!rc.isInstanced() && indexZero) {
                out.putIfAbsent(ar, new Statement(ar.instance(zero), ar.instance(InstanceKey.NONE), null));
            }
        }
        return new ArrayList<>(out.values());
    }

    /** The unit a statement moves object {@code x} with: the object itself, its resource or its module instance. */
    private static Targetable unit(Statement st, AbsResourceInstance x) {
        return switch (st.from()) {
            case AbsResourceInstance f -> x;
            case AbsResource f -> st.to() instanceof AbsResource ? x.containingResource() : x;
            case ModuleInstance f ->
                new ModuleInstance(x.module().steps().subList(0, f.steps().size()));
        };
    }

    /** The unit like {@code unit} (which holds {@code x}) that holds {@code x}'s new address {@code d}. */
    private static Targetable unitAt(Targetable unit, AbsResourceInstance x, AbsResourceInstance d) {
        return switch (unit) {
            case AbsResourceInstance i -> d;
            case AbsResource r -> d.containingResource();
            case ModuleInstance m -> {
                int below = x.module().steps().size() - m.steps().size();
                yield new ModuleInstance(
                        d.module().steps().subList(0, d.module().steps().size() - below));
            }
        };
    }

    /** Whether a statement's end is this resource or one of its instances. */
    private static boolean names(Targetable end, AbsResource ar) {
        return switch (end) {
            case AbsResource r -> r.equals(ar);
            case AbsResourceInstance r -> r.containingResource().equals(ar);
            case ModuleInstance m -> false;
        };
    }

    /**
     * Statements ordered so that one which moves objects into another's source comes after it, as
     * Terraform applies them: an object is taken to the end of its chain in one step, and an object
     * already at a later link moves on before anything moves onto its address.
     */
    private static List<Statement> reverseChainOrder(List<Statement> all) {
        List<Statement> out = new ArrayList<>();
        Set<Statement> seen = new HashSet<>();
        for (Statement st : all) {
            visit(all, st, seen, out);
        }
        return out;
    }

    private static void visit(List<Statement> all, Statement st, Set<Statement> seen, List<Statement> out) {
        if (!seen.add(st)) {
            return;
        }
        for (Statement next : all) {
            if (next != st && chains(st, next)) {
                visit(all, next, seen, out);
            }
        }
        out.add(st);
    }

    /** Where an object that one statement moves to {@code hop} ends after the statements chained after it. */
    private static AbsResourceInstance endOfChain(List<Statement> all, Statement first, AbsResourceInstance hop) {
        Set<Statement> used = new HashSet<>(List.of(first));
        AbsResourceInstance at = hop;
        boolean moved = true;
        while (moved) {
            moved = false;
            for (Statement st : all) {
                AbsResourceInstance next = used.contains(st) ? null : translate(st, at);
                if (next != null) {
                    used.add(st);
                    at = next;
                    moved = true;
                    break;
                }
            }
        }
        return at;
    }

    /** Whether objects {@code a} moves can be moved on by {@code b}: a's destination overlaps b's source. */
    private static boolean chains(Statement a, Statement b) {
        return within(a.to(), b.from()) || within(b.from(), a.to());
    }

    /** Whether every object at address {@code inner} is also at address {@code outer}. */
    private static boolean within(Targetable inner, Targetable outer) {
        return switch (outer) {
            case AbsResourceInstance o -> inner.equals(o);
            case AbsResource o ->
                switch (inner) {
                    case AbsResource i -> i.equals(o);
                    case AbsResourceInstance i -> i.containingResource().equals(o);
                    case ModuleInstance i -> false;
                };
            case ModuleInstance o ->
                switch (inner) {
                    case ModuleInstance i -> inModule(i, o);
                    case AbsResource i -> inModule(i.module(), o);
                    case AbsResourceInstance i -> inModule(i.module(), o);
                };
        };
    }

    /** Whether module instance {@code m} is {@code prefix} or below it; an unkeyed last step means every instance of the call. */
    private static boolean inModule(ModuleInstance m, ModuleInstance prefix) {
        List<ModuleInstance.Step> p = prefix.steps();
        if (m.steps().size() < p.size()) {
            return false;
        }
        for (int i = 0; i < p.size(); i++) {
            ModuleInstance.Step want = p.get(i);
            ModuleInstance.Step got = m.steps().get(i);
            boolean wholeCall = i == p.size() - 1 && want.key() instanceof InstanceKey.NoKey;
            if (!want.name().equals(got.name()) || !wholeCall && !want.key().equals(got.key())) {
                return false;
            }
        }
        return true;
    }

    /** The address a statement gives the object at {@code x}, or null if the statement does not cover it. */
    private static AbsResourceInstance translate(Statement st, AbsResourceInstance x) {
        return switch (st.from()) {
            case AbsResourceInstance f ->
                !x.equals(f)
                        ? null
                        : switch (st.to()) {
                            case AbsResourceInstance t -> t;
                            case AbsResource t -> t.instance(InstanceKey.NONE);
                            case ModuleInstance t -> null;
                        };
            case AbsResource f ->
                !x.containingResource().equals(f)
                        ? null
                        : switch (st.to()) {
                            case AbsResource t -> t.instance(x.resource().key());
                            // A resource moved to one instance: its unkeyed object is the one that moves.
                            case AbsResourceInstance t -> x.resource().key() instanceof InstanceKey.NoKey ? t : null;
                            case ModuleInstance t -> null;
                        };
            case ModuleInstance f -> {
                if (!(st.to() instanceof ModuleInstance t) || !inModule(x.module(), f)) {
                    yield null;
                }
                int n = f.steps().size();
                List<ModuleInstance.Step> steps = new ArrayList<>(t.steps());
                ModuleInstance.Step last = steps.get(steps.size() - 1);
                boolean wholeCall = f.steps().get(n - 1).key() instanceof InstanceKey.NoKey
                        && last.key() instanceof InstanceKey.NoKey;
                if (wholeCall) {
                    steps.set(
                            steps.size() - 1,
                            new ModuleInstance.Step(
                                    last.name(), x.module().steps().get(n - 1).key()));
                } else if (!x.module()
                        .steps()
                        .get(n - 1)
                        .key()
                        .equals(f.steps().get(n - 1).key())) {
                    yield null;
                }
                steps.addAll(x.module().steps().subList(n, x.module().steps().size()));
                yield new ModuleInstance(steps).resourceInstance(x.resource());
            }
        };
    }

    /**
     * Statements whose chains lead back to themselves, as Terraform reports them: one error per cycle,
     * listing its statements in source order. Implied moves never form cycles (they are skipped for any
     * resource a {@code moved} block names).
     */
    private static Diagnostics cycles(List<Statement> all) {
        List<Statement> explicit = all.stream().filter(st -> !st.implied()).toList();
        Diagnostics.Builder out = Diagnostics.builder();
        Set<Statement> reported = new HashSet<>();
        for (Statement st : explicit) {
            if (reported.contains(st)) {
                continue;
            }
            Set<Statement> reach = reachable(explicit, st);
            if (!reach.contains(st)) {
                continue;
            }
            // The cycle is every statement that reaches st back and is reached from it.
            TreeSet<Statement> cycle = new TreeSet<>(
                    (a, b) -> a.config().declRange().compareTo(b.config().declRange()));
            for (Statement other : reach) {
                if (reachable(explicit, other).contains(st)) {
                    cycle.add(other);
                }
            }
            reported.addAll(cycle);
            StringBuilder lines = new StringBuilder();
            for (Statement c : cycle) {
                lines.append("  - ")
                        .append(at(c.config().declRange()))
                        .append(": ")
                        .append(endpoint(c.config().from()))
                        .append(" \u2192 ")
                        .append(endpoint(c.config().to()))
                        .append('\n');
            }
            out.add(Diagnostic.error(
                    "Cyclic dependency in move statements",
                    "The following chained move statements "
                            + "form a cycle, and so there is no final location to move objects to:\n" + lines
                            + "\nA chain of "
                            + "move statements must end with an address that doesn't appear in any other statements, and "
                            + "which typically also refers to an object still declared in the configuration.",
                    null));
        }
        return out.build();
    }

    private static Set<Statement> reachable(List<Statement> all, Statement from) {
        Set<Statement> seen = new HashSet<>();
        List<Statement> todo = new ArrayList<>(List.of(from));
        while (!todo.isEmpty()) {
            Statement cur = todo.remove(todo.size() - 1);
            for (Statement next : all) {
                if (next != cur && chains(cur, next) && seen.add(next)) {
                    todo.add(next);
                }
            }
        }
        return seen;
    }

    /** A statement's end as Terraform lists it in a cycle: a whole resource or module call with {@code [*]}. */
    private static String endpoint(Targetable t) {
        return switch (t) {
            case ModuleInstance m ->
                m.steps().get(m.steps().size() - 1).key() instanceof InstanceKey.NoKey ? m + "[*]" : m.toString();
            case AbsResource r -> r + "[*]";
            case AbsResourceInstance r -> r.toString();
        };
    }

    /** {@code file:line,column} of a range's start, as Terraform names a block in a message. */
    static String at(SourceRange r) {
        return r.filename() + ":" + r.start().line() + "," + r.start().column();
    }

    private static List<AbsResourceInstance> instances(StateSnapshot s) {
        List<AbsResourceInstance> out = new ArrayList<>();
        for (ResourceState rs : s.resources()) {
            AbsResource ar = rs.addr();
            rs.instances().stream().map(o -> ar.instance(o.key())).distinct().forEach(out::add);
        }
        return out;
    }

    private static Targetable absolute(ModuleInstance mi, Targetable t) {
        if (mi.isRoot()) {
            return t;
        }
        return switch (t) {
            case ModuleInstance m -> {
                List<ModuleInstance.Step> steps = new ArrayList<>(mi.steps());
                steps.addAll(m.steps());
                yield new ModuleInstance(steps);
            }
            case AbsResource r -> new AbsResource(prefixed(mi, r.module()), r.resource());
            case AbsResourceInstance r -> new AbsResourceInstance(prefixed(mi, r.module()), r.resource());
        };
    }

    private static ModuleInstance prefixed(ModuleInstance mi, ModuleInstance m) {
        List<ModuleInstance.Step> steps = new ArrayList<>(mi.steps());
        steps.addAll(m.steps());
        return new ModuleInstance(steps);
    }
}
