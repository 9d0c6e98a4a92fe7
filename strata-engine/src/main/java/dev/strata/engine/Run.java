package dev.strata.engine;

import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleInstance;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import dev.strata.state.JournalEntry;
import dev.strata.state.StateSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * What the vertices of one plan or apply walk must share because expressions of one read what
 * another produced: the configuration, the options, the values produced so far (by module instance
 * and resource), how each object expanded, the working state and the diagnostics. Node visits run
 * concurrently, so every map here is concurrent and each entry has one writer: the node that owns it
 * (ARCHITECTURE §3.5). What the walk decides (its changes, its apply outcomes) is not shared
 * evaluation data: the walk owns it ({@link PlannedChanges}, {@link ApplyOutcomes}).
 */
final class Run {
    enum Phase {
        PLAN,
        APPLY
    }

    /** Where state changes go: memory while planning, the durable journal while applying. */
    interface StateSink {
        StateSnapshot append(JournalEntry e);

        /** Several changes in order, recorded as one step (one wait for durability where the sink can). */
        default StateSnapshot appendAll(List<JournalEntry> entries) {
            StateSnapshot s = null;
            for (JournalEntry e : entries) {
                s = append(e);
            }
            return s;
        }
    }

    final ConfigTree tree;
    final PlanOptions options;
    final Phase phase;
    final ProviderPool providers;
    /** The built-in functions; each module's table adds the provider functions of its required_providers. */
    private final FunctionTable builtins;

    private final ConcurrentMap<Module, FunctionTable> functions = new ConcurrentHashMap<>();
    private final SortedMap<String, Value> rootVariables;

    private final ConcurrentMap<ModuleInstance, ConcurrentMap<String, Value>> variables = new ConcurrentHashMap<>();
    private final ConcurrentMap<ModuleInstance, ConcurrentMap<String, Value>> locals = new ConcurrentHashMap<>();
    private final ConcurrentMap<ModuleInstance, ConcurrentMap<String, Value>> outputs = new ConcurrentHashMap<>();
    /**
     * Instance values by resource, and how it expanded. Unordered: every read is by key (a whole resource is
     * read in its expansion's key order), and a hash put per instance costs less than a skip list's.
     */
    private final ConcurrentMap<AbsResource, ConcurrentMap<InstanceKey, Value>> resources = new ConcurrentHashMap<>();

    final ConcurrentMap<AbsResource, Expansion> resourceExpansions = new ConcurrentHashMap<>();
    /** Module instances by module, once their calls were expanded; absent means not known yet. */
    final ConcurrentMap<Module, List<ModuleInstance>> moduleInstances = new ConcurrentHashMap<>();
    /** Modules whose instances are not known until apply, with why. */
    final ConcurrentMap<Module, Expansion.Deferred> deferredModules = new ConcurrentHashMap<>();

    final ConcurrentMap<ModuleInstance, Map<String, Expansion>> callExpansions = new ConcurrentHashMap<>();
    /**
     * Child module instances whose outputs the application gave in place of running them
     * ({@code override_module}): they are not among their module's instances, so nothing inside runs.
     */
    final Set<ModuleInstance> overriddenModules = ConcurrentHashMap.newKeySet();

    private final Object stateLock = new Object();
    private volatile StateSnapshot state;
    private final StateSink sink;

    private final List<Diagnostic> diagnostics = new ArrayList<>();
    /** The visit this thread works for, if any: its diagnostics decide that visit's outcome. */
    private final ThreadLocal<VisitDiagnostics> visit = new ThreadLocal<>();

    private final boolean checksRootVariables;
    private volatile boolean rootVariableRejected;

