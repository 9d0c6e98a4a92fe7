package dev.strata.engine;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import dev.strata.state.OutputValue;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;

/**
 * Turns a configuration and a state into a {@link Plan} (P6): refresh, evaluate, expand (deferring
 * what is unknown), ask each provider to plan, and decide every instance's action.
 */
final class Planner {
    private final Wiring wiring;

    Planner(Wiring wiring) {
        this.wiring = wiring;
    }

    /** The dependency graph of a configuration, with cycle errors; for {@code strata graph}. */
    static Result<String> dot(ConfigTree tree, boolean drawCycles) {
        DependencyGraph<Node> g = GraphBuilder.build(tree);
        Diagnostics cycles = g.checkCycles(Node::cycleName);
        if (cycles.hasErrors()) {
            return drawCycles ? Result.of(g.toDotWithCycles(Node::display), Diagnostics.NONE) : Result.of(null, cycles);
        }
        return Result.of(g.transitiveReduction().toDot(Node::display), Diagnostics.NONE);
    }

    /**
     * Terraform's default graph: the configuration's resources, each pointing to the nearest resources it depends
     * on through anything else (variables, locals, outputs, module calls, providers), transitively reduced, those
     * of each module in a cluster of their own.
     */
    static Result<String> resourceDot(ConfigTree tree, String tool) {
        DependencyGraph<Node> g = GraphBuilder.build(tree);
        Diagnostics cycles = g.checkCycles(Node::cycleName);
        if (cycles.hasErrors()) {
            return Result.of(null, cycles);
        }
        DependencyGraph.Builder<Node> b = DependencyGraph.builder();
        for (Node n : g.nodes()) {
            if (n instanceof Node.ResourceNode) {
                b.node(n);
                for (Node d : nearestResources(g, n)) {
                    b.dependency(n, d, null);
                }
            }
        }
        DependencyGraph<Node> resources = b.build().transitiveReduction();
        StringBuilder out = new StringBuilder("digraph G {\n  rankdir = \"RL\";\n");
        out.append("  node [shape = rect, fontname = \"sans-serif\"];\n");
        if (resources.nodes().isEmpty()) {
            String hint = "For a more detailed graph, try: " + tool + " graph -type=plan";
            String none = "This configuration does not contain any resources.";
            out.append("  /* ").append(none).append(" ".repeat(Math.max(0, hint.length() - none.length())));
            out.append(" */\n  /* ").append(hint).append(" */\n}\n");
            return Result.of(out.toString(), Diagnostics.NONE);
        }
        // Nodes come in module order, the root module's first: one cluster per module after them.
        dev.strata.addr.Module cluster = dev.strata.addr.Module.ROOT;
        for (Node n : resources.nodes()) {
            Node.ResourceNode r = (Node.ResourceNode) n;
            if (!r.module().equals(cluster)) {
                if (!cluster.isRoot()) {
                    out.append("  }\n");
                }
                cluster = r.module();
                out.append("  subgraph \"cluster_").append(cluster).append("\" {\n");
                out.append("    label = \"").append(cluster).append("\"\n");
                out.append("    fontname = \"sans-serif\"\n");
            }
            out.append(cluster.isRoot() ? "  " : "    ")
                    .append('"')
                    .append(r.display())
                    .append("\" [label=\"")
                    .append(r.resource())
                    .append("\"];\n");
        }
        if (!cluster.isRoot()) {
            out.append("  }\n");
        }
        for (DependencyGraph.Dependency<Node> e : resources.edges()) {
            out.append("  \"")
                    .append(e.from().display())
                    .append("\" -> \"")
                    .append(e.to().display())
                    .append("\";\n");
        }
        return Result.of(out.append("}\n").toString(), Diagnostics.NONE);
    }

