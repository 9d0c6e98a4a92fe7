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
import dev.strata.provider.ProviderSource;
import dev.strata.state.OutputValue;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Turns a configuration and a state into a {@link Plan} (P6): refresh, evaluate, expand (deferring
 * what is unknown), ask each provider to plan, and decide every instance's action.
 */
public final class Planner {
    private final ProviderSource providers;
    private final String engineVersion;
    private Map<String, String> environment = System.getenv();
    private java.time.Clock clock = java.time.Clock.systemUTC();

    public Planner(ProviderSource providers, String engineVersion) {
        this.providers = providers;
        this.engineVersion = engineVersion;
    }

    /** Set by {@link #stop()}: an interrupt; the plan starts nothing new and fails as interrupted. */
    private final java.util.concurrent.atomic.AtomicBoolean stopRequested =
            new java.util.concurrent.atomic.AtomicBoolean();

    /** The first interrupt: start no further provider calls; the plan in progress returns an error. */
    public void stop() {
        stopRequested.set(true);
    }

    /** The environment providers see (PGHOST, AWS_*, ...); the process's own by default. */
    public Planner environment(Map<String, String> env) {
        this.environment = Map.copyOf(env);
        return this;
    }

    /** The clock that dates plans ({@code plantimestamp()}); the system's by default. */
    public Planner clock(java.time.Clock c) {
        this.clock = java.util.Objects.requireNonNull(c);
        return this;
    }

    /** The dependency graph of a configuration, with cycle errors; for {@code strata graph}. */
    public static Result<String> dot(ConfigTree tree, boolean drawCycles) {
        DependencyGraph<Node> g = GraphBuilder.build(tree);
        Diagnostics cycles = g.checkCycles(Node::cycleName);
        if (cycles.hasErrors()) {
            return drawCycles ? Result.of(g.toDotWithCycles(Node::display), Diagnostics.NONE) : Result.of(null, cycles);
        }
        return Result.of(g.transitiveReduction().toDot(Node::display), Diagnostics.NONE);
    }

    /**
     * Provisioners are valid Terraform (validate accepts them) but Strata does not run them; a plan
     * that would create such a resource without its provisioner would quietly do less than asked.
     */
    private static Diagnostics provisioners(ConfigTree tree) {
        Diagnostics.Builder out = Diagnostics.builder();
        for (ConfigNode n : tree.nodes()) {
            n.module().resources().values().forEach(rc -> rc.provisioners().forEach(at -> out.add(Diagnostic.error(
                    "Provisioners are not supported", "Strata does not run provisioners or their connections. Use a "
                            + "provider resource for the same effect (for example a cloud-init user data argument), "
                            + "or run the command outside Strata.", at))));
        }
        return out.build();
    }

    public Result<Plan> plan(ConfigTree tree, SortedMap<String, Value> variables, StateSnapshot state,
                             PlanOptions options, EngineEvents events) {
        DependencyGraph<Node> graph = GraphBuilder.build(tree);
        Diagnostics cycles = graph.checkCycles(Node::cycleName);
        if (cycles.hasErrors()) {
            return Result.of(null, cycles);
        }
        Diagnostics refused = provisioners(tree);
        if (refused.hasErrors()) {
            return Result.of(null, refused);
        }
        Moves.Applied moved = Moves.apply(tree, state);
        if (moved.diagnostics().hasErrors()) {
            return Result.of(null, moved.diagnostics());
        }
        try (ProviderPool pool = new ProviderPool(providers, engineVersion, options.workingDir(), environment)) {
            // Terraform records the plan's time to the second, as plantimestamp() prints it.
            java.time.Instant timestamp = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            Run run = new Run(tree, options, Run.Phase.PLAN, pool, variables, moved.state(), timestamp, null);
            ProviderCalls calls = new ProviderCalls(options.parallelism(), ProviderCalls.Settings.DEFAULT, events,
                    stopRequested::get);
            InstanceOps ops = new InstanceOps(run, events, null, calls, Map.of());
            ops.previous = moved.previous();
            ops.imports = imports(tree, run);
            ops.removed = tree.root().module().removed();
            Walk walk = new Walk(run, graph, events, ops);
            ops.walk = walk;
            try {
                walk.walk(stopRequested::get);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopRequested.set(true);
            }
            if (stopRequested.get()) {
                return Result.of(null, Diagnostics.of(Diagnostic.error("Planning interrupted", "The plan was "
                        + "interrupted before it was complete; nothing was changed.", null)));
            }
            orphanResources(run, ops, walk);
            orphanOutputs(run, tree);
            Diagnostics diags = run.diagnostics();
            if (diags.hasErrors()) {
                return Result.of(null, diags);
            }
            List<ResourceChange> changes = new ArrayList<>(run.changes.values());
            changes.addAll(run.deposedChanges);
            changes.sort(ResourceChange.TERRAFORM_ORDER.thenComparing(c -> c.deposed() == null ? "" : c.deposed()));
            List<ResourceChange> drift = new ArrayList<>(run.drift);
            drift.sort(ResourceChange.TERRAFORM_ORDER);
            List<DeferredResource> deferred = new ArrayList<>(run.deferred);
            deferred.sort(Comparator.comparing(DeferredResource::addr));
            // The refreshed state keeps the stored serial and lineage: a stale plan is recognised by them.
            StateSnapshot refreshed = run.state().withSerial(state.serial());
            return Result.of(new Plan(options.mode(), refreshed, variables, changes, drift, deferred,
                    new TreeMap<>(run.outputChanges), options.targets().stream().map(Object::toString).toList(),
                    diags, timestamp), diags);
        }
    }