    Run(
            ConfigTree tree,
            PlanOptions options,
            Phase phase,
            ProviderPool providers,
            SortedMap<String, Value> rootVariables,
            StateSnapshot state,
            java.time.Instant planTimestamp,
            Function<Run, StateSink> sink) {
        this.tree = tree;
        this.options = options;
        this.phase = phase;
        this.providers = providers;
        // While planning, timestamp(), uuid() and bcrypt() are unknown, as in Terraform; apply evaluates them again.
        // plantimestamp() is the plan's time in both phases, so a saved plan applies with the value it showed.
        dev.strata.lang.funcs.FunctionContext ctx = dev.strata.lang.funcs.FunctionContext.system(options.workingDir())
                .withPlanTimestamp(planTimestamp);
        this.builtins = phase == Phase.PLAN ? TemplateFunctions.planning(ctx) : TemplateFunctions.builtins(ctx);
        this.rootVariables = rootVariables;
        this.state = state;
        this.sink = sink == null
                ? e -> {
                    synchronized (stateLock) {
                        this.state = this.state.with(e);
                        return this.state;
                    }
                }
                : sink.apply(this);
        // As Terraform: a destroy plan does not look at the root variables' values; only the normal plan it
        // makes first to refresh a state that has objects checks them (and stops the destroy).
        this.checksRootVariables = options.mode() != PlanMode.DESTROY
                || options.refresh() && !state.resources().isEmpty();
        moduleInstances.put(Module.ROOT, List.of(ModuleInstance.ROOT));
        rootVariables.forEach((k, v) -> variables
                .computeIfAbsent(ModuleInstance.ROOT, x -> new ConcurrentHashMap<>())
                .put(k, v));
    }

    /** The functions expressions of module {@code m} can call. */
    FunctionTable functions(Module m) {
        return functions.computeIfAbsent(m, x -> {
            ConfigNode n = tree.node(x).orElse(null);
            return n == null || providers == null ? builtins : providers.functions.table(n.module(), builtins);
        });
    }

    Path workingDir() {
        return options.workingDir();
    }

    /** {@code path.cwd}: where the command was started, before {@code -chdir}. */
    Path startDir() {
        return options.startDir();
    }

    String workspace() {
        return options.workspace();
    }

    boolean applying() {
        return phase == Phase.APPLY;
    }

    SortedMap<String, Value> rootVariables() {
        return rootVariables;
    }

    /**
     * Whether the walk checks the root variables' values against their declarations and validation rules
     * (not in a destroy plan that refreshes nothing).
     */
    boolean checksRootVariables() {
        return checksRootVariables;
    }

    /** That a root variable's value was rejected: a destroy plan then stops without showing what it planned. */
    void rootVariableRejected() {
        rootVariableRejected = true;
    }

    boolean wasRootVariableRejected() {
        return rootVariableRejected;
    }

    String relativeDir(Module m) {
        return relativeDir(workingDir(), tree.node(m).orElse(tree.root()));
    }

    /** {@code path.module}/{@code path.root}: a module's directory relative to the working directory, "." for itself. */
    static String relativeDir(Path workingDir, ConfigNode n) {
        String s = workingDir
                .toAbsolutePath()
                .normalize()
                .relativize(n.module().dir().toAbsolutePath().normalize())
                .toString()
                .replace('\\', '/');
        return s.isEmpty() ? "." : s;
    }

    StateSnapshot state() {
        return state;
    }

    /** Records a state change; returns the state with it. */
    StateSnapshot record(JournalEntry e) {
        StateSnapshot s = sink.append(e);
        synchronized (stateLock) {
            state = s;
        }
        return s;
    }

    /** Records state changes in order as one step; returns the state with them. */
    StateSnapshot record(List<JournalEntry> entries) {
        StateSnapshot s = sink.appendAll(entries);
        synchronized (stateLock) {
            state = s;
        }
        return s;
    }

    void setStateDirectly(StateSnapshot s) {
        synchronized (stateLock) {
            state = s;
        }
    }

    void diagnose(Diagnostics ds) {
        ds.forEach(this::diagnose);
    }

