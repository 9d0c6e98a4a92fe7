package dev.strata.stacks.runtime;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Module;
import dev.strata.config.ConfigTree;
import dev.strata.config.VariableConfig;
import dev.strata.engine.ApplyResult;
import dev.strata.engine.Engine;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.engine.PlanOptions;
import dev.strata.engine.StateValues;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import dev.strata.stacks.addr.StackInstance;
import dev.strata.stacks.config.ComponentConfig;
import dev.strata.stacks.config.EmbeddedStackConfig;
import dev.strata.stacks.config.ProviderArgument;
import dev.strata.stacks.config.ProviderBlock;
import dev.strata.stacks.config.RemovedBlock;
import dev.strata.stacks.config.RemovedTarget;
import dev.strata.stacks.config.StackConfig;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * One deployment in one phase (the seed's {@code Main}): the root stack instance, the component
 * instances' results (each computed once, by whoever asks first), and the walks that make sure every
 * object is visited. Planning and applying order themselves by data flow: a component instance
 * evaluating {@code component.network.vpc_id} waits for that instance's plan or apply. Destroying is
 * the exception: it waits for everything that depends on the instance, in the order the plan recorded.
 */
final class DeploymentRun {
    enum Phase {
        PLAN,
        APPLY
    }

    final String deployment;
    final Phase phase;
    final PlanMode mode;
    final RuntimeSettings settings;
    final DeploymentStore store;
    final StackEvents events;
    final FunctionTable functions;
    private final DeploymentPlan reviewed;
    private final boolean reviewedFromFile;
    private final StackInstanceRun root;
    private final ConcurrentLinkedQueue<Diagnostic> diagnostics = new ConcurrentLinkedQueue<>();
    private final Memo<String, Outcome> components = new Memo<>();
    private final Memo<Path, Result<ConfigTree>> trees = new Memo<>();
    private final Map<String, ProviderInstance> providerRefs = new ConcurrentHashMap<>();
    /** Components whose for_each is not known: all their instances are deferred. */
    private final Set<String> deferredCalls = ConcurrentHashMap.newKeySet();
    /** Component instances deferred one by one (their for_each is known). */
    private final Set<String> deferredInstances = ConcurrentHashMap.newKeySet();

    private final Set<String> failedCalls = ConcurrentHashMap.newKeySet();
    private final Semaphore engineSlots;
    private final Interruption interruption;
    /** Whether the interrupt left work undone: an instance not started, or an engine that stopped early. */
    private final java.util.concurrent.atomic.AtomicBoolean cutShort = new java.util.concurrent.atomic.AtomicBoolean();

    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();

    private record ProviderInstance(StackInstanceRun stack, ProviderBlock block, InstanceKey key, Value each) {}

    /**
     * A component instance the configuration no longer declares: claimed by a {@code removed} block, or
     * (when its component is still declared and only its key is gone) by that component, whose source
     * and providers destroy it with {@code each.key} and {@code each.value} set to the old key.
     */
    private record Removal(
            StackInstanceRun stack, RemovedBlock block, ComponentConfig component, InstanceKey eachKey, Value each) {
        boolean destroy() {
            return block == null || block.destroy();
        }
    }

    private final Map<String, Placed> calls = new ConcurrentHashMap<>();
    /** The component calls of embedded stacks that {@code removed} blocks claim. */
    private final Set<String> removedStackCalls = ConcurrentHashMap.newKeySet();

    DeploymentRun(
            String deployment,
            Phase phase,
            PlanMode mode,
            RuntimeSettings settings,
            DeploymentStore store,
            StackEvents events,
            StackConfig config,
            Map<String, Value> inputs,
            DeploymentPlan reviewed,
            boolean reviewedFromFile,
            Interruption interruption) {
        this.interruption = interruption;
        this.deployment = deployment;
        this.phase = phase;
        this.mode = mode;
        this.settings = settings;
        this.store = store;
        this.events = events;
        this.reviewed = reviewed;
        this.reviewedFromFile = reviewedFromFile;
        this.engineSlots = new Semaphore(settings.parallelism());
        this.functions = TemplateFunctions.builtins(FunctionContext.system(settings.workingDir()));
        this.root = new StackInstanceRun(this, config, StackInstance.ROOT, inputs);
    }

    void report(Diagnostics d) {
        d.forEach(diagnostics::add);
    }

    Diagnostics diagnostics() {
        return Diagnostics.of(new ArrayList<>(new java.util.LinkedHashSet<>(diagnostics)));
    }

    // ---- providers ----

    private final Memo<String, Result<dev.strata.provider.Block>> providerSchemas = new Memo<>();

    /**
     * The configuration schema of {@code provider}, read once per run from a new, unconfigured instance
     * of it: only a {@code config} block with nested blocks needs it.
     */
    Result<dev.strata.provider.Block> providerConfigSchema(dev.strata.addr.Provider provider) {
        return providerSchemas.get(provider.toString(), () -> {
            Result<dev.strata.provider.ProviderFactory> f =
                    settings.providers().resolve(provider, dev.strata.addr.VersionConstraint.ANY);
            if (f.value() == null) {
                return Result.of(null, f.diagnostics());
            }
            try (dev.strata.provider.Provider p = f.value().create()) {
                return Result.of(p.schema().provider().block());
            } catch (RuntimeException e) {
                return Result.of(
                        null,
                        Diagnostics.of(Diagnostic.error(
                                "Failed to read the provider's schema",
                                "Provider " + provider.forDisplay() + " did not give its configuration schema: "
                                        + e.getMessage() + ".",
                                null)));
            }
        });
    }

    String registerProvider(StackInstanceRun s, ProviderBlock b, InstanceKey key, Value each) {
        String ref = (s.addr.isRoot() ? "" : s.addr + ".") + b.addr() + key;
        providerRefs.putIfAbsent(ref, new ProviderInstance(s, b, key, each));
        return ref;
    }

    void markDeferred(String call) {
        deferredCalls.add(call);
    }

    // ---- component instances ----

    Outcome component(StackInstanceRun s, ComponentConfig c, InstanceKey key, Value each) {
        String address = s.instanceAddr(c, key).toString();
        if (removedStackCalls.contains(callOf(address))) {
            // A component of a removed embedded stack is only destroyed: what refers to it (its
            // dependents in that stack, being destroyed first) sees its outputs as last applied.
            return components.get(address, () -> fromState(address));
        }
        return components.get(address, () -> switch (mode) {
            case DESTROY -> fromState(address);
            default -> phase == Phase.PLAN ? plan(s, c, key, each) : apply(s, c, key, each);
        });
    }

    private Outcome fromState(String address) {
        Result<StateSnapshot> st = store.readComponent(address);
        Value out = st.value() == null ? Value.DYNAMIC_UNKNOWN : outputsOf(st.value());
        return new Outcome(null, null, out, false, false);
    }

    static Value outputsOf(StateSnapshot s) {
        SortedMap<String, Value> out = new TreeMap<>();
        s.outputs().forEach((n, o) -> out.put(n, StateValues.outputValue(o)));
        return Value.object(out);
    }

    /** The names of {@code component.*} a component's arguments refer to, directly or through locals. */
    List<String> dependencies(StackInstanceRun s, ComponentConfig c) {
        return dependencies(s, c, true);
    }

    /**
     * The components {@code c}'s inputs and provider arguments name directly and that nothing else of it
     * (a local value, a provider block, for_each, depends_on) leads to.
     */
    private Set<String> directDependencies(StackInstanceRun s, ComponentConfig c) {
        Set<String> direct = new TreeSet<>(dependencies(s, c, true));
        direct.removeAll(dependencies(s, c, false));
        return direct;
    }

    private List<String> dependencies(StackInstanceRun s, ComponentConfig c, boolean withDirect) {
        List<Expression> given = new ArrayList<>();
        given.add(c.inputs());
        c.providerArgs().values().forEach(a -> given.add(a.value()));
        Set<String> out = new TreeSet<>();
        Set<String> seenLocals = new HashSet<>();
        List<Traversal> refs = new ArrayList<>(c.dependsOn());
        if (c.forEach() != null) {
            refs.addAll(c.forEach().variables());
        }
        for (Expression e : given) {
            if (e != null) {
                e.variables().stream()
                        .filter(t -> withDirect || !"component".equals(t.rootName()))
                        .forEach(refs::add);
            }
        }
        for (int i = 0; i < refs.size(); i++) {
            Traversal t = refs.get(i);
            if (t.steps().size() < 2 || !(t.steps().get(1) instanceof Traverser.Attr a)) {
                continue;
            }
            switch (t.rootName()) {
                case "component" -> {
                    if (s.config.components().containsKey(a.name()) && !a.name().equals(c.name())) {
                        out.add(a.name());
                    }
                }
                case "local" -> {
                    var l = s.config.locals().get(a.name());
                    if (l != null && seenLocals.add(a.name())) {
                        refs.addAll(l.expr().variables());
                    }
                }
                case "provider" -> {
                    if (t.steps().size() >= 3 && t.steps().get(2) instanceof Traverser.Attr n) {
                        ProviderBlock b = s.config
                                .providers()
                                .get(new dev.strata.stacks.addr.ProviderConfigAddr(a.name(), n.name()));
                        if (b != null && seenLocals.add("provider." + a.name() + "." + n.name())) {
                            if (b.forEach() != null) {
                                refs.addAll(b.forEach().variables());
                            }
                            if (b.config() != null) {
                                var attrs = b.config().justAttributes();
                                if (attrs.value() != null) {
                                    attrs.value()
                                            .values()
                                            .forEach(x -> refs.addAll(x.expr().variables()));
                                }
                            }
                        }
                    }
                }
                default -> {}
            }
        }
        return List.copyOf(out);
    }

    private ComponentSetup setup(
            StackInstanceRun s,
            String address,
            Path moduleDir,
            Expression inputs,
            SortedMap<String, ProviderArgument> providerArgs,
            List<String> depNames,
            Set<String> direct,
            Scope scope) {
        List<String> deps = new ArrayList<>();
        String blocked = null;
        SortedMap<String, Set<String>> deferredDeps = new TreeMap<>();
        for (String name : depNames) {
            // Asking for the value makes sure the dependency was planned (or applied) before this one.
            s.componentValue(name, null);
            String call = s.componentAddr(name).toString();
            deps.add(call);
            if (deferredCalls.contains(call)) {
                deferredDeps.put(name, Set.of(call));
            } else {
                Set<String> di = new TreeSet<>();
                deferredInstances.stream().filter(a -> callOf(a).equals(call)).forEach(di::add);
                if (!di.isEmpty()) {
                    deferredDeps.put(name, di);
                }
            }
            if (failedCalls.contains(call) && blocked == null) {
                blocked = call;
            }
        }
        String deferred = null;
        if (!deferredDeps.isEmpty()) {
            List<Expression> given = new ArrayList<>();
            given.add(inputs);
            providerArgs.values().forEach(a -> given.add(a.value()));
            String read = DeferredReads.readBy(s, deferredDeps, direct, given, scope);
            deferred = read == null ? null : "it depends on " + read + ", which is deferred";
        }
        boolean broken = false;
        Result<ConfigTree> loaded = tree(moduleDir);
        if (loaded.value() == null || loaded.hasErrors()) {
            return new ComponentSetup(address, null, new TreeMap<>(), Map.of(), deps, deferred, blocked, true);
        }
        ConfigTree tree = loaded.value();
        var module = tree.root().module();
        Map<AbsProviderConfig, Value> providers = new LinkedHashMap<>();
        for (ProviderArgument arg : providerArgs.values()) {
            Value v = s.eval(arg.value(), scope);
            if (!v.isKnown()) {
                deferred = deferred != null
                        ? deferred
                        : "the provider configuration passed as \"" + arg.name() + "\" is not known until apply";
                continue;
            }
            ProviderInstance pi = v.isNull() || !v.type().equals(Type.STRING) ? null : providerRefs.get(v.asString());
            if (pi == null) {
                report(Diagnostics.of(Diagnostic.error(
                        "Invalid provider configuration",
                        "The value for \"" + arg.name() + "\" must be a reference to a provider configuration, like "
                                + "provider.aws.main.",
                        arg.value().range())));
                broken = true;
                continue;
            }
            Value cfg = pi.stack().providerConfig(pi.block(), pi.key(), pi.each());
            if (!cfg.isWhollyKnown()) {
                deferred = deferred != null
                        ? deferred
                        : "the configuration of " + v.asString() + " depends on values not known until apply";
                continue;
            }
            String local = arg.name();
            String alias = null;
            int dot = local.indexOf('.');
            if (dot > 0) {
                alias = local.substring(dot + 1);
                local = local.substring(0, dot);
            }
            providers.put(new AbsProviderConfig(Module.ROOT, module.providerFor(local), alias), cfg.unmarkDeep());
        }
        SortedMap<String, Value> vars = new TreeMap<>();
        Value in = inputs == null ? Value.EMPTY_OBJECT : s.eval(inputs, scope);
        if (!in.isKnown()) {
            module.variables().keySet().forEach(n -> vars.put(n, Value.DYNAMIC_UNKNOWN));
        } else if (!in.isNull()) {
            for (var e : in.attributes().entrySet()) {
                if (!module.variables().containsKey(e.getKey())) {
                    report(Diagnostics.of(Diagnostic.error(
                            "Invalid inputs for component",
                            "The module of " + address + " has no input variable named \"" + e.getKey() + "\".",
                            inputs.range())));
                    broken = true;
                    continue;
                }
                vars.put(e.getKey(), e.getValue());
            }
        }
        return new ComponentSetup(address, tree, vars, providers, deps, deferred, blocked, broken);
    }

    private ComponentSetup setup(StackInstanceRun s, ComponentConfig c, InstanceKey key, Value each) {
        return setup(
                s,
                s.instanceAddr(c, key).toString(),
                c.moduleDir(),
                c.inputs(),
                c.providerArgs(),
                dependencies(s, c),
                directDependencies(s, c),
                s.scope(key, each));
    }

    private ComponentSetup setup(String address, Removal r) {
        if (r.component() != null) {
            ComponentSetup s = setup(r.stack(), r.component(), r.eachKey(), r.each());
            return new ComponentSetup(
                    address,
                    s.tree(),
                    s.variables(),
                    s.providers(),
                    s.dependsOn(),
                    s.deferredReason(),
                    null,
                    s.broken());
        }
        Scope scope = r.stack().scope(r.eachKey(), r.each());
        ComponentSetup base = setup(
                r.stack(), address, r.block().moduleDir(), null, r.block().providerArgs(), List.of(), Set.of(), scope);
        if (base.tree() == null) {
            return base;
        }
        // A removed component has no inputs: its variables are unknown, which destroying does not need.
        SortedMap<String, Value> vars = new TreeMap<>();
        for (VariableConfig v : base.tree().root().module().variables().values()) {
            if (v.defaultExpr() == null) {
                vars.put(v.name(), Value.DYNAMIC_UNKNOWN);
            }
        }
        return new ComponentSetup(
                address,
                base.tree(),
                vars,
                base.providers(),
                recordedDependencies(address),
                base.deferredReason(),
                null,
                base.broken());
    }

    /** What a component instance depended on when it was last applied, as its part of the state says. */
    private List<String> recordedDependencies(String address) {
        Result<StateSnapshot> st = store.readComponent(address);
        return st.value() == null ? List.of() : RecordedDependencies.of(st.value());
    }

    /**
     * Saves what a configured instance depends on with its part of the state, so that a later run
     * destroying it through a removed block knows the order; written only when it changed.
     */
    private Diagnostics recordDependencies(StateManager state, List<String> dependsOn) {
        StateSnapshot now = state.state();
        List<String> deps = List.copyOf(new TreeSet<>(dependsOn));
        if (RecordedDependencies.of(now).equals(deps) || (deps.isEmpty() && !state.exists())) {
            return Diagnostics.NONE;
        }
        return state.persist(RecordedDependencies.with(now, deps)).diagnostics();
    }

    Result<ConfigTree> tree(Path dir) {
        return trees.get(dir, () -> {
            Result<ConfigTree> r = dev.strata.stacks.config.InstalledSources.loadTree(settings.workingDir(), dir);
            report(r.diagnostics());
            return r;
        });
    }

    private Engine engine(ComponentSetup setup) {
        return Engine.builder(setup.tree(), settings.providers(), settings.version())
                .environment(settings.environment())
                .providerConfigs(setup.providers())
                .build();
    }

    private PlanOptions options(PlanMode m) {
        return new PlanOptions(settings.workingDir(), "default", m, true, List.of(), List.of(), 10);
    }

    /** Runs {@code work} on a new engine for {@code setup} once a slot is free; an interrupt reaches it. */
    private <T> T withEngine(
            ComponentSetup setup, java.util.function.Function<Engine, T> work, Supplier<T> ifInterrupted) {
        engineSlots.acquireUninterruptibly();
        try {
            if (interruption.requested()) {
                // It waited for a slot while the interrupt came: it never starts.
                return ifInterrupted.get();
            }
            Engine e = engine(setup);
            return interruption.running(e, () -> work.apply(e));
        } finally {
            engineSlots.release();
        }
    }

    /** An instance the interrupt kept from starting: no plan, nothing applied, nothing blamed on it. */
    private Outcome notStarted(String address, ComponentSetup setup, boolean removed) {
        cutShort.set(true);
        events.componentFinished(
                deployment, address, phase == Phase.PLAN ? "planning" : "applying", "not started (interrupted)");
        return new Outcome(
                new ComponentPlan(address, null, null, removed, setup.dependsOn(), Diagnostics.NONE),
                new ComponentApplied(address, null, false, Diagnostics.NONE),
                Value.DYNAMIC_UNKNOWN,
                false,
                true);
    }

    private static String callOf(String address) {
        return address.endsWith("]") ? address.substring(0, address.lastIndexOf('[')) : address;
    }

    private Outcome plan(StackInstanceRun s, ComponentConfig c, InstanceKey key, Value each) {
        ComponentSetup setup = setup(s, c, key, each);
        return planSetup(setup, PlanMode.NORMAL, false);
    }

    private Outcome planSetup(ComponentSetup setup, PlanMode m, boolean removed) {
        String address = setup.address();
        if (interruption.requested()) {
            return notStarted(address, setup, removed);
        }
        if (setup.broken() || setup.blockedBy() != null) {
            failedCalls.add(callOf(address));
            return new Outcome(
                    new ComponentPlan(address, null, null, removed, setup.dependsOn(), Diagnostics.NONE),
                    null,
                    Value.DYNAMIC_UNKNOWN,
                    false,
                    true);
        }
        if (setup.deferredReason() != null) {
            deferredInstances.add(address);
            events.componentFinished(deployment, address, "planning", "deferred: " + setup.deferredReason());
            return new Outcome(
                    new ComponentPlan(
                            address, null, setup.deferredReason(), removed, setup.dependsOn(), Diagnostics.NONE),
                    null,
                    Value.DYNAMIC_UNKNOWN,
                    true,
                    false);
        }
        events.componentStarted(deployment, address, "planning");
        Result<StateSnapshot> prior = store.readComponent(address);
        if (prior.value() == null) {
            failedCalls.add(callOf(address));
            return new Outcome(
                    new ComponentPlan(address, null, null, removed, setup.dependsOn(), prior.diagnostics()),
                    null,
                    Value.DYNAMIC_UNKNOWN,
                    false,
                    true);
        }
        Result<Plan> p = withEngine(
                setup,
                e -> e.plan(setup.variables(), prior.value(), options(m), events.engineEvents(deployment, address)),
                () -> Result.of(null, Diagnostics.NONE));
        Diagnostics d = prior.diagnostics().with(p.diagnostics());
        if ((p.value() == null || p.hasErrors()) && interruption.requested()) {
            // The engine stopped at the interrupt: the deployment says so once, for all its instances.
            cutShort.set(true);
            events.componentFinished(deployment, address, "planning", "interrupted");
            return new Outcome(
                    new ComponentPlan(address, null, null, removed, setup.dependsOn(), Diagnostics.NONE),
                    null,
                    Value.DYNAMIC_UNKNOWN,
                    false,
                    true);
        }
        if (p.value() == null || p.hasErrors()) {
            failedCalls.add(callOf(address));
            events.componentFinished(deployment, address, "planning", "failed");
            return new Outcome(
                    new ComponentPlan(address, null, null, removed, setup.dependsOn(), d),
                    null,
                    Value.DYNAMIC_UNKNOWN,
                    false,
                    true);
        }
        Plan plan = p.value();
        SortedMap<String, Value> outs = new TreeMap<>();
        plan.outputs().forEach((n, o) -> outs.put(n, o.after()));
        Plan.Summary sum = plan.summary();
        events.componentFinished(
                deployment,
                address,
                "planning",
                sum.add() + " to add, " + sum.change() + " to change, " + sum.destroy() + " to destroy");
        return new Outcome(
                new ComponentPlan(address, plan, null, removed, setup.dependsOn(), d),
                null,
                Value.object(outs),
                false,
                false);
    }

    private Outcome apply(StackInstanceRun s, ComponentConfig c, InstanceKey key, Value each) {
        return applySetup(setup(s, c, key, each), PlanMode.NORMAL);
    }

    private Outcome applySetup(ComponentSetup setup, PlanMode m) {
        String address = setup.address();
        if (interruption.requested()) {
            return notStarted(address, setup, false);
        }
        if (setup.broken() || setup.blockedBy() != null) {
            failedCalls.add(callOf(address));
            Diagnostics d = setup.blockedBy() == null
                    ? Diagnostics.NONE
                    : Diagnostics.of(Diagnostic.warning(
                            "Component instance not applied",
                            address + " was not applied because " + setup.blockedBy() + " failed.",
                            null));
            return failed(address, d);
        }
        if (setup.deferredReason() != null) {
            failedCalls.add(callOf(address));
            return failed(
                    address,
                    Diagnostics.of(Diagnostic.error(
                            "Component instance cannot be applied",
                            address + " is still deferred after everything it depends on was applied: "
                                    + setup.deferredReason() + ".",
                            null)));
        }
        ComponentPlan rp = reviewed == null ? null : reviewed.component(address);
        events.componentStarted(deployment, address, m == PlanMode.DESTROY ? "destroying" : "applying");
        Result<StateManager> opened = store.openComponent(address, LockRequest.of("OperationTypeApply", Duration.ZERO));
        interruption.opened(opened.value());
        if (opened.value() == null) {
            failedCalls.add(callOf(address));
            return failed(address, opened.diagnostics());
        }
        try (StateManager state = opened.value()) {
            Plan plan = null;
            boolean replanned = false;
            if (rp != null
                    && rp.plan() != null
                    && sameState(rp.plan(), state.state())
                    && sameInputs(rp.plan(), setup.variables())) {
                plan = rp.plan();
            } else if (reviewedFromFile && rp != null && rp.plan() != null && wholly(rp.plan())) {
                failedCalls.add(callOf(address));
                return failed(
                        address,
                        Diagnostics.of(Diagnostic.error(
                                "Saved plan is stale",
                                "The saved plan for " + address + " no longer matches its state or its inputs. "
                                        + "Create a new plan with \"strata stacks plan -out=FILE\".",
                                null)));
            } else {
                StateSnapshot now = state.state();
                Result<Plan> p = withEngine(
                        setup,
                        e -> e.plan(setup.variables(), now, options(m), events.engineEvents(deployment, address)),
                        () -> Result.of(null, Diagnostics.NONE));
                if ((p.value() == null || p.hasErrors()) && interruption.requested()) {
                    cutShort.set(true);
                    events.componentFinished(deployment, address, "applying", "not started (interrupted)");
                    return new Outcome(
                            null,
                            new ComponentApplied(address, null, false, Diagnostics.NONE),
                            Value.DYNAMIC_UNKNOWN,
                            false,
                            true);
                }
                if (p.value() == null || p.hasErrors()) {
                    failedCalls.add(callOf(address));
                    events.componentFinished(deployment, address, "applying", "failed");
                    return failed(address, p.diagnostics());
                }
                plan = p.value();
                replanned = true;
            }
            if (!plan.hasChanges()) {
                Diagnostics recorded = plan.recordRefreshed(state);
                if (!recorded.hasErrors() && m == PlanMode.NORMAL) {
                    recorded = recorded.with(recordDependencies(state, setup.dependsOn()));
                }
                events.componentFinished(deployment, address, "applying", "no changes");
                ApplyResult none = new ApplyResult(
                        state.state(), 0, 0, 0, List.of(), List.of(), List.of(), false, Diagnostics.NONE);
                return new Outcome(
                        null,
                        new ComponentApplied(
                                address, none, replanned, plan.diagnostics().with(recorded)),
                        outputsOf(state.state()),
                        false,
                        false);
            }
            Plan toApply = plan;
            Result<ApplyResult> r = withEngine(
                    setup,
                    e -> e.apply(toApply, state, options(m), events.engineEvents(deployment, address)),
                    () -> null);
            if (r == null) {
                return notStarted(address, setup, false);
            }
            ApplyResult ar = r.value();
            if (ar != null && ar.interrupted()) {
                cutShort.set(true);
                events.componentFinished(
                        deployment,
                        address,
                        m == PlanMode.DESTROY ? "destroying" : "applying",
                        "interrupted, " + ar.added() + " added, " + ar.changed() + " changed, " + ar.destroyed()
                                + " destroyed");
                return new Outcome(
                        null,
                        new ComponentApplied(address, ar, false, r.diagnostics()),
                        outputsOf(ar.state()),
                        false,
                        true);
            }
            Diagnostics d = r.diagnostics();
            boolean bad = ar == null || r.hasErrors() || !ar.failed().isEmpty() || ar.interrupted();
            if (!bad && m == PlanMode.NORMAL) {
                d = d.with(recordDependencies(state, setup.dependsOn()));
            }
            if (bad) {
                failedCalls.add(callOf(address));
            }
            events.componentFinished(
                    deployment,
                    address,
                    m == PlanMode.DESTROY ? "destroying" : "applying",
                    bad
                            ? "failed"
                            : ar.added() + " added, " + ar.changed() + " changed, " + ar.destroyed() + " destroyed");
            return new Outcome(
                    null,
                    new ComponentApplied(address, ar, replanned, d),
                    ar == null ? Value.DYNAMIC_UNKNOWN : outputsOf(ar.state()),
                    false,
                    bad);
        }
    }

    private static Outcome failed(String address, Diagnostics d) {
        return new Outcome(null, new ComponentApplied(address, null, false, d), Value.DYNAMIC_UNKNOWN, false, true);
    }

    private static boolean sameState(Plan p, StateSnapshot now) {
        StateSnapshot was = p.priorState();
        return was.lineage().equals(now.lineage()) && was.serial() == now.serial() || was.isEmpty() && now.isEmpty();
    }

    private static boolean wholly(Plan p) {
        return p.variables().values().stream().allMatch(Value::isWhollyKnown);
    }

    /** Whether the values a component instance gets now are the ones it was planned with. */
    private static boolean sameInputs(Plan p, SortedMap<String, Value> now) {
        for (var e : now.entrySet()) {
            Value planned = p.variables().get(e.getKey());
            if (planned == null || !planned.isWhollyKnown()) {
                return false;
            }
            Value v = e.getValue();
            if (!v.type().equals(planned.type())) {
                ConversionResult c = Convert.convert(v, planned.type());
                if (!c.isOk()) {
                    return false;
                }
                v = c.value();
            }
            if (!v.equalsIgnoringMarks(planned)) {
                return false;
            }
        }
        return true;
    }

    // ---- walks ----

    /** Every configured component instance (address to its stack, block, key and each.value), by walking expansions. */
    private record Placed(StackInstanceRun stack, ComponentConfig component, InstanceKey key, Value each) {}

    private void place(StackInstanceRun s, Map<String, Placed> out, List<ComponentPlan> deferredOut) {
        for (ComponentConfig c : s.config.components().values()) {
            calls.put(s.componentAddr(c.name()).toString(), new Placed(s, c, InstanceKey.NONE, Value.NULL));
            Expansion e = s.componentExpansion(c);
            if (!e.known()) {
                String call = s.componentAddr(c.name()).toString();
                deferredCalls.add(call);
                deferredOut.add(new ComponentPlan(
                        call + "[*]",
                        null,
                        "its for_each value is not known until apply",
                        false,
                        dependencies(s, c).stream()
                                .map(n -> s.componentAddr(n).toString())
                                .toList(),
                        Diagnostics.NONE));
                continue;
            }
            e.instances().forEach((k, each) -> out.put(s.instanceAddr(c, k).toString(), new Placed(s, c, k, each)));
        }
        for (EmbeddedStackConfig call : s.config.embeddedStacks().values()) {
            Expansion e = s.callExpansion(call);
            if (!e.known()) {
                String addr = (s.addr.isRoot() ? "" : s.addr + ".") + "stack." + call.name();
                deferredOut.add(new ComponentPlan(
                        addr + "[*]",
                        null,
                        "the embedded stack's for_each value is not known until apply",
                        false,
                        List.of(),
                        Diagnostics.NONE));
                continue;
            }
            e.instances().forEach((k, each) -> place(s.child(call, k, each), out, deferredOut));
        }
    }

    /** State instances no configured component claims, matched to {@code removed} blocks (or reported). */
    private Map<String, Removal> removals(Set<String> configured, List<String> inState) {
        Map<String, Removal> claimed = new TreeMap<>();
        collectRemovals(root, claimed);
        Map<String, Removal> out = new TreeMap<>();
        for (String a : inState) {
            if (configured.contains(a)) {
                continue;
            }
            Removal r = claimed.get(a);
            if (r == null) {
                r = claimed.get(callOf(a) + "[*]");
                if (r != null && r.component() != null && a.endsWith("\"]")) {
                    // A component of a removed embedded stack: destroyed with its old key.
                    String key = a.substring(callOf(a).length() + 2, a.length() - 2);
                    r = new Removal(r.stack(), r.block(), r.component(), InstanceKey.of(key), Value.string(key));
                }
            }
            Placed call = calls.get(callOf(a));
            if (r == null && call != null && a.endsWith("\"]")) {
                String key = a.substring(callOf(a).length() + 2, a.length() - 2);
                r = new Removal(call.stack(), null, call.component(), InstanceKey.of(key), Value.string(key));
            }
            if (r == null) {
                report(Diagnostics.of(Diagnostic.error(
                        "Unclaimed component instance",
                        "The state of deployment \"" + deployment + "\" has " + a + ", which the configuration no "
                                + "longer declares. Add a removed block with from = " + callOf(a)
                                + ", its source and its providers, so it can be destroyed.",
                        null)));
                continue;
            }
            out.put(a, r);
        }
        return out;
    }

    private void collectRemovals(StackInstanceRun s, Map<String, Removal> claimed) {
        // An embedded stack's own removed blocks claim in its instances, as its components are placed.
        for (EmbeddedStackConfig call : s.config.embeddedStacks().values()) {
            if (call.stack() != null) {
                s.callExpansion(call)
                        .instances()
                        .forEach((k, each) -> collectRemovals(s.child(call, k, each), claimed));
            }
        }
        for (RemovedBlock rb : s.config.removed()) {
            if (rb.from().targetsStack() && rb.stack() != null) {
                collectStackRemovals(s, rb, claimed);
                continue;
            }
            if (rb.from().targetsStack()) {
                continue;
            }
            if (rb.forEach() == null) {
                for (StackInstanceRun owner : owners(s, rb, s.scope())) {
                    String call = owner.componentAddr(rb.from().component()).toString();
                    Expression keyExpr = rb.from().componentKey();
                    if (keyExpr == null) {
                        claimed.put(call, new Removal(s, rb, null, InstanceKey.NONE, Value.NULL));
                        claimed.put(call + "[*]", new Removal(s, rb, null, InstanceKey.NONE, Value.NULL));
                    } else {
                        Value k = s.eval(keyExpr, s.scope());
                        if (k.isKnown() && k.type().equals(Type.STRING)) {
                            claimed.put(
                                    call + InstanceKey.of(k.asString()),
                                    new Removal(s, rb, null, InstanceKey.NONE, Value.NULL));
                        }
                    }
                }
                continue;
            }
            Result<Expansion> e = Expansion.of(rb.forEach(), s.scope());
            report(e.diagnostics());
            e.value().instances().forEach((ek, each) -> {
                Scope sc = s.scope(ek, each);
                Value k = rb.from().componentKey() == null
                        ? Value.NULL
                        : s.eval(rb.from().componentKey(), sc);
                for (StackInstanceRun owner : owners(s, rb, sc)) {
                    String call = owner.componentAddr(rb.from().component()).toString();
                    String addr =
                            k.isKnown() && k.type().equals(Type.STRING) ? call + InstanceKey.of(k.asString()) : call;
                    claimed.put(addr, new Removal(s, rb, null, ek, each));
                }
            });
        }
    }

    /**
     * The stack instances holding a removed component: the block's own stack, or for
     * {@code from = stack.a.component.b} the instances of the still declared {@code stack.a}. The
     * block's arguments are evaluated where it is declared either way.
     */
    private List<StackInstanceRun> owners(StackInstanceRun s, RemovedBlock rb, Scope sc) {
        return rb.from().stacks().isEmpty() ? List.of(s) : parents(s, rb.from().stacks(), sc);
    }

    /**
     * A removed embedded stack ({@code from = stack.NAME} or {@code stack.NAME[KEY]}, also deeper:
     * {@code stack.a.stack.b} removes {@code b} from every instance of the still declared {@code a}, or
     * from {@code stack.a["k"]} only): its components, as the block's {@code source} declares them, and
     * those of the stacks it embeds claim their instances in the state; each is destroyed with its own
     * providers, evaluated in a stack instance given the block's {@code inputs}.
     */
    private void collectStackRemovals(StackInstanceRun s, RemovedBlock rb, Map<String, Removal> claimed) {
        List<RemovedTarget.Step> path = rb.from().stacks();
        String name = path.getLast().name();
        Map<InstanceKey, Value> expansions = new TreeMap<>(java.util.Comparator.comparing(InstanceKey::toString));
        if (rb.forEach() == null) {
            expansions.put(InstanceKey.NONE, Value.NULL);
        } else {
            Result<Expansion> e = Expansion.of(rb.forEach(), s.scope());
            report(e.diagnostics());
            expansions.putAll(e.value().instances());
        }
        expansions.forEach((ek, each) -> {
            Scope sc = rb.forEach() == null ? s.scope() : s.scope(ek, each);
            Expression keyExpr = rb.from().lastKey();
            InstanceKey stackKey = InstanceKey.NONE;
            if (keyExpr != null) {
                Value k = s.eval(keyExpr, sc);
                if (!k.isKnown() || !k.type().equals(Type.STRING)) {
                    return;
                }
                stackKey = InstanceKey.of(k.asString());
            }
            Value in = rb.inputs() == null ? Value.EMPTY_OBJECT : s.eval(rb.inputs(), sc);
            Map<String, Value> given = new TreeMap<>();
            if (in.isKnown() && !in.isNull()) {
                given.putAll(in.attributes());
            }
            for (StackInstanceRun parent : parents(s, path.subList(0, path.size() - 1), sc)) {
                StackInstanceRun child =
                        new StackInstanceRun(this, rb.stack(), parent.addr.child(name, stackKey), given);
                claimRemovedStack(child, rb, claimed);
            }
        });
    }

    /**
     * The instances of the still declared embedded stacks that {@code steps} lead to from {@code s}: the
     * one a step's key names, or every instance of a step without a key.
     */
    private List<StackInstanceRun> parents(StackInstanceRun s, List<RemovedTarget.Step> steps, Scope sc) {
        List<StackInstanceRun> at = List.of(s);
        for (RemovedTarget.Step step : steps) {
            List<StackInstanceRun> next = new ArrayList<>();
            for (StackInstanceRun p : at) {
                EmbeddedStackConfig call = p.config.embeddedStacks().get(step.name());
                if (call == null || call.stack() == null) {
                    continue;
                }
                Expansion e = p.callExpansion(call);
                if (step.key() != null) {
                    Value k = s.eval(step.key(), sc);
                    if (k.isKnown() && k.type().equals(Type.STRING)) {
                        InstanceKey key = InstanceKey.of(k.asString());
                        Value each = e.instances().get(key);
                        if (each != null) {
                            next.add(p.child(call, key, each));
                        }
                    }
                } else {
                    e.instances().forEach((key, each) -> next.add(p.child(call, key, each)));
                }
            }
            at = next;
        }
        return at;
    }

    /**
     * Claims the components of a removed stack instance for {@code rb}, and those of every stack it
     * embeds, whose instances are expanded with the inputs and for_each the removed stack's source gives
     * them (reading the removed components' outputs as last applied).
     */
    private void claimRemovedStack(StackInstanceRun child, RemovedBlock rb, Map<String, Removal> claimed) {
        for (ComponentConfig c : child.config.components().values()) {
            String call = child.componentAddr(c.name()).toString();
            removedStackCalls.add(call);
            Removal r = new Removal(child, rb, c, InstanceKey.NONE, Value.NULL);
            claimed.put(call, r);
            claimed.put(call + "[*]", r);
        }
        for (EmbeddedStackConfig nested : child.config.embeddedStacks().values()) {
            if (nested.stack() == null) {
                continue;
            }
            Expansion e = child.callExpansion(nested);
            e.instances().forEach((key, each) -> claimRemovedStack(child.child(nested, key, each), rb, claimed));
        }
    }

    private List<String> inState() {
        Result<List<String>> r = store.componentInstances();
        report(r.diagnostics());
        return r.value() == null ? List.of() : r.value();
    }

    /** The plan walk: every configured instance (or, destroying, every instance in state) planned concurrently. */
    DeploymentPlan plan(SortedMap<String, Value> inputs) {
        List<ComponentPlan> out = new ArrayList<>();
        List<ComponentPlan> deferredPlans = new ArrayList<>();
        Map<String, Placed> placed = new TreeMap<>();
        place(root, placed, deferredPlans);
        List<String> stateInstances = inState();
        Map<String, CompletableFuture<Outcome>> work = new TreeMap<>();
        if (mode == PlanMode.DESTROY) {
            Map<String, Removal> removals = removals(placed.keySet(), stateInstances);
            for (String a : stateInstances) {
                Placed p = placed.get(a);
                if (p != null) {
                    work.put(
                            a,
                            async(() -> planSetup(
                                    setup(p.stack(), p.component(), p.key(), p.each()), PlanMode.DESTROY, false)));
                } else if (removals.containsKey(a)) {
                    work.put(a, async(() -> planSetup(setup(a, removals.get(a)), PlanMode.DESTROY, true)));
                }
            }
        } else {
            placed.forEach((a, p) -> work.put(a, async(() -> component(p.stack(), p.component(), p.key(), p.each()))));
            out.addAll(deferredPlans);
            Map<String, Removal> removals = removals(placed.keySet(), stateInstances);
            removals.forEach((a, r) -> work.put(
                    a,
                    async(() -> r.destroy()
                            ? planSetup(setup(a, r), PlanMode.DESTROY, true)
                            : new Outcome(
                                    new ComponentPlan(a, null, null, true, List.of(), Diagnostics.NONE),
                                    null,
                                    Value.DYNAMIC_UNKNOWN,
                                    false,
                                    false))));
        }
        work.values().forEach(f -> out.add(f.join().plan()));
        SortedMap<String, Value> outputs = new TreeMap<>();
        if (mode != PlanMode.DESTROY) {
            root.config.outputs().values().forEach(o -> outputs.put(o.name(), root.output(o)));
        }
        workers.shutdown();
        out.sort(java.util.Comparator.comparing(ComponentPlan::address));
        if (cutShort.get()) {
            report(Diagnostics.of(Diagnostic.error(
                    "Planning interrupted",
                    "The plan of deployment \"" + deployment
                            + "\" was interrupted before it was complete; nothing was changed.",
                    null)));
        }
        return new DeploymentPlan(deployment, mode, inputs, out, outputs, diagnostics());
    }

    /**
     * Destroys every instance of {@code dependsOn} (address to the component calls it depends on)
     * concurrently, each only after every instance that depends on its component is done. Recorded
     * dependencies from different applies could form a cycle; its members then wait for none of each
     * other (a warning says so) rather than for ever.
     */
    private Map<String, CompletableFuture<Outcome>> destroyInOrder(
            Map<String, List<String>> dependsOn, java.util.function.Function<String, Outcome> destroy) {
        Map<String, Set<String>> waitsFor = new TreeMap<>();
        dependsOn.forEach((a, deps) -> {
            Set<String> w = new TreeSet<>();
            dependsOn.forEach((b, bDeps) -> {
                if (!b.equals(a) && bDeps.contains(callOf(a))) {
                    w.add(b);
                }
            });
            waitsFor.put(a, w);
        });
        Set<String> ordered = new HashSet<>();
        boolean progress = true;
        while (progress) {
            progress = false;
            for (var e : waitsFor.entrySet()) {
                if (!ordered.contains(e.getKey()) && ordered.containsAll(e.getValue())) {
                    ordered.add(e.getKey());
                    progress = true;
                }
            }
        }
        Set<String> cyclic = new TreeSet<>(waitsFor.keySet());
        cyclic.removeAll(ordered);
        if (!cyclic.isEmpty()) {
            report(Diagnostics.of(Diagnostic.warning(
                    "Cyclic dependencies between destroyed components",
                    "The dependencies recorded for " + String.join(", ", cyclic) + " form a cycle, so they are "
                            + "destroyed without an order among them.",
                    null)));
            cyclic.forEach(a -> waitsFor.get(a).removeAll(cyclic));
        }
        Map<String, CompletableFuture<Outcome>> done = new TreeMap<>();
        waitsFor.keySet().forEach(a -> done.put(a, new CompletableFuture<>()));
        waitsFor.forEach((a, w) -> workers.submit(() -> {
            w.forEach(b -> done.get(b).join());
            Outcome o;
            try {
                o = destroy.apply(a);
            } catch (RuntimeException | Error e) {
                // Whatever fails, this instance's future completes: the instances waiting for it must not hang.
                o = failed(
                        a,
                        Diagnostics.of(Diagnostic.error(
                                "Component instance failed",
                                "Destroying " + a + " failed: " + dev.strata.engine.graph.DagWalker.describe(e) + ".",
                                null)));
            }
            done.get(a).complete(o);
        }));
        return done;
    }

    private CompletableFuture<Outcome> async(Supplier<Outcome> s) {
        return CompletableFuture.supplyAsync(s, workers);
    }

    /** The apply walk: by data flow; destroying, each instance after everything that depends on it. */
    DeploymentApplied apply() {
        Map<String, Placed> placed = new TreeMap<>();
        List<ComponentPlan> ignored = new ArrayList<>();
        place(root, placed, ignored);
        List<String> stateInstances = inState();
        Map<String, Removal> removals = removals(placed.keySet(), stateInstances);
        List<ComponentApplied> out = new ArrayList<>();
        if (mode == PlanMode.DESTROY) {
            Map<String, List<String>> dependsOn = new TreeMap<>();
            reviewed.components().stream()
                    .filter(c -> c.plan() != null)
                    .forEach(c -> dependsOn.put(c.address(), c.dependsOn()));
            destroyInOrder(dependsOn, a -> {
                        Placed p = placed.get(a);
                        Removal r = removals.get(a);
                        ComponentSetup setup = p != null
                                ? setup(p.stack(), p.component(), p.key(), p.each())
                                : r != null ? setup(a, r) : null;
                        return setup == null ? failed(a, Diagnostics.NONE) : applySetup(setup, PlanMode.DESTROY);
                    })
                    .forEach((a, f) -> out.add(f.join().applied()));
        } else {
            Map<String, CompletableFuture<Outcome>> work = new TreeMap<>();
            placed.forEach((a, p) -> work.put(a, async(() -> component(p.stack(), p.component(), p.key(), p.each()))));
            work.values().forEach(f -> out.add(f.join().applied()));
            // Removed instances go after the rest: nothing configured depends on them any more. Among
            // themselves, each goes after the removed instances that depended on it when last applied.
            Map<String, List<String>> dependsOn = new TreeMap<>();
            removals.forEach((a, r) -> dependsOn.put(a, recordedDependencies(a)));
            destroyInOrder(dependsOn, a -> {
                        Removal r = removals.get(a);
                        return r.destroy()
                                ? applySetup(setup(a, r), PlanMode.DESTROY)
                                : new Outcome(
                                        null,
                                        new ComponentApplied(a, null, false, Diagnostics.NONE),
                                        Value.NULL,
                                        false,
                                        false);
                    })
                    .forEach((a, f) -> out.add(f.join().applied()));
            removals.forEach((a, r) -> {
                if (!r.destroy()) {
                    report(store.dropComponent(a));
                }
            });
        }
        workers.shutdown();
        // Instances destroyed completely leave no part behind.
        for (ComponentApplied ca : out) {
            if (ca.result() != null
                    && !ca.failed()
                    && ca.result().state().resources().isEmpty()
                    && (mode == PlanMode.DESTROY || removals.containsKey(ca.address()))) {
                report(store.dropComponent(ca.address()));
            }
        }
        SortedMap<String, Value> outputs = new TreeMap<>();
        if (mode != PlanMode.DESTROY) {
            root.config.outputs().values().forEach(o -> outputs.put(o.name(), root.output(o)));
        }
        out.sort(java.util.Comparator.comparing(ComponentApplied::address));
        return new DeploymentApplied(deployment, out, outputs, diagnostics(), cutShort.get());
    }
}