    /** The resources {@code from} depends on with nothing but other kinds of vertex between. */
    private static java.util.SortedSet<Node> nearestResources(DependencyGraph<Node> g, Node from) {
        java.util.SortedSet<Node> found = new java.util.TreeSet<>();
        java.util.Set<Node> seen = new java.util.HashSet<>();
        java.util.Deque<Node> todo = new java.util.ArrayDeque<>(g.dependenciesOf(from));
        while (!todo.isEmpty()) {
            Node n = todo.pop();
            if (!seen.add(n)) {
                continue;
            }
            if (n instanceof Node.ResourceNode) {
                found.add(n);
            } else {
                todo.addAll(g.dependenciesOf(n));
            }
        }
        return found;
    }

    Result<Plan> plan(
            SortedMap<String, Value> variables, StateSnapshot state, PlanOptions options, EngineEvents events) {
        return plan(variables, state, options, events, null);
    }

    /**
     * The file {@code plan -generate-config-out} writes: a plan whose import targets without configuration
     * are imported and given a resource block each. Null text when no target lacks configuration.
     */
    Result<String> generateConfig(
            SortedMap<String, Value> variables, StateSnapshot state, PlanOptions options, EngineEvents events) {
        java.util.List<GeneratedConfig.Resource> generated = new java.util.ArrayList<>();
        Result<Plan> p = plan(variables, state, options, events, generated);
        if (p.hasErrors()) {
            return Result.of(null, p.diagnostics());
        }
        return Result.of(generated.isEmpty() ? null : GeneratedConfig.file(generated), p.diagnostics());
    }

