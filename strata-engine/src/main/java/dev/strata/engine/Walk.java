package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.config.CheckConfig;
import dev.strata.config.CheckRule;
import dev.strata.config.ConfigNode;
import dev.strata.config.InputVariables;
import dev.strata.config.LocalConfig;
import dev.strata.config.ModuleCallConfig;
import dev.strata.config.OutputConfig;
import dev.strata.config.ProviderConfig;
import dev.strata.config.Repetition;
import dev.strata.config.ResourceConfig;
import dev.strata.config.VariableConfig;
import dev.strata.config.VariableValidation;
import dev.strata.engine.graph.DagWalker;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderSchema;
import dev.strata.provider.Schema;
import dev.strata.state.OutputValue;
import dev.strata.state.ResourceInstanceObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The walk of the configuration graph, for planning and for applying. Each vertex handles every
 * instance of its object: while planning it evaluates, expands and asks providers to plan; while
 * applying it evaluates again with the values produced so far (just in time, ARCHITECTURE §3.8),
 * expands what was deferred, and applies.
 */
final class Walk {
    final Run run;
    final DependencyGraph<Node> graph;
    final EngineEvents events;
    final InstanceOps ops;
    private final Set<Node> included;
    /** What this walk planned (while planning); each vertex adds its own instances' changes. */
    final PlannedChanges planned = new PlannedChanges();
    /** What this walk applied (while applying); each vertex adds its own instances' outcomes. */
    final ApplyOutcomes applied = new ApplyOutcomes();
    /** The ephemeral resource instances this walk opened and has not closed yet. */
    final EphemeralResources ephemerals;
    /** Destroying with {@code -target}: the targets and what depends on them; the other resources are only read. */
    private final Set<Node> destroyed = new HashSet<>();
    /**
     * Destroying with {@code -target}: for each vertex that depends on a target, the targets it depends on. Its
     * instances are destroyed only in the module instances that can use what those targets name (see
     * {@link #destroysAsDependent}).
     */
    private final Map<Node, Set<TargetReach>> dependentOfTargets = new HashMap<>();

    /** A target, and the module of the vertex it names through which a dependent depends on it. */
    private record TargetReach(dev.strata.addr.Targetable target, dev.strata.addr.Module via) {}
    /** With {@code -exclude}: the vertices the excludes name, planned without their excluded instances. */
    private final Set<Node> excludeNamed = new HashSet<>();
    /** Destroying with {@code -exclude}: what the excluded objects depend on; only read, as they still need it. */
    private final Set<Node> kept = new HashSet<>();
    /**
     * Destroying with {@code -target}: the resources read again first, as Terraform's refresh before a destroy
     * reads them, which is a targeted plan's: the targets and what they depend on (not what depends on them,
     * which is destroyed as recorded).
     */
    private final Set<Node> refreshedBeforeDestroy = new HashSet<>();

    /**
     * A walk of only {@code roots} and what they depend on (null: the targets, or everything), with
     * its instance operations (built here: they and the walk refer to each other).
     */
    Walk(
            Run run,
            DependencyGraph<Node> graph,
            EngineEvents events,
            ProviderCalls calls,
            InstanceOps.Inputs inputs,
            Set<Node> roots) {
        this.run = run;
        this.graph = graph;
        this.events = events;
        this.ops = new InstanceOps(run, events, calls, inputs, this);
        this.ephemerals = new EphemeralResources(events, run::diagnose, java.time.Clock.systemUTC());
        this.included = roots != null
                ? closure(roots)
                : run.options.excludes().isEmpty() ? targetClosure() : exclusionComplement();
    }

    private Set<Node> closure(java.util.Collection<Node> roots) {
        Set<Node> out = new HashSet<>();
        List<Node> todo = new ArrayList<>(roots);
        while (!todo.isEmpty()) {
            Node n = todo.removeLast();
            if (out.add(n)) {
                todo.addAll(graph.dependenciesOf(n));
            }
        }
        return out;
    }

    private static final Logger LOG = LoggerFactory.getLogger(Walk.class);

    /** {@link #createBeforeDestroy}'s resources, worked out on first use (every instance written asks). */
    private volatile Set<Node> createBeforeDestroy;

    /**
     * Whether a replacement of the resource's instances creates the new object before destroying the old: its
     * own {@code create_before_destroy}, or, as Terraform propagates it, that of a resource that depends on it,
     * directly or through anything else. (Destroying such a dependency first would need the dependent gone
     * first, while the dependent's new object must exist before its old one goes.) The state records the
     * propagated setting too.
     */
    boolean createBeforeDestroy(dev.strata.addr.Module m, ResourceConfig rc) {
        if (rc.lifecycle().createBeforeDestroy()) {
            return true;
        }
        Set<Node> all = createBeforeDestroy;
        if (all == null) {
            synchronized (this) {
                if (createBeforeDestroy == null) {
                    List<Node> own = new ArrayList<>();
                    for (Node n : graph.nodes()) {
                        if (n instanceof Node.ResourceNode rn) {
                            ResourceConfig c =
                                    config(rn.module()).module().resources().get(rn.resource());
                            if (c != null && c.lifecycle().createBeforeDestroy()) {
                                own.add(n);
                            }
                        }
                    }
                    createBeforeDestroy = own.isEmpty() ? Set.of() : Set.copyOf(closure(own));
                }
                all = createBeforeDestroy;
            }
        }
        return !all.isEmpty() && all.contains(new Node.ResourceNode(m, rc.addr()));
    }

    /** Vertices whose failure was reported as a diagnostic by the vertex itself. */
    private final Set<Node> reported = ConcurrentHashMap.newKeySet();
    /** Set when a visit ran out of memory (or the VM failed otherwise): the walk starts nothing more. */
    private final AtomicBoolean exhausted = new AtomicBoolean();

    /** A unit of a resource vertex's work: one instance (or placeholder) and what to do for it. */
    record InstanceWork(AbsResourceInstance addr, Runnable op) {}

