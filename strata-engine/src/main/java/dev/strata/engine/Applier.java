package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.config.ConfigTree;
import dev.strata.config.ResourceConfig;
import dev.strata.engine.graph.DagWalker;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.state.JournalEntry;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Applies a reviewed {@link Plan} (P7): a concurrent walk that evaluates each instance just in time,
 * expands deferred objects, journals every operation before it starts and its result when it ends,
 * then destroys what the plan deletes in reverse dependency order, and compacts the journal into
 * the state at the end.
 */
final class Applier {
    private final Wiring wiring;

    Applier(Wiring wiring) {
        this.wiring = wiring;
    }

    Result<ApplyResult> apply(Plan plan, StateManager state, PlanOptions options, EngineEvents events) {
        ConfigTree tree = wiring.config();
        StateSnapshot current = state.state();
        StateSnapshot prior = plan.priorState();
        if (!current.lineage().equals(prior.lineage()) && state.exists() && !prior.isEmpty()) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Saved plan does not match the given state",
                            "The given plan file was created against a state of a different lineage (" + prior.lineage()
                                    + ") than the current state (" + current.lineage() + "). Create a new plan.",
                            null)));
        }
        if (current.serial() != prior.serial() && state.exists()) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Saved plan is stale",
                            "The given plan file can "
                                    + "no longer be applied because the state was changed by another operation after the plan was "
                                    + "created (plan made at serial " + prior.serial() + ", state now at serial "
                                    + current.serial()
                                    + "). Create a new plan.",
                            null)));
        }
        Diagnostics.Builder all = Diagnostics.builder();
        // Creates a crashed run started without recording their result: their tokens are reused, so that the
        // provider adopts what the first attempt made instead of making a second object (§3.8).
        Map<AbsResourceInstance, String> openCreates = new HashMap<>();
        List<JournalEntry.Intent> open = state.openIntents();
        for (JournalEntry.Intent i : open) {
            if (i.action().equals("create")) {
                openCreates.put(i.instance(), i.operationId());
            }
        }
        if (!current.sameContentAs(prior.withSerial(current.serial()).withLineage(current.lineage()))) {
            Result<StateSnapshot> w = state.persist(prior.withLineage(current.lineage()));
            all.addAll(w.diagnostics());
            if (w.hasErrors()) {
                return Result.of(null, all.build());
            }
            // Writing the snapshot empties the journal; the state manager writes the open intents into the new
            // one itself (StateManager#persist), so they survive until their creates finish.
        }
        DestroyOrder order = DestroyOrder.of(wiring.graph(), plan, state.state());
        DependencyGraph<Node> graph = order.graph();
        boolean interrupted;
        Run run;
        ApplyOutcomes outcomes;
        CompactionThreshold threshold = new CompactionThreshold(compactEvery, state.state());
        try (ProviderPool pool = wiring.pool(options.workingDir())) {
            run = new Run(
                    tree,
                    options,
                    Run.Phase.APPLY,
                    pool,
                    plan.variables(),
                    state.state(),
                    plan.timestamp(),
                    r -> new Run.StateSink() {
                        @Override
                        public StateSnapshot append(JournalEntry e) {
                            return durable(state.append(e));
                        }

                        @Override
                        public StateSnapshot appendAll(List<JournalEntry> entries) {
                            return durable(state.appendAll(entries));
                        }

                        private StateSnapshot durable(Result<StateSnapshot> w) {
                            if (w.value() == null) {
                                throw new IllegalStateException("could not record the state change durably: "
                                        + w.diagnostics().asList().stream()
                                                .map(Diagnostic::summary)
                                                .toList());
                            }
                            return compactIfLarge(state, threshold, w.value());
                        }
                    });
            Walk walk = wiring.walk(
                    run,
                    graph,
                    events,
                    new InstanceOps.Inputs(plan, openCreates, Map.of(), ImportTargets.NONE, List.of()),
                    null,
                    wiring.stop());
            outcomes = walk.applied;
            if (plan.changes().stream().anyMatch(c -> c.action().deletes())) {
                // Deletions come after the walk too; a provider deleting may be configured from one.
                walk.ephemerals.holdUntilClosed();
            }
            try {
                // The walk turns every failed vertex into a diagnostic; the summary below counts instances.
                walk.walk(wiring.stop());
                destroyPass(run, walk.ops, outcomes, plan, order, tree, events);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                walk.ephemerals.close();
            }
            interrupted = wiring.stop().getAsBoolean();
            removeStaleOutputs(run, tree);
            events.walkFinished(
                    RunData.scope(run, dev.strata.addr.ModuleInstance.ROOT),
                    run.outputs(dev.strata.addr.ModuleInstance.ROOT));
        }
        all.addAll(settleCrashedIntents(state, open, plan));
        Result<StateSnapshot> compacted = state.compact();
        all.addAll(run.diagnostics());
        all.addAll(compacted.diagnostics());
        List<AbsResourceInstance> skipped = new ArrayList<>();
        java.util.Set<AbsResourceInstance> done = outcomes.done();
        for (ResourceChange c : plan.changes()) {
            if (c.action() != Action.NO_OP
                    && c.action() != Action.READ
                    && c.action() != Action.FORGET
                    && !outcomes.hasFailed(c.addr())
                    && !done.contains(c.addr())) {
                skipped.add(c.addr());
            }
        }
        StateSnapshot finalState = compacted.value() != null ? compacted.value() : state.state();
        return Result.of(
                new ApplyResult(
                        finalState,
                        outcomes.count(Action.CREATE),
                        outcomes.count(Action.UPDATE),
                        outcomes.count(Action.DELETE),
                        outcomes.failed(),
                        skipped,
                        outcomes.needsPlan(),
                        interrupted,
                        all.build()),
                all.build());
    }

    /**
     * Closes the intents a crashed run left open whose result the state already holds, so that they are
     * not carried from journal to journal forever: a create killed after its object was recorded but
     * before its completion was (the state has the object and this plan did not create it again), or such
     * a delete (the object is gone and nothing here deleted it). An intent whose outcome the state does
     * not show stays open: its object may exist outside the state, and a later create reuses its token.
     */
    private static Diagnostics settleCrashedIntents(StateManager state, List<JournalEntry.Intent> crashed, Plan plan) {
        if (crashed.isEmpty()) {
            return Diagnostics.NONE;
        }
        java.util.Set<AbsResourceInstance> changed = new java.util.HashSet<>();
        for (ResourceChange c : plan.changes()) {
            if (c.action() != Action.NO_OP && c.action() != Action.READ) {
                changed.add(c.addr());
            }
        }
        java.util.Set<String> stillOpen = new java.util.HashSet<>();
        state.openIntents().forEach(i -> stillOpen.add(i.operationId()));
        StateSnapshot now = state.state();
        Diagnostics.Builder out = Diagnostics.builder();
        for (JournalEntry.Intent i : crashed) {
            if (!stillOpen.contains(i.operationId()) || changed.contains(i.instance())) {
                continue;
            }
            boolean current = now.objects(i.instance()).stream().anyMatch(o -> o.deposed() == null);
            boolean settled = switch (i.action()) {
                case "create" -> current;
                case "delete" -> !current;
                default -> false;
            };
            if (settled) {
                out.addAll(state.append(new JournalEntry.Completed(i.operationId()))
                        .diagnostics());
            }
        }
        return out.build();
    }

    /**
     * The fewest journal entries after which the apply folds the journal into the snapshot (and goes on);
     * a larger state waits longer ({@link CompactionThreshold}).
     */
    static volatile int compactEvery = 30_000;

    /**
     * Periodic compaction keeps the journal (and the time to replay it after a crash) bounded during a
     * long apply, in proportion to the state. Operations still running keep their intents: the state
     * manager writes them into the emptied journal as part of the compaction ({@link StateManager#compact}),
     * once each.
     */
    private static StateSnapshot compactIfLarge(
            StateManager state, CompactionThreshold threshold, StateSnapshot current) {
        if (!threshold.reached(state.journalSize())) {
            return current;
        }
        synchronized (state) {
            if (!threshold.reached(state.journalSize())) {
                return state.state();
            }
            Result<StateSnapshot> c = state.compact();
            if (c.value() == null) {
                return current;
            }
            threshold.compacted(c.value());
            return c.value();
        }
    }

    /**
     * The deletions the walk did not make ({@link DestroyOrder}), in reverse dependency order: an object goes
     * before the objects it depended on. With them the objects that {@code create_before_destroy} replacements
     * deposed during the walk.
     */
    private void destroyPass(
            Run run,
            InstanceOps ops,
            ApplyOutcomes outcomes,
            Plan plan,
            DestroyOrder order,
            ConfigTree tree,
            EngineEvents events)
            throws InterruptedException {
        for (ResourceChange c : plan.changes()) {
            if (c.action() == Action.FORGET && ops.stateObject(c.addr(), c.deposed()) != null) {
                run.record(new JournalEntry.RemoveObject(c.addr(), c.deposed()));
                outcomes.succeeded(c.addr(), Action.FORGET);
            }
        }
        List<ResourceChange> deletes = java.util.stream.Stream.concat(
                        plan.changes().stream()
                                .filter(c -> c.action() == Action.DELETE && !order.inWalk(c, plan.mode())),
                        ops.deposedLater.stream())
                .toList();
        if (deletes.isEmpty()) {
            return;
        }
        record Key(String addr, String deposed) implements Comparable<Key> {
            public int compareTo(Key o) {
                int c = addr.compareTo(o.addr);
                return c != 0 ? c : String.valueOf(deposed).compareTo(String.valueOf(o.deposed));
            }
        }
        Map<Key, ResourceChange> byKey = new HashMap<>();
        DependencyGraph.Builder<Key> g = DependencyGraph.builder();
        for (ResourceChange c : deletes) {
            Key k = new Key(c.addr().toString(), c.deposed());
            byKey.put(k, c);
            g.node(k);
        }
        // Dependencies are recorded per configuration resource (no instance keys): each names every instance of
        // that resource, in every instance of its module.
        Map<dev.strata.addr.ConfigResource, List<ResourceChange>> byResource = new HashMap<>();
        for (ResourceChange y : deletes) {
            byResource
                    .computeIfAbsent(y.addr().containingResource().config(), r -> new java.util.ArrayList<>())
                    .add(y);
        }
        for (ResourceChange x : deletes) {
            ResourceInstanceObject o = ops.stateObject(x.addr(), x.deposed());
            if (o == null) {
                continue;
            }
            for (dev.strata.addr.ConfigResource d : o.dependencies()) {
                for (ResourceChange y : byResource.getOrDefault(d, List.of())) {
                    if (y != x) {
                        // x depended on y: y is destroyed after x.
                        g.dependency(
                                new Key(y.addr().toString(), y.deposed()),
                                new Key(x.addr().toString(), x.deposed()),
                                null);
                    }
                }
            }
        }
        DependencyGraph<Key> dg = g.build();
        if (dg.checkCycles(Key::addr).hasErrors()) {
            // Recorded dependencies that form a cycle give no order to honour: destroy without one.
            DependencyGraph.Builder<Key> flat = DependencyGraph.builder();
            byKey.keySet().forEach(flat::node);
            dg = flat.build();
        }
        SortedMap<Key, DagWalker.Outcome<Key>> destroyed = new DagWalker<>(dg, run.options.parallelism())
                .walk(
                        k -> {
                            ResourceChange c = byKey.get(k);
                            try {
                                ResourceConfig rc = InstanceOps.configOf(
                                        tree,
                                        c.addr().module().module(),
                                        c.addr().resource().resource());
                                if (!ops.ensureProvider(c.provider())) {
                                    return new DagWalker.Outcome.Failed<>("provider unavailable");
                                }
                                if (ops.destroyPrevented(c, rc)) {
                                    outcomes.failed(c.addr());
                                    return new DagWalker.Outcome.Failed<>("prevent_destroy");
                                }
                                return ops.destroy(c, rc)
                                        ? new DagWalker.Outcome.Succeeded<>()
                                        : new DagWalker.Outcome.Failed<>(c.addr() + " failed");
                            } catch (Throwable t) {
                                // Whatever one destroy throws is that object's failure; the other destroys go on.
                                run.diagnose(
                                        InternalErrors.of("destroying", c.addr().toString(), t));
                                outcomes.failed(c.addr());
                                return new DagWalker.Outcome.Failed<>(DagWalker.describe(t));
                            }
                        },
                        wiring.stop());
        // A destroy that failed without saying why (none should) still fails the apply visibly.
        destroyed.forEach((k, o) -> {
            if (o instanceof DagWalker.Outcome.Failed<Key> f
                    && !outcomes.hasFailed(byKey.get(k).addr())
                    && !f.reason().equals("provider unavailable")) {
                outcomes.failed(byKey.get(k).addr());
                run.diagnose(InternalErrors.of("destroying", byKey.get(k).addr().toString(), f.reason()));
            }
        });
    }

    private static void removeStaleOutputs(Run run, ConfigTree tree) {
        for (String name : List.copyOf(run.state().outputs().keySet())) {
            if (!tree.root().module().outputs().containsKey(name)) {
                run.record(new JournalEntry.RemoveOutput(name));
            }
        }
    }
}