    /** {@code import} blocks of the root module by target instance (blocks with for_each are expanded per key). */
    private static Map<AbsResourceInstance, dev.strata.config.ImportConfig> imports(ConfigTree tree, Run run) {
        Map<AbsResourceInstance, dev.strata.config.ImportConfig> out = new java.util.HashMap<>();
        for (dev.strata.config.ImportConfig ic : tree.root().module().imports()) {
            if (ic.forEach() != null) {
                run.diagnose(Diagnostic.warning("import blocks with for_each are not supported yet", "Strata skipped "
                        + "this import block; import each object with its own block or with strata import.",
                        ic.declRange()));
                continue;
            }
            var t = ic.to().asTraversal();
            if (t.value() == null || t.value().isEmpty()) {
                run.diagnose(Diagnostic.error("Invalid import address", "The \"to\" argument must be a resource "
                        + "instance address, such as aws_instance.web.", ic.to().range()));
                continue;
            }
            var addr = dev.strata.addr.Addrs.parseAbsResourceInstance(t.value().get());
            run.diagnose(addr.diagnostics());
            if (addr.value() != null) {
                out.put(addr.value(), ic);
            }
        }
        return out;
    }

    /** Resources in state whose configuration (or whole module) is gone: every object is planned for deletion. */
    private static void orphanResources(Run run, InstanceOps ops, Walk walk) {
        for (ResourceState rs : run.state().resources()) {
            AbsResource ar = StateAddrs.of(rs.addr());
            Optional<ConfigNode> node = run.tree.node(ar.module().module());
            boolean configured = node.isPresent() && node.get().module().resources().containsKey(ar.resource());
            if (configured && !run.deferredModules.containsKey(ar.module().module())
                    && run.instancesOf(ar.module().module()).contains(ar.module())) {
                continue;
            }
            if (configured && (run.deferredModules.containsKey(ar.module().module()))) {
                continue;
            }
            for (ResourceInstanceObject o : rs.instances()) {
                AbsResourceInstance ai = ar.instance(StateAddrs.of(o.key()));
                if (!Targets.matchesInstance(run.options.targets(), ai)) {
                    continue;
                }
                // The resource is configured but its module instance is gone, or the module itself is.
                boolean moduleGone = node.isEmpty() || configured;
                ops.orphanWithoutConfig(rs, o, ai, moduleGone ? "delete_because_no_module"
                        : "delete_because_no_resource_config");
            }
        }
    }

    private static void orphanOutputs(Run run, ConfigTree tree) {
        if (!run.options.targets().isEmpty()) {
            return;
        }
        for (Map.Entry<String, OutputValue> e : run.state().outputs().entrySet()) {
            if (!tree.root().module().outputs().containsKey(e.getKey())) {
                Value before = InstanceOps.priorOutput(e.getValue());
                run.outputChanges.put(e.getKey(), new OutputChange(e.getKey(), Action.DELETE, before, Value.NULL,
                        e.getValue().sensitive()));
            }
        }
    }
}