    private Result<Plan> plan(
            SortedMap<String, Value> variables,
            StateSnapshot state,
            PlanOptions options,
            EngineEvents events,
            java.util.List<GeneratedConfig.Resource> generated) {
        ConfigTree tree = wiring.config();
        DependencyGraph<Node> graph = wiring.graph();
        Diagnostics cycles = graph.checkCycles(Node::cycleName);
        if (cycles.hasErrors()) {
            return Result.of(null, cycles);
        }
        Moves.Applied moved = Moves.apply(tree, state);
        if (moved.diagnostics().hasErrors()) {
            return Result.of(null, moved.diagnostics());
        }
        try (ProviderPool pool = wiring.pool(options.workingDir())) {
            // Terraform records the plan's time to the second, as plantimestamp() prints it.
            java.time.Instant timestamp = wiring.clock().instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            Run run = new Run(tree, options, Run.Phase.PLAN, pool, variables, moved.state(), timestamp, null);
            run.diagnose(moved.diagnostics());
            ImportTargets imports = new ImportTargets(tree.root().module().imports());
            InstanceOps.Inputs inputs = new InstanceOps.Inputs(
                    null,
                    Map.of(),
                    moved.previous(),
                    imports,
                    tree.root().module().removed());
            Walk walk = wiring.walk(run, graph, events, inputs, null, wiring.stop());
            InstanceOps ops = walk.ops;
            boolean interrupted = false;
            try {
                walk.walk(wiring.stop());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                interrupted = true;
            }
            if (interrupted || wiring.stop().getAsBoolean()) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Planning interrupted",
                                "The plan was " + "interrupted before it was complete; nothing was changed.",
                                null)));
            }
            orphanResources(run, ops, walk);
            run.diagnose(ForgottenObjects.warning(walk.planned.changes()));
            for (ImportTargets.Target t : imports.finish(run, walk.planned, generated != null)) {
                if (generated == null) {
                    run.diagnose(ImportTargets.missingConfiguration(t));
                    continue;
                }
                GeneratedConfig.Resource r = ops.generate(t);
                if (r != null) {
                    generated.add(r);
                }
            }
            orphanOutputs(run, tree, walk.planned);
            events.walkFinished(
                    RunData.scope(run, dev.strata.addr.ModuleInstance.ROOT),
                    run.outputs(dev.strata.addr.ModuleInstance.ROOT));
            Diagnostics diags = run.diagnostics();
            if (diags.hasErrors()) {
                // Terraform's destroy stops at the refresh it plans first when a root variable's value is
                // rejected there, before anything of the destroy is planned or shown.
                if (!(options.mode() == PlanMode.DESTROY && run.wasRootVariableRejected())) {
                    events.planErrored(plan(run, tree, state, options, variables, walk.planned, diags, timestamp));
                }
                return Result.of(null, diags);
            }
            return Result.of(plan(run, tree, state, options, variables, walk.planned, diags, timestamp), diags);
        }
    }

    private static Plan plan(
            Run run,
            ConfigTree tree,
            StateSnapshot state,
            PlanOptions options,
            SortedMap<String, Value> variables,
            PlannedChanges planned,
            Diagnostics diags,
            java.time.Instant timestamp) {
        // The refreshed state keeps the stored serial and lineage: a stale plan is recognised by them.
        StateSnapshot refreshed = run.state().withSerial(state.serial());
        java.util.List<ResourceChange> changes = planned.changes();
        return new Plan(
                options.mode(),
                refreshed,
                variables,
                changes,
                planned.drift(),
                planned.deferred(),
                planned.outputs(),
                options.targets().stream().map(Object::toString).toList(),
                diags,
                timestamp,
                relevantAttributes(options.mode(), run, tree, changes, planned));
    }

    /**
     * What the plan's changes depend on (ADR 0026). As Terraform: every module instance the plan expanded
     * takes part, since each child module output contributes, except in a destroy plan, which plans no
     * module outputs (its deletions and root output changes still contribute).
     */
    private static RelevantAttributes relevantAttributes(
            PlanMode mode, Run run, ConfigTree tree, java.util.List<ResourceChange> changes, PlannedChanges planned) {
        Set<dev.strata.addr.ModuleInstance> modules = new java.util.HashSet<>();
        if (mode != PlanMode.DESTROY) {
            run.moduleInstances.values().forEach(modules::addAll);
        }
        return RelevantAttributes.of(tree, changes, planned.outputs(), modules);
    }

    /** Resources in state whose configuration (or whole module) is gone: every object is planned for deletion. */
    private static void orphanResources(Run run, InstanceOps ops, Walk walk) {
        // A set per module: the list's contains() per resource made this quadratic in module instances.
        Map<dev.strata.addr.Module, Set<dev.strata.addr.ModuleInstance>> expanded = new java.util.HashMap<>();
        for (ResourceState rs : run.state().resources()) {
            AbsResource ar = rs.addr();
            dev.strata.addr.Module module = ar.module().module();
            Optional<ConfigNode> node = run.tree.node(module);
            boolean configured =
                    node.isPresent() && node.get().module().resources().containsKey(ar.resource());
            boolean deferred = configured && run.deferredModules.containsKey(module);
            if (configured
                    && !deferred
                    && expanded.computeIfAbsent(module, m -> new java.util.HashSet<>(run.instancesOf(m)))
                            .contains(ar.module())) {
                continue;
            }
            if (deferred) {
                continue;
            }
            // An overridden module's objects stay as they are: the module did not run, so nothing is gone.
            if (configured && run.insideOverriddenModule(ar.module())) {
                continue;
            }
            for (ResourceInstanceObject o : rs.instances()) {
                AbsResourceInstance ai = ar.instance(o.key());
                if (!Targets.matchesInstance(run.options.targets(), ai)
                        || Targets.excludesInstance(run.options.excludes(), ai)) {
                    continue;
                }
                // The resource is configured but its module instance is gone, or the module itself is.
                boolean moduleGone = node.isEmpty() || configured;
                ops.orphanWithoutConfig(
                        rs, o, ai, moduleGone ? "delete_because_no_module" : "delete_because_no_resource_config");
            }
        }
    }

    private static void orphanOutputs(Run run, ConfigTree tree, PlannedChanges planned) {
        if (!run.options.targets().isEmpty()) {
            return;
        }
        for (Map.Entry<String, OutputValue> e : run.state().outputs().entrySet()) {
            if (!tree.root().module().outputs().containsKey(e.getKey())) {
                Value before = InstanceOps.priorOutput(e.getValue());
                planned.output(new OutputChange(
                        e.getKey(),
                        Action.DELETE,
                        before,
                        Value.NULL,
                        e.getValue().sensitive()));
            }
        }
    }
}