    /**
     * Root outputs that hold sensitive values without {@code sensitive = true}, and outputs whose value is
     * ephemeral where the declaration does not allow it (or the reverse), by source range: reported
     * together after the walk, in source order, so every one is reported on every run whatever the
     * order the outputs were visited in, and once however many instances the module has.
     */
    private final SortedMap<SourceRange, Diagnostic> unmarkedSensitiveOutputs =
            new java.util.concurrent.ConcurrentSkipListMap<>();

    /**
     * Walks the graph; returns the outcome of every vertex. Every outcome is read: a failure the
     * vertex did not report itself becomes a diagnostic naming it, so nothing fails silently.
     */
    SortedMap<Node, DagWalker.Outcome<Node>> walk(BooleanSupplier stop) throws InterruptedException {
        long started = System.nanoTime();
        AtomicBoolean stopLogged = new AtomicBoolean();
        BooleanSupplier stopping = () -> {
            boolean s = exhausted.get() || stop.getAsBoolean();
            if (s && stopLogged.compareAndSet(false, true)) {
                LOG.debug(
                        "walk: stop requested ({}); no new vertex starts",
                        exhausted.get() ? "out of memory" : "interrupt");
            }
            return s;
        };
        // Vertices mostly wait on providers; the provider-call bound is the run's permits, not this.
        SortedMap<Node, DagWalker.Outcome<Node>> outcomes;
        try {
            outcomes = new DagWalker<>(graph, 64).walk(this::visit, stopping);
        } finally {
            // Failed, skipped or interrupted: an ephemeral resource is never left open (an apply that
            // deletes closes them itself, after its deletions).
            ephemerals.walkEnded();
        }
        int failed = 0;
        int skipped = 0;
        for (Map.Entry<Node, DagWalker.Outcome<Node>> e : outcomes.entrySet()) {
            Node n = e.getKey();
            switch (e.getValue()) {
                case DagWalker.Outcome.Succeeded<Node> s -> {}
                case DagWalker.Outcome.Failed<Node> f -> {
                    failed++;
                    if (!reported.contains(n)) {
                        run.diagnose(InternalErrors.of(operation(), n.display(), f.reason()));
                    }
                }
                case DagWalker.Outcome.Skipped<Node> s -> {
                    skipped++;
                    if (LOG.isDebugEnabled()) {
                        LOG.debug(
                                "walk: skipped {}: {}",
                                n.display(),
                                s.cause() == null
                                        ? "stop requested"
                                        : "depends on " + s.cause().display() + ", which did not complete");
                    }
                }
            }
        }
        LOG.debug(
                "walk: {} done: {} vertices in {} ms ({} failed, {} skipped)",
                operation(),
                outcomes.size(),
                (System.nanoTime() - started) / 1_000_000,
                failed,
                skipped);
        unmarkedSensitiveOutputs.values().forEach(run::diagnose);
        return outcomes;
    }

    private String operation() {
        return run.phase == Run.Phase.PLAN ? "planning" : "applying";
    }

    /**
     * One vertex. Its outcome comes from its own diagnostics only (other vertices report into the run
     * at the same time), and whatever it throws becomes a diagnostic naming it.
     */
    private DagWalker.Outcome<Node> visit(Node n) {
        // A destroy vertex holds only deletions the plan being applied makes: -target or -exclude chose them.
        if (included != null && !included.contains(n) && !(n instanceof Node.DestroyNode)) {
            LOG.trace("walk: {} left out by -target or -exclude", n.display());
            return new DagWalker.Outcome.Succeeded<>();
        }
        long started = System.nanoTime();
        LOG.trace("walk: start {}", n.display());
        VisitDiagnostics own = new VisitDiagnostics();
        run.reportingFor(own, () -> {
            try {
                dispatch(n);
            } catch (Throwable t) {
                thrown(n.display(), t);
            }
        });
        ephemerals.visited(n);
        long ms = (System.nanoTime() - started) / 1_000_000;
        if (own.hasErrors()) {
            reported.add(n);
            LOG.debug("walk: {} failed after {} ms with {} error(s)", n.display(), ms, own.errorCount());
            return new DagWalker.Outcome.Failed<>(n.display() + " failed");
        }
        LOG.debug("walk: {} done after {} ms", n.display(), ms);
        return new DagWalker.Outcome.Succeeded<>();
    }

    private void dispatch(Node n) {
        switch (n) {
            case Node.VariableNode v -> variable(v);
            case Node.VariableValidationNode v -> validation(v);
            case Node.LocalNode l -> local(l);
            case Node.OutputNode o -> output(o);
            case Node.ModuleCallNode c -> moduleCall(c);
            case Node.ModuleCloseNode c -> {}
            case Node.ProviderNode p -> provider(p);
            case Node.ResourceNode r -> resource(r);
            case Node.DestroyNode d -> destroyFirst(d);
            case Node.CheckNode c -> check(c);
        }
    }

    /** Reports what a visit or an instance operation threw; on the reporting thread of its visit. */
    private void thrown(String name, Throwable t) {
        if (t instanceof VirtualMachineError) {
            exhausted.set(true);
        }
        LOG.debug("walk: {} threw while {}", name, operation(), t);
        run.diagnose(InternalErrors.of(operation(), name, t));
    }