    void diagnose(Diagnostic d) {
        synchronized (diagnostics) {
            diagnostics.add(d);
        }
        VisitDiagnostics v = visit.get();
        if (v != null) {
            v.add(d);
        }
    }

    /** The visit this thread reports for (null outside the walk). */
    VisitDiagnostics currentVisit() {
        return visit.get();
    }

    /**
     * Runs {@code body} on this thread reporting for {@code own} as well as for the run. Work a visit
     * hands to other threads must be bound again there (see {@link Walk#runAll}).
     */
    void reportingFor(VisitDiagnostics own, Runnable body) {
        VisitDiagnostics outer = visit.get();
        visit.set(own);
        try {
            body.run();
        } finally {
            if (outer == null) {
                visit.remove();
            } else {
                visit.set(outer);
            }
        }
    }

    Diagnostics diagnostics() {
        synchronized (diagnostics) {
            return Diagnostics.of(List.copyOf(diagnostics));
        }
    }

    boolean hasErrors() {
        synchronized (diagnostics) {
            return diagnostics.stream().anyMatch(Diagnostic::isError);
        }
    }

    // ---- values ----

    void setVariable(ModuleInstance mi, String name, Value v) {
        variables.computeIfAbsent(mi, x -> new ConcurrentHashMap<>()).put(name, v);
    }

    void setLocal(ModuleInstance mi, String name, Value v) {
        locals.computeIfAbsent(mi, x -> new ConcurrentHashMap<>()).put(name, v);
    }

    void setOutput(ModuleInstance mi, String name, Value v) {
        outputs.computeIfAbsent(mi, x -> new ConcurrentHashMap<>()).put(name, v);
    }

    /** The outputs of {@code mi} evaluated so far, by name. */
    java.util.SortedMap<String, Value> outputs(ModuleInstance mi) {
        Map<String, Value> m = outputs.get(mi);
        return m == null ? new java.util.TreeMap<>() : new java.util.TreeMap<>(m);
    }

    Value output(ModuleInstance mi, String name) {
        Map<String, Value> m = outputs.get(mi);
        return m == null ? null : m.get(name);
    }

    Value variable(ModuleInstance mi, String name) {
        Map<String, Value> m = variables.get(mi);
        Value v = m == null ? null : m.get(name);
        return v == null ? Value.DYNAMIC_UNKNOWN : v;
    }

    Value local(ModuleInstance mi, String name) {
        Map<String, Value> m = locals.get(mi);
        Value v = m == null ? null : m.get(name);
        return v == null ? Value.DYNAMIC_UNKNOWN : v;
    }

    void setInstanceValue(AbsResourceInstance ri, Value v) {
        resources
                .computeIfAbsent(ri.containingResource(), k -> new ConcurrentHashMap<>())
                .put(ri.resource().key(), v);
    }

    Value instanceValue(AbsResourceInstance ri) {
        Map<InstanceKey, Value> m = resources.get(ri.containingResource());
        return m == null ? null : m.get(ri.resource().key());
    }

    /** A resource as expressions see it: the object, a tuple by index (count), or an object by key (for_each). */
    Value resourceValue(AbsResource r, InstanceKey key) {
        Expansion e = resourceExpansions.get(r);
        if (e == null || e instanceof Expansion.Deferred) {
            return Value.DYNAMIC_UNKNOWN;
        }
        Map<InstanceKey, Value> m = resources.getOrDefault(r, new ConcurrentHashMap<>());
        if (key != null) {
            Value v = m.get(key);
            return v == null ? Value.DYNAMIC_UNKNOWN : v;
        }
        return switch (e) {
            case Expansion.Single s -> m.getOrDefault(InstanceKey.NONE, Value.DYNAMIC_UNKNOWN);
            case Expansion.Count c -> {
                List<Value> els = new ArrayList<>();
                for (InstanceKey k : e.keys()) {
                    els.add(m.getOrDefault(k, Value.DYNAMIC_UNKNOWN));
                }
                yield Value.tuple(els);
            }
            case Expansion.ForEach f -> {
                Map<String, Value> attrs = new TreeMap<>();
                for (InstanceKey k : e.keys()) {
                    attrs.put(((InstanceKey.StringKey) k).key(), m.getOrDefault(k, Value.DYNAMIC_UNKNOWN));
                }
                yield Value.object(attrs);
            }
            case Expansion.Deferred d -> Value.DYNAMIC_UNKNOWN;
        };
    }

