package dev.strata.engine;

import dev.strata.addr.ConfigResource;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.StateSnapshot;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where an apply's destroy-first deletions go in its walk: the instances the configuration no longer has
 * and the old objects of replacements without {@code create_before_destroy}. As Terraform orders them
 * (its "destroy edges"): an object is deleted before the objects it depended on are deleted, updated or
 * replaced, and before its own replacement is created. A subnet and the instance in it, both replaced, go
 * instance first, then subnet; the new subnet comes before the new instance. Such deletions of a resource
 * are one {@link Node.DestroyNode}, placed by the dependencies the state recorded for the deleted objects
 * (what they depended on when they were made).
 *
 * <p>The objects that {@code create_before_destroy} replacements depose, and every deletion of a destroy
 * plan, are left to the pass after the walk, as are all of them when these edges would close a cycle (a
 * provider configured from a resource that a deleted object depended on, say).
 *
 * @param graph       the walk's graph
 * @param destroyedBy the resources whose destroy-first deletions {@code graph} places (empty when none)
 */
record DestroyOrder(DependencyGraph<Node> graph, Set<ConfigResource> destroyedBy) {

    /** Whether {@code c} is a deletion this ordering places in the walk (when its resource is in {@link #destroyedBy}). */
    static boolean destroysFirst(ResourceChange c, PlanMode mode) {
        if (c.deposed() != null || Walk.isData(c.addr().containingResource())) {
            return false;
        }
        return c.action() == Action.DELETE_THEN_CREATE || (c.action() == Action.DELETE && mode != PlanMode.DESTROY);
    }

    /** Whether the walk deletes {@code c} (so the pass after it must not). */
    boolean inWalk(ResourceChange c, PlanMode mode) {
        return destroysFirst(c, mode)
                && destroyedBy.contains(c.addr().containingResource().config());
    }

    /** The walk's graph for {@code plan}: {@code base} with a destroy vertex for each resource that has such deletions. */
    static DestroyOrder of(DependencyGraph<Node> base, Plan plan, StateSnapshot state) {
        Map<ConfigResource, List<ResourceChange>> deletions = byResource(plan);
        if (deletions.isEmpty()) {
            return new DestroyOrder(base, Set.of());
        }
        DestroyOrder ordered = build(base, deletions, state, true);
        if (ordered == null) {
            // A cycle through an update waiting for a deletion: keep the deletions' own order only.
            ordered = build(base, deletions, state, false);
        }
        return ordered != null ? ordered : new DestroyOrder(base, Set.of());
    }

    /** The plan's destroy-first deletions ({@link #destroysFirst}) by resource, in the plan's order. */
    static Map<ConfigResource, List<ResourceChange>> byResource(Plan plan) {
        Map<ConfigResource, List<ResourceChange>> out = new LinkedHashMap<>();
        for (ResourceChange c : plan.changes()) {
            if (destroysFirst(c, plan.mode())) {
                out.computeIfAbsent(c.addr().containingResource().config(), r -> new java.util.ArrayList<>())
                        .add(c);
            }
        }
        return out;
    }

    private static DestroyOrder build(
            DependencyGraph<Node> base,
            Map<ConfigResource, List<ResourceChange>> deletions,
            StateSnapshot state,
            boolean updatesWait) {
        DependencyGraph.Builder<Node> g = DependencyGraph.builder();
        base.nodes().forEach(g::node);
        for (DependencyGraph.Dependency<Node> e : base.edges()) {
            g.dependency(e.from(), e.to(), e.range());
        }
        Set<Node> existing = base.nodes();
        for (Map.Entry<ConfigResource, List<ResourceChange>> e : deletions.entrySet()) {
            ConfigResource r = e.getKey();
            Node destroy = destroyNode(r);
            g.node(destroy);
            Node own = new Node.ResourceNode(r.module(), r.resource());
            if (existing.contains(own)) {
                // The replacement is created once the old object is gone.
                g.dependency(own, destroy, null);
            }
            Set<ConfigResource> dependedOn = new HashSet<>();
            for (ResourceChange c : e.getValue()) {
                Node provider = new Node.ProviderNode(c.provider());
                if (existing.contains(provider)) {
                    g.dependency(destroy, provider, null);
                }
                for (ResourceInstanceObject o : state.objects(c.addr())) {
                    if (o.deposed() == null) {
                        dependedOn.addAll(o.dependencies());
                    }
                }
            }
            for (ConfigResource d : dependedOn) {
                if (d.equals(r)) {
                    continue;
                }
                if (deletions.containsKey(d)) {
                    // What it depended on is deleted after it.
                    g.dependency(destroyNode(d), destroy, null);
                }
                Node dependency = new Node.ResourceNode(d.module(), d.resource());
                if (updatesWait && existing.contains(dependency)) {
                    // ... and is created, updated or replaced after it too.
                    g.dependency(dependency, destroy, null);
                }
            }
        }
        DependencyGraph<Node> out = g.build();
        if (out.checkCycles(Node::display).hasErrors()) {
            return null;
        }
        return new DestroyOrder(out, Set.copyOf(deletions.keySet()));
    }

    private static Node destroyNode(ConfigResource r) {
        return new Node.DestroyNode(r.module(), r.resource());
    }
}