    /**
     * With {@code -target}: the targeted resources and everything they depend on; null without targets.
     * Destroying, what depends on the targets is destroyed with them, as in Terraform (it could not
     * outlive them), so they and their dependents are {@link #destroyed}, and the rest of what they
     * depend on is only read.
     */
    private Set<Node> targetClosure() {
        if (run.options.targets().isEmpty()) {
            return null;
        }
        List<Node> todo = named(run.options.targets());
        if (run.options.mode() == PlanMode.DESTROY) {
            refreshedBeforeDestroy.addAll(closure(todo));
            destroyed.addAll(todo);
            for (dev.strata.addr.Targetable t : run.options.targets()) {
                for (Node start : named(List.of(t))) {
                    // Dependents depend on the targeted objects: a module target's call, variables and outputs
                    // would make every instance of what they feed look dependent on the targeted instance.
                    if (!(start instanceof Node.ResourceNode)) {
                        continue;
                    }
                    TargetReach reach = new TargetReach(t, start.module());
                    List<Node> next = new ArrayList<>(List.of(start));
                    Set<Node> seen = new HashSet<>(next);
                    while (!next.isEmpty()) {
                        Node n = next.removeLast();
                        // An ephemeral resource is not destroyed, so neither is what uses it (Terraform's -target
                        // of one in a destroy plan destroys nothing).
                        if (isEphemeral(n)) {
                            continue;
                        }
                        for (Node d : graph.dependentsOf(n)) {
                            if (seen.add(d)) {
                                destroyed.add(d);
                                dependentOfTargets
                                        .computeIfAbsent(d, x -> new HashSet<>())
                                        .add(reach);
                                next.add(d);
                            }
                        }
                    }
                }
            }
            todo.addAll(destroyed);
        }
        Set<Node> out = closure(todo);
        if (run.options.mode() != PlanMode.DESTROY) {
            out.addAll(targetedRootOutputs(out));
        }
        // A variable that is evaluated is validated too, as in Terraform, when what its rules refer to is.
        for (Node n : graph.nodes()) {
            if (n instanceof Node.VariableValidationNode && out.containsAll(graph.dependenciesOf(n))) {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * The root outputs a targeted walk still evaluates, with what they need: as in Terraform, an output is
     * kept when it derives from at least one resource and every resource it derives from (through locals,
     * variables and module calls) is within {@code targeted}; an output of constants or of variables alone
     * is left as it is.
     */
    private Set<Node> targetedRootOutputs(Set<Node> targeted) {
        Set<Node> out = new HashSet<>();
        for (Node n : graph.nodes()) {
            if (!(n instanceof Node.OutputNode o) || !o.module().isRoot()) {
                continue;
            }
            Set<Node> deps = closure(graph.dependenciesOf(n));
            boolean anyResource = false;
            boolean allTargeted = true;
            for (Node d : deps) {
                if (d instanceof Node.ResourceNode) {
                    anyResource = true;
                    allTargeted &= targeted.contains(d);
                }
            }
            if (anyResource && allTargeted) {
                out.add(n);
                out.addAll(deps);
            }
        }
        return out;
    }

    /** Whether planning reads {@code ai} again from its provider before deciding what to do with it. */
    boolean refreshes(AbsResourceInstance ai) {
        if (!run.options.refresh()) {
            return false;
        }
        if (run.options.mode() != PlanMode.DESTROY || run.options.targets().isEmpty()) {
            return true;
        }
        Node.ResourceNode rn =
                new Node.ResourceNode(ai.module().module(), ai.resource().resource());
        return refreshedBeforeDestroy.contains(rn) && Targets.matchesInstance(instanceFilter(rn), ai);
    }

    /**
     * Destroying with {@code -target}: whether {@code ai} goes because it depends on a target. As Terraform
     * decides it: a dependent in the same module as the targeted object it depends on goes only in that
     * object's module instance (another instance of the module cannot use it); a dependent in any other module
     * goes in every instance.
     */
    private boolean destroysAsDependent(Node.ResourceNode rn, AbsResourceInstance ai) {
        for (TargetReach r : dependentOfTargets.getOrDefault(rn, Set.of())) {
            if (!r.via().equals(rn.module())) {
                return true;
            }
            boolean sameInstance = switch (r.target()) {
                case AbsResource t -> Targets.matchesInstance(List.of(t.module()), ai);
                case AbsResourceInstance t -> Targets.matchesInstance(List.of(t.module()), ai);
                case ModuleInstance t -> Targets.matchesInstance(List.of(t), ai);
            };
            if (sameInstance) {
                return true;
            }
        }
        return false;
    }

    /** Instance-level targets filter the targeted resource only; what it depends on is planned whole. */
    private List<dev.strata.addr.Targetable> instanceFilter(Node.ResourceNode rn) {
        return Targets.matchesResource(run.options.targets(), rn) || insideTargetedModule(rn.module())
                ? run.options.targets()
                : List.of();
    }

    /** Whether {@code m} is a targeted module or inside one (whose own instances the targets then select). */
    private boolean insideTargetedModule(dev.strata.addr.Module m) {
        for (dev.strata.addr.Targetable t : run.options.targets()) {
            if (t instanceof ModuleInstance mi && !mi.isRoot() && InstanceOps.startsWith(m, mi.module())) {
                return true;
            }
        }
        return false;
    }

    /** The vertices {@code addrs} name: resources (of any instance of their module) and whole module calls. */
    private List<Node> named(List<dev.strata.addr.Targetable> addrs) {
        List<Node> out = new ArrayList<>();
        for (Node n : graph.nodes()) {
            if (n instanceof Node.ResourceNode rn && Targets.matchesResource(addrs, rn)) {
                out.add(n);
            }
            if (n instanceof Node.ModuleCallNode mc && Targets.matchesModule(addrs, mc.child())) {
                out.add(n);
                for (Node m : graph.nodes()) {
                    if (InstanceOps.startsWith(m.module(), mc.child())) {
                        out.add(m);
                    }
                }
            }
        }
        return out;
    }

    /**
     * With {@code -exclude}: every vertex but those that depend on what the excludes name. The named
     * vertices themselves are walked and leave out only their excluded instances (a whole resource or
     * module excludes them all); whatever depends on a named vertex is left out whole, because it may
     * use an excluded instance. A named vertex that depends on one left out is left out too.
     * Destroying, the order is the other way round: what the excluded objects depend on must outlive
     * them, so it is {@link #kept} (only read), and what depends on them is destroyed as usual.
     */
    private Set<Node> exclusionComplement() {
        excludeNamed.addAll(named(run.options.excludes()));
        if (run.options.mode() == PlanMode.DESTROY) {
            kept.addAll(closure(excludeNamed));
            return null;
        }
        Set<Node> left = new HashSet<>();
        java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>(new java.util.TreeSet<>(excludeNamed));
        while (!todo.isEmpty()) {
            Node x = todo.removeFirst();
            for (Node d : graph.dependentsOf(x)) {
                if (!left.contains(d) && (!excludeNamed.contains(d) || left.contains(x))) {
                    left.add(d);
                    todo.addLast(d);
                }
            }
        }
        Set<Node> out = new HashSet<>(graph.nodes());
        out.removeAll(left);
        return out;
    }

    private static boolean isEphemeral(Node n) {
        return n instanceof Node.ResourceNode rn && rn.resource().mode() == ResourceMode.EPHEMERAL;
    }

    boolean included(Node n) {
        return included == null || included.contains(n);
    }

    // ---- variables, locals, outputs, checks ----

    private ConfigNode config(Module m) {
        return run.tree.node(m).orElseThrow();
    }

    private void variable(Node.VariableNode v) {
        if (v.module().isRoot()) {
            // Its value was read before the walk; a value that does not suit the declaration fails here, as
            // in Terraform, so that only what uses it waits (its value is unknown).
            Diagnostics problems = run.options.variables().problems(v.name());
            if (run.checksRootVariables() && !problems.isEmpty()) {
                run.diagnose(problems);
                run.rootVariableRejected();
            }
            return;
        }
        ModuleInstance stand = placeholder(v.module());
        if (stand != null) {
            placeholderVariable(v, stand);
        }
        ConfigNode n = config(v.module());
        VariableConfig vc = n.module().variables().get(v.name());
        ModuleCallConfig call = n.call();
        for (ModuleInstance mi : run.instancesOf(v.module())) {
            Attribute a = call.inputs().get(v.name());
            Scope scope = a == null
                    ? null
                    : callScope(mi.parent(), call, mi.steps().getLast().key());
            Value value = inputValue(vc, a, scope, mi + " var." + v.name());
            run.setVariable(mi, v.name(), value);
        }
    }

    /**
     * A variable checked against its {@code validation} rules in each instance of its module; a value or rule
     * known only after apply is checked in the apply.
     */
    private void validation(Node.VariableValidationNode v) {
        if (v.module().isRoot() && !run.checksRootVariables()) {
            return;
        }
        ConfigNode n = config(v.module());
        VariableConfig vc = n.module().variables().get(v.name());
        // A root variable's rules report at the value in its file, or at the declaration for a value from the
        // command line, the environment or the default; a child module's, at the call's argument.
        Attribute a = n.call() == null ? null : n.call().inputs().get(v.name());
        SourceRange subject = v.module().isRoot()
                ? run.options.variables().range(v.name())
                : a == null ? null : a.expr().range();
        List<dev.strata.config.CheckRule> rules = vc.validations();
        for (ModuleInstance mi : run.instancesOf(v.module())) {
            if (run.variable(mi, v.name()).isWhollyKnown()) {
                Diagnostics found = VariableValidation.check(vc, rules, RunData.scope(run, mi), subject);
                run.diagnose(found);
                if (mi.isRoot() && found.hasErrors()) {
                    run.rootVariableRejected();
                }
            }
        }
    }

    private Scope callScope(ModuleInstance parent, ModuleCallConfig call, InstanceKey key) {
        Map<String, Expansion> calls = run.callExpansions.get(parent);
        Expansion e = calls == null ? null : calls.get(call.name());
        Value each = e instanceof Expansion.ForEach fe && key instanceof InstanceKey.StringKey sk
                ? fe.each().get(sk.key())
                : null;
        return new RunData(run, parent).forInstance(key, each).scope();
    }

    private void local(Node.LocalNode l) {
        LocalConfig lc = config(l.module()).module().locals().get(l.name());
        List<ModuleInstance> instances = new ArrayList<>(run.instancesOf(l.module()));
        ModuleInstance stand = placeholder(l.module());
        if (stand != null) {
            instances.add(stand);
        }
        for (ModuleInstance mi : instances) {
            Result<Value> r = new Evaluator(RunData.scope(run, mi)).evaluate(lc.expr());
            run.diagnose(r.diagnostics());
            run.setLocal(mi, l.name(), r.value());
        }
    }

    private void output(Node.OutputNode o) {
        OutputConfig oc = config(o.module()).module().outputs().get(o.name());
        for (ModuleInstance mi : run.instancesOf(o.module())) {
            Scope scope = RunData.scope(run, mi);
            boolean failed = false;
            for (CheckRule pre : oc.preconditions()) {
                failed |= !condition(scope, pre, "Module output value precondition failed", true);
            }
            Value v;
            // A destroy plan removes the root outputs; a child module's outputs still feed what other modules'
            // arguments evaluate to (from the objects' prior values), as in Terraform.
            if (run.options.mode() == PlanMode.DESTROY && mi.isRoot()) {
                v = Value.NULL;
            } else {
                Result<Value> r = new Evaluator(scope).evaluate(oc.value());
                run.diagnose(r.diagnostics());
                v = r.value();
                failed |= r.hasErrors();
            }
            // As in Terraform 1.11, "sensitive = true" on a child module's output marks nothing in the
            // parent: only the marks the value itself carries (a sensitive variable, a sensitive resource
            // attribute) travel on. A root output's flag hides it in plans, state and the output command.
            if (oc.sensitive() && mi.isRoot()) {
                v = v.mark(Mark.SENSITIVE);
            } else if (mi.isRoot() && v.hasMarkDeep(Mark.SENSITIVE)) {
                unmarkedSensitiveOutputs.put(
                        oc.declRange(),
                        Diagnostic.error(
                                "Output refers to sensitive values",
                                "To reduce the risk of accidentally exporting sensitive data that was intended to be only "
                                        + "internal, Strata requires that any root module output containing sensitive data be "
                                        + "explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as "
                                        + "sensitive by adding the following argument:\n    sensitive = true",
                                oc.declRange()));
            }
            // Under test the module's ephemeral outputs are allowed and read in memory, never persisted.
            boolean inMemoryOnly = mi.isRoot() && oc.ephemeral() && run.providers.ephemeralRootOutputs();
            if (inMemoryOnly) {
                v = v.mark(Mark.EPHEMERAL);
            }
            Diagnostic ephemeral = inMemoryOnly
                    ? null
                    : mi.isRoot() && oc.ephemeral()
                            ? Ephemerals.rootOutput(oc.declRange())
                            : Ephemerals.checkOutput(
                                    oc.ephemeral(), v, oc.value().range());
            if (ephemeral != null) {
                unmarkedSensitiveOutputs.put(ephemeral.subject(), ephemeral);
                if (mi.isRoot()) {
                    // Root outputs go to the plan and the state, where an ephemeral value must never be.
                    v = Value.nullValue(v.type());
                }
            }
            run.setOutput(mi, o.name(), v);
            // An output that failed to evaluate, or whose precondition failed, has no planned change: the plan
            // shows its error instead, as Terraform's does.
            if (mi.isRoot() && !(failed && run.phase == Run.Phase.PLAN)) {
                ops.rootOutput(o.name(), oc, inMemoryOnly ? Value.nullValue(v.type()) : v);
            }
        }
    }

    private void check(Node.CheckNode c) {
        CheckConfig cc = config(c.module()).module().checks().get(c.name());
        for (ModuleInstance mi : run.instancesOf(c.module())) {
            Scope scope = RunData.scope(run, mi);
            for (CheckRule rule : cc.asserts()) {
                Verdict v = verdict(scope, rule, "Check block assertion failed", false);
                // As Terraform 1.11: planning says when an assertion waits for the apply (the apply command
                // leaves the warning out, a test's plan run fails on it).
                if (v == Verdict.UNKNOWN && run.phase == Run.Phase.PLAN) {
                    run.diagnose(Diagnostic.warning(
                                    CHECK_KNOWN_AFTER_APPLY,
                                    "The condition could not be evaluated at this time, a result will be known when "
                                            + "this plan is applied.",
                                    rule.condition().range())
                            .withValues(dev.strata.lang.eval.ExpressionValues.ofUnknownCause(rule.condition(), scope)));
                }
            }
        }
    }

    /**
     * Evaluates a condition; a false one is an error (or, for check blocks, a warning) with its
     * message. An unknown condition is checked later (during apply).
     */
    boolean condition(Scope scope, CheckRule rule, String summary, boolean error) {
        return verdict(scope, rule, summary, error) != Verdict.FAILED;
    }

    /** The summary of the warning for a check block assertion that is unknown while planning. */
    static final String CHECK_KNOWN_AFTER_APPLY = "Check block assertion known after apply";

    /** What a condition came to: an error evaluating it counts as holding (the error is reported). */
    private enum Verdict {
        HOLDS,
        FAILED,
        UNKNOWN
    }

    private Verdict verdict(Scope scope, CheckRule rule, String summary, boolean error) {
        Result<Value> r = new Evaluator(scope).evaluate(rule.condition());
        run.diagnose(r.diagnostics());
        Value v = r.value();
        if (r.hasErrors()) {
            return Verdict.HOLDS;
        }
        if (!v.isKnown()) {
            return Verdict.UNKNOWN;
        }
        if (v.isNull()) {
            run.diagnose(Diagnostic.error(
                    "Invalid condition result",
                    "Condition expression must return either " + "true or false, not null.",
                    rule.condition().range()));
            return Verdict.FAILED;
        }
        ConversionResult b = dev.strata.lang.value.Convert.convert(v.unmarkDeep(), Type.BOOL);
        if (b instanceof ConversionResult.Failed f) {
            run.diagnose(Diagnostic.error(
                    "Invalid condition result",
                    "Invalid condition result value: " + f.message() + ".",
                    rule.condition().range()));
            return Verdict.FAILED;
        }
        if (b.value().asBool()) {
            return Verdict.HOLDS;
        }
        String message = "";
        if (rule.errorMessage() != null) {
            Result<Value> m = new Evaluator(scope).evaluate(rule.errorMessage());
            if (!m.hasErrors()
                    && m.value().isKnownAndNotNull()
                    && !m.value().hasMarkDeep(Mark.SENSITIVE)
                    && m.value().type() == Type.STRING) {
                message = m.value().asString();
            } else if (m.value().hasMarkDeep(Mark.SENSITIVE)) {
                message = "(The error message refers to sensitive values and is not shown.)";
            }
        }
        Diagnostic d = error
                ? Diagnostic.error(summary, message, rule.condition().range())
                : Diagnostic.warning(summary, message, rule.condition().range());
        run.diagnose(d.withValues(dev.strata.lang.eval.ExpressionValues.of(rule.condition(), scope)));
        return Verdict.FAILED;
    }

    // ---- placeholders for modules whose instances are not known yet ----

    /**
     * While planning, the stand-in instance of a module whose instances are not known yet (its call's
     * count or for_each waits for the apply, or an enclosing call's does). Values that do not depend
     * on which instance it will be are known in it, so that a known count or for_each inside is
     * decided (and an invalid one rejected) at plan time: only what is unknown may wait (§3.6).
     * Null when the module's instances are known, and while applying.
     */
    private ModuleInstance placeholder(Module m) {
        if (run.phase != Run.Phase.PLAN || m.isRoot() || !run.deferredModules.containsKey(m)) {
            return null;
        }
        return m.unkeyedInstance();
    }

    /**
     * A module input's value: its argument evaluated in {@code scope} and converted to the variable's
     * type (null and non-nullable: the default), or the default when the call does not set it; marked
     * sensitive as the variable says. {@code name} is how errors name the variable.
     */
    private Value inputValue(VariableConfig vc, Attribute a, Scope scope, String name) {
        Value value;
        if (a == null) {
            value = vc.defaultValue() == null ? Value.nullValue(vc.type().type()) : vc.defaultValue();
        } else {
            Result<Value> r = new Evaluator(scope).evaluate(a.expr());
            run.diagnose(r.diagnostics());
            value = r.value();
            if (value.isNull() && !vc.nullable() && vc.defaultValue() != null) {
                value = vc.defaultValue();
            }
            ConversionResult c = vc.type().convert(value);
            if (c instanceof ConversionResult.Failed f) {
                run.diagnose(Diagnostic.error(
                        "Invalid value for input variable",
                        "The given value is not " + "suitable for " + name + ": " + f.message() + ".",
                        a.expr().range()));
                value = Value.unknown(vc.type().type());
            } else {
                value = c.value();
            }
        }
        Diagnostic ephemeral = a == null
                ? null
                : Ephemerals.checkInput(vc.ephemeral(), value, a.expr().range());
        if (ephemeral != null) {
            unmarkedSensitiveOutputs.put(ephemeral.subject(), ephemeral);
        }
        return InputVariables.marked(vc, value);
    }

    /**
     * The instance a placeholder's module call is evaluated in: the parent's own placeholder, or the
     * parent's only instance; null when the parent has several, whose values may differ.
     */
    private ModuleInstance placeholderParent(Module parent) {
        ModuleInstance stand = placeholder(parent);
        if (stand != null) {
            return stand;
        }
        List<ModuleInstance> all = run.instancesOf(parent);
        return all.size() == 1 ? all.getFirst() : null;
    }

    /** A module variable in the placeholder: the call's argument with count.index and each.* unknown. */
    private void placeholderVariable(Node.VariableNode v, ModuleInstance stand) {
        ConfigNode n = config(v.module());
        VariableConfig vc = n.module().variables().get(v.name());
        Attribute a = n.call().inputs().get(v.name());
        ModuleInstance parent = placeholderParent(v.module().parent());
        Value value;
        if (a != null && parent == null) {
            // Several parent instances, whose arguments may differ: nothing is known for all of them.
            value = InputVariables.marked(vc, Value.unknown(vc.type().type()));
        } else {
            Scope scope =
                    a == null ? null : new RunData(run, parent).forAnyInstance().scope();
            value = inputValue(vc, a, scope, v.module() + " var." + v.name());
        }
        run.setVariable(stand, v.name(), value);
    }

    // ---- module calls and providers ----

    private void moduleCall(Node.ModuleCallNode c) {
        ModuleCallConfig call = config(c.module()).module().moduleCalls().get(c.name());
        Module child = c.child();
        Expansion.Deferred parentDeferred = run.deferredModules.get(c.module());
        if (parentDeferred != null) {
            run.deferredModules.put(child, parentDeferred);
        }
        List<ModuleInstance> instances = new ArrayList<>();
        for (ModuleInstance mi : run.instancesOf(c.module())) {
            Expansion e = expand(RunData.scope(run, mi), call.count(), call.forEach());
            if (e == null) {
                continue;
            }
            run.callExpansions
                    .computeIfAbsent(mi, x -> new java.util.concurrent.ConcurrentHashMap<>())
                    .put(c.name(), e);
            if (e instanceof Expansion.Deferred d) {
                run.deferredModules.put(child, d);
                continue;
            }
            for (InstanceKey k : e.keys()) {
                ModuleInstance ci = mi.child(c.name(), k);
                java.util.Optional<Map<String, Value>> given = run.providers.moduleOutputs(ci);
                if (given.isEmpty()) {
                    instances.add(ci);
                    continue;
                }
                // Overridden: the instance is left out of the module's instances, so its variables, locals,
                // resources, nested calls and outputs are neither evaluated nor planned nor applied.
                run.overriddenModules.add(ci);
                for (String name : config(child).module().outputs().keySet()) {
                    run.setOutput(ci, name, given.get().getOrDefault(name, Value.NULL));
                }
            }
        }
        run.moduleInstances.put(child, List.copyOf(new TreeSet<>(instances)));
    }

    private void provider(Node.ProviderNode p) {
        AbsProviderConfig cfg = p.config();
        Result<Provider> r = run.providers.get(run.tree, cfg);
        if (r.value() == null) {
            run.diagnose(r.diagnostics());
            return;
        }
        ProviderSchema schema = run.providers.schema(cfg);
        ProviderConfig pc = GraphBuilder.providerConfig(run.tree, cfg);
        Value config;
        java.util.Optional<Overrides.ProviderBlock> given = run.providers.providerBlock(cfg);
        if (given.isPresent()) {
            Result<Value> decoded = BodyDecoder.decode(
                    given.get().body(), schema.provider().block(), given.get().scope());
            run.diagnose(decoded.diagnostics());
            if (decoded.hasErrors()) {
                return;
            }
            config = decoded.value();
        } else if (pc == null) {
            Value supplied = run.providers.supplied(cfg);
            dev.strata.provider.SchemaValues.Coerced coerced = dev.strata.provider.SchemaValues.coerce(
                    schema.provider().block(), supplied != null ? supplied : Value.EMPTY_OBJECT);
            Diagnostics bad = coerced.diagnostics().toDiagnostics();
            run.diagnose(bad);
            if (bad.hasErrors()) {
                return;
            }
            config = coerced.value();
        } else {
            ModuleInstance mi = run.instancesOf(cfg.module()).isEmpty()
                    ? cfg.module().unkeyedInstance()
                    : run.instancesOf(cfg.module()).getFirst();
            Result<Value> decoded =
                    BodyDecoder.decode(pc.config(), schema.provider().block(), RunData.scope(run, mi));
            run.diagnose(decoded.diagnostics());
            if (decoded.hasErrors()) {
                return;
            }
            config = decoded.value();
        }
        Diagnostics d = run.providers.configure(cfg, config);
        SourceRange at = pc != null ? pc.declRange() : null;
        for (Diagnostic x : d) {
            run.diagnose(new Diagnostic(
                    x.severity(), x.summary(), x.detail(), x.subject() != null ? x.subject() : at, x.context()));
        }
    }

    // ---- resources ----

    /** Planning validates as Terraform's plan does: an ignore_changes entry that does nothing is worth a warning. */
    private void redundantIgnoreChanges(Node.ResourceNode rn, ResourceConfig rc) {
        AbsProviderConfig pa = GraphBuilder.providerOf(run.tree, config(rn.module()), rc);
        if (run.providers.configured(pa) == null) {
            return;
        }
        Schema s = schemaOf(run.providers.schema(pa), rn.resource());
        if (s != null) {
            RedundantIgnoreChanges.of(rc, s.block()).forEach(run::diagnose);
        }
    }

    private void resource(Node.ResourceNode rn) {
        ResourceConfig rc = config(rn.module()).module().resources().get(rn.resource());
        if (run.phase == Run.Phase.PLAN) {
            redundantIgnoreChanges(rn, rc);
        }
        Expansion.Deferred moduleDeferred = run.deferredModules.get(rn.module());
        if (moduleDeferred != null) {
            AbsResource ar = rn.module().unkeyedInstance().resource(rn.resource());
            run.resourceExpansions.put(ar, moduleDeferred);
            // Which instances an -exclude names is not known before the module's expansion: none is planned.
            if (run.phase == Run.Phase.PLAN && run.options.mode() != PlanMode.DESTROY && !excludeNamed.contains(rn)) {
                // The instances wait for the module's; a count or for_each known already is decided now.
                ModuleInstance stand = placeholder(rn.module());
                if (stand != null) {
                    expand(RunData.scope(run, stand), rc.count(), rc.forEach());
                }
                planned.deferred(new DeferredResource(ar, moduleDeferred.argument(), moduleDeferred.unknownRefs()));
            }
            return;
        }
        List<InstanceWork> work = new ArrayList<>();
        List<dev.strata.addr.Targetable> filter = instanceFilter(rn);
        // Ephemeral resources have nothing to destroy: destroying, they are opened as in any plan, for the
        // providers and destroy-time provisioners that use them.
        boolean ephemeral = rn.resource().mode() == ResourceMode.EPHEMERAL;
        boolean onlyRead = run.options.mode() == PlanMode.DESTROY
                && !ephemeral
                && (!run.options.targets().isEmpty() && !destroyed.contains(rn)
                        || kept.contains(rn) && !excludeNamed.contains(rn));
        List<dev.strata.addr.Targetable> excluding = excludeNamed.contains(rn) ? run.options.excludes() : List.of();
        for (ModuleInstance mi : run.instancesOf(rn.module())) {
            AbsResource ar = mi.resource(rn.resource());
            RunData data = new RunData(run, mi);
            Expansion e;
            if (run.options.mode() == PlanMode.DESTROY && !ephemeral) {
                e = stateExpansion(ar);
                if (e == null) {
                    // Nothing of it in state (a second destroy): nothing to do, but expressions still see the
                    // shape the configuration gives it, with no objects; a single resource is not a tuple.
                    run.resourceExpansions.put(ar, withoutInstances(rc));
                    continue;
                }
            } else {
                e = expand(data.scope(), rc.count(), rc.forEach());
                if (e == null) {
                    continue;
                }
            }
            run.resourceExpansions.put(ar, e);
            if (e instanceof Expansion.Deferred d) {
                ops.deferred(rc, ar, d, data, work);
                continue;
            }
            for (InstanceKey k : e.keys()) {
                AbsResourceInstance ai = ar.instance(k);
                boolean targetedDestroy = run.options.mode() == PlanMode.DESTROY
                        && !ephemeral
                        && !run.options.targets().isEmpty();
                boolean planned = targetedDestroy
                        ? !onlyRead
                                && (!filter.isEmpty() && Targets.matchesInstance(filter, ai)
                                        || destroysAsDependent(rn, ai))
                        : !onlyRead && Targets.matchesInstance(filter, ai);
                if (!planned
                        && targetedDestroy
                        && run.phase == Run.Phase.PLAN
                        && rn.resource().mode() == ResourceMode.MANAGED
                        && refreshes(ai)) {
                    work.add(new InstanceWork(ai, () -> ops.refreshKept(rc, ai)));
                    continue;
                }
                if (!planned || Targets.excludesInstance(excluding, ai)) {
                    Value prior = ops.stateValue(ai, rc);
                    if (prior != null) {
                        run.setInstanceValue(ai, prior);
                    }
                    continue;
                }
                Value each =
                        e instanceof Expansion.ForEach fe ? fe.each().get(((InstanceKey.StringKey) k).key()) : null;
                RunData is = data.forInstance(k, each);
                work.add(new InstanceWork(ai, () -> ops.instance(rc, ai, is)));
            }
            if (run.phase == Run.Phase.PLAN) {
                ops.orphans(rc, ar, e);
            } else {
                ops.deferredLeftovers(ar, e);
            }
        }
        runAll(work);
    }

    /**
     * In destroy mode every instance in state is planned for deletion, whatever the configuration says: the
     * expansion the state gives {@code ar}, or null when the state holds nothing of it.
     */
    private Expansion stateExpansion(AbsResource ar) {
        return run.state()
                .resource(ar)
                .map(rs -> {
                    boolean keyed = rs.instances().stream().anyMatch(o -> !(o.key() instanceof InstanceKey.NoKey));
                    if (!keyed) {
                        return (Expansion) new Expansion.Single();
                    }
                    SortedMap<String, Value> each = new TreeMap<>();
                    int count = 0;
                    for (ResourceInstanceObject o : rs.instances()) {
                        switch (o.key()) {
                            case InstanceKey.IntKey i -> count = Math.max(count, i.index() + 1);
                            case InstanceKey.StringKey s -> each.put(s.key(), Value.NULL);
                            case InstanceKey.NoKey nk -> {}
                        }
                    }
                    return each.isEmpty() ? new Expansion.Count(count) : new Expansion.ForEach(each);
                })
                .orElse(null);
    }

    /** The configuration's kind of expansion, with no instances: what a resource absent from state has. */
    private static Expansion withoutInstances(ResourceConfig rc) {
        if (rc.count() != null) {
            return new Expansion.Count(0);
        }
        if (rc.forEach() != null) {
            return new Expansion.ForEach(new TreeMap<>());
        }
        return new Expansion.Single();
    }

    /**
     * A resource's destroy-first deletions ({@link DestroyOrder}), each instance on its own; one that fails
     * fails the vertex, so that its replacement and the changes to what it depended on wait for the next run.
     */
    private void destroyFirst(Node.DestroyNode d) {
        ResourceConfig rc = InstanceOps.configOf(run.tree, d.module(), d.resource());
        List<InstanceWork> work = new ArrayList<>();
        for (ResourceChange c : ops.destroyedFirst(d)) {
            work.add(new InstanceWork(c.addr(), () -> {
                if (!ops.ensureProvider(c.provider()) || ops.destroyPrevented(c, rc)) {
                    applied.failed(c.addr());
                    return;
                }
                ops.destroy(c, rc);
            }));
        }
        runAll(work);
    }

    /**
     * Runs instance work concurrently; provider calls inside are bounded by the run's permits. Each
     * operation reports for the visit that started it, and whatever it throws becomes a diagnostic
     * naming the instance (and, while applying, marks it failed) without stopping its siblings.
     */
    void runAll(List<InstanceWork> work) {
        VisitDiagnostics owner = run.currentVisit();
        List<Runnable> guarded = work.stream()
                .map(w -> (Runnable) () -> run.reportingFor(owner, () -> {
                    // Each instance operation holds a -parallelism slot from before it starts until it ends, so a
                    // stop request leaves the instances still waiting for a slot unstarted.
                    if (!ops.calls().enterSlot()) {
                        return;
                    }
                    try {
                        // After running out of memory, work not yet started is dropped: it would fail the same way.
                        if (exhausted.get()) {
                            LOG.debug("walk: {} not started: the run is out of memory", w.addr());
                            return;
                        }
                        w.op().run();
                    } catch (ProviderCalls.ProviderUnavailable e) {
                        run.diagnose(Diagnostic.error("Provider unavailable", e.getMessage(), null));
                    } catch (Throwable t) {
                        if (run.applying()) {
                            applied.failed(w.addr());
                        }
                        thrown(w.addr().toString(), t);
                    } finally {
                        ops.calls().exitSlot();
                    }
                }))
                .toList();
        if (guarded.size() == 1) {
            guarded.getFirst().run();
            return;
        }
        List<Throwable> failures;
        try {
            failures = InstanceThreads.runAll(guarded, run.options.parallelism());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        for (int i = 0; i < failures.size(); i++) {
            if (failures.get(i) != null) {
                // The guard catches everything, so this is only a failure of the guard itself.
                thrown(work.get(i).addr().toString(), failures.get(i));
            }
        }
    }

    /**
     * Evaluates {@code count} / {@code for_each}: static when known, deferred when not (§3.6); null
     * after an error (reported). What a value means is decided by {@link Repetition}, as for
     * validation, so only a value not known yet is deferred.
     */
    Expansion expand(Scope scope, Expression count, Expression forEach) {
        if (count == null && forEach == null) {
            return new Expansion.Single();
        }
        Expression e = count != null ? count : forEach;
        Result<Value> r = new Evaluator(scope).evaluate(e);
        run.diagnose(r.diagnostics());
        if (r.hasErrors()) {
            return null;
        }
        Repetition decided = count != null
                ? Repetition.checkCount(r.value(), e.range())
                : Repetition.checkForEach(r.value(), e.range());
        return switch (decided) {
            case Repetition.Count c -> new Expansion.Count(c.count());
            case Repetition.ForEach f -> new Expansion.ForEach(f.each());
            case Repetition.Unknown u -> {
                List<String> refs = unknownRefs(scope, e);
                LOG.debug(
                        "walk: {} at {} deferred until apply, waiting for {}",
                        count != null ? "count" : "for_each",
                        e.range(),
                        refs);
                yield new Expansion.Deferred(count != null ? "count" : "for_each", refs);
            }
            case Repetition.Invalid i -> {
                // As Terraform: where it shows them, what the references held, under the snippet (var.n is "x").
                run.diagnose(i.diagnostic(e, scope));
                yield null;
            }
        };
    }

    /** The references in {@code e} whose values are not yet known, as written. */
    private static List<String> unknownRefs(Scope scope, Expression e) {
        Set<String> out = new TreeSet<>();
        for (Traversal t : e.variables()) {
            Result<Scope.Resolved> r = scope.resolve(t);
            if (r.value() != null && !r.value().value().isWhollyKnown()) {
                out.add(t.toString());
            }
        }
        return List.copyOf(out);
    }

    /**
     * Every vertex that depends on {@code n}, directly or not (a provider configured from it, and every
     * resource of that provider): what an ephemeral resource stays open for.
     */
    Set<Node> dependentsOf(Node n) {
        Set<Node> out = new HashSet<>();
        List<Node> todo = new ArrayList<>(graph.dependentsOf(n));
        while (!todo.isEmpty()) {
            Node d = todo.removeLast();
            if (out.add(d)) {
                todo.addAll(graph.dependentsOf(d));
            }
        }
        return out;
    }

    static boolean isData(AbsResource r) {
        return r.resource().mode() == ResourceMode.DATA;
    }

    static Schema schemaOf(ProviderSchema ps, dev.strata.addr.Resource r) {
        return switch (r.mode()) {
            case MANAGED -> ps.resourceType(r.type());
            case DATA -> ps.dataSource(r.type());
            case EPHEMERAL -> ps.ephemeralResource(r.type());
        };
    }

    /** Terraform's error for a type its provider does not have, at {@code at}. */
    static Diagnostic unsupportedType(dev.strata.addr.Provider provider, dev.strata.addr.Resource r, SourceRange at) {
        String[] kind = switch (r.mode()) {
            case MANAGED -> new String[] {"resource type", "resource type"};
            case DATA -> new String[] {"data source", "data source"};
            case EPHEMERAL -> new String[] {"ephemeral resource", "ephemeral resource"};
        };
        return Diagnostic.error(
                "Invalid " + kind[0],
                "The provider " + provider.forDisplay() + " does not support " + kind[1] + " \"" + r.type() + "\".",
                at);
    }

    static OutputValue outputValue(Value v) {
        Value plain = v.unmarkDeep();
        return new OutputValue(
                StateValues.toJson(plain, plain.type()),
                StateValues.fromNode(dev.strata.provider.ValueJson.typeNode(plain.type())),
                v.hasMarkDeep(Mark.SENSITIVE));
    }
}