    /**
     * Whether {@code key} is known not to be an instance of the resource: its expansion is known and
     * does not contain it. Expressions then index the whole resource value, so that they fail with
     * Terraform's "Invalid index" (which try() and can() handle) instead of seeing an unknown.
     */
    boolean resourceKeyAbsent(AbsResource r, InstanceKey key) {
        Expansion e = resourceExpansions.get(r);
        return e != null
                && !(e instanceof Expansion.Deferred)
                && !(e instanceof Expansion.Single)
                && !e.keys().contains(key);
    }

    /** As {@link #resourceKeyAbsent}, for an instance of a module call. */
    boolean moduleKeyAbsent(ModuleInstance caller, String call, InstanceKey key) {
        Map<String, Expansion> calls = callExpansions.get(caller);
        Expansion e = calls == null ? null : calls.get(call);
        return e != null
                && !(e instanceof Expansion.Deferred)
                && !(e instanceof Expansion.Single)
                && !e.keys().contains(key);
    }

    /** A module call (or one instance of it, or one output of that) as expressions see it. */
    Value moduleCallValue(ModuleInstance caller, String call, InstanceKey key, String output) {
        Module child = caller.module().child(call);
        Map<String, Expansion> calls = callExpansions.get(caller);
        Expansion e = calls == null ? null : calls.get(call);
        if (e == null || e instanceof Expansion.Deferred) {
            return Value.DYNAMIC_UNKNOWN;
        }
        if (key == null) {
            key = InstanceKey.NONE;
            if (!(e instanceof Expansion.Single)) {
                return whole(caller, call, child, e);
            }
        }
        ModuleInstance mi = caller.child(call, key);
        if (output != null) {
            Value v = output(mi, output);
            return v == null ? Value.DYNAMIC_UNKNOWN : v;
        }
        return moduleObject(mi, child);
    }

    private Value whole(ModuleInstance caller, String call, Module child, Expansion e) {
        if (e instanceof Expansion.Count) {
            List<Value> els = new ArrayList<>();
            for (InstanceKey k : e.keys()) {
                els.add(moduleObject(caller.child(call, k), child));
            }
            return Value.tuple(els);
        }
        Map<String, Value> m = new TreeMap<>();
        for (InstanceKey k : e.keys()) {
            m.put(((InstanceKey.StringKey) k).key(), moduleObject(caller.child(call, k), child));
        }
        return Value.object(m);
    }

    private Value moduleObject(ModuleInstance mi, Module child) {
        ConfigNode n = tree.node(child).orElse(null);
        if (n == null) {
            return Value.DYNAMIC_UNKNOWN;
        }
        Map<String, Value> attrs = new HashMap<>();
        for (String name : n.module().outputs().keySet()) {
            Value v = output(mi, name);
            attrs.put(name, v == null ? Value.DYNAMIC_UNKNOWN : v);
        }
        return Value.object(attrs);
    }

    /** Whether {@code mi} or a module instance it is nested in was overridden by the application. */
    boolean insideOverriddenModule(ModuleInstance mi) {
        for (ModuleInstance m = mi; !m.isRoot(); m = m.parent()) {
            if (overriddenModules.contains(m)) {
                return true;
            }
        }
        return false;
    }

    /** The instances of a module known so far; empty when its expansion is deferred. */
    List<ModuleInstance> instancesOf(Module m) {
        return moduleInstances.getOrDefault(m, List.of());
    }
}
