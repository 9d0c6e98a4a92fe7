package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.AttributePath;
import dev.strata.addr.ConfigResource;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Module;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.config.CheckRule;
import dev.strata.config.ConfigNode;
import dev.strata.config.OutputConfig;
import dev.strata.config.References;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.funcs.GoDuration;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.AttributePaths;
import dev.strata.provider.Block;
import dev.strata.provider.Failure;
import dev.strata.provider.ObjectChecks;
import dev.strata.provider.PrivateState;
import dev.strata.provider.ProposedNewState;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.SchemaValues;
import dev.strata.state.JournalEntry;
import dev.strata.state.ObjectStatus;
import dev.strata.state.OutputValue;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Planning and applying one resource instance: the provider calls, the decision of the action,
 * the checks of what providers return, and the state records — journaled before and after every
 * operation while applying (ARCHITECTURE §3.8).
 */
final class InstanceOps {
    private final Run run;
    private final EngineEvents events;
    private final Plan reviewed;
    /** The reviewed plan's current-object changes by address: one lookup per instance instead of a scan. */
    private final Map<AbsResourceInstance, ResourceChange> reviewedChanges;
    /** The reviewed plan's destroy-first deletions by resource ({@link DestroyOrder}). */
    private final Map<dev.strata.addr.ConfigResource, List<ResourceChange>> destroyedFirst;

    private final ProviderCalls calls;
    /** Create tokens of operations a crashed run started without recording their result. */
    private final Map<AbsResourceInstance, String> openCreates;
    /**
     * Objects a {@code create_before_destroy} replacement deposed while applying: deleted with the plan's
     * deletions, after the walk, so that (as in Terraform) the dependents move to the new object first and a
     * failed delete leaves them updated.
     */
    final java.util.Queue<ResourceChange> deposedLater = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** Provider configurations whose {@link Failure.Unavailable} error was already reported. */
    private final Set<AbsProviderConfig> unavailableReported = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Walk walk;
    /** Old addresses of objects that {@code moved} blocks moved. */
    private final Map<AbsResourceInstance, AbsResourceInstance> previous;
    /** {@code import} blocks by the instance they import into. */
    private final ImportTargets imports;
    /** {@code removed} blocks: what they name, and whether the objects are destroyed. */
    private final List<dev.strata.config.RemovedConfig> removed;

    /**
     * What an operation gives the instance operations of its walk.
     *
     * @param reviewed    the plan being applied (null while planning or importing)
     * @param openCreates create tokens of operations a crashed run started without recording their result
     * @param previous    old addresses of objects that {@code moved} blocks moved
     * @param imports     {@code import} blocks by the instance they import into
     * @param removed     the root module's {@code removed} blocks
     */
    record Inputs(
            Plan reviewed,
            Map<AbsResourceInstance, String> openCreates,
            Map<AbsResourceInstance, AbsResourceInstance> previous,
            ImportTargets imports,
            List<dev.strata.config.RemovedConfig> removed) {
        /** Nothing but the object itself: an import, or an apply without crashed creates. */
        static final Inputs NONE = new Inputs(null, Map.of(), Map.of(), ImportTargets.NONE, List.of());
    }

    ProviderCalls calls() {
        return calls;
    }

    /** Built by its {@link Walk}, the only owner. */
    InstanceOps(Run run, EngineEvents events, ProviderCalls calls, Inputs inputs, Walk walk) {
        this.run = run;
        this.events = events;
        this.reviewed = inputs.reviewed();
        this.reviewedChanges = new java.util.HashMap<>();
        this.destroyedFirst = reviewed == null ? Map.of() : DestroyOrder.byResource(reviewed);
        if (reviewed != null) {
            for (ResourceChange x : reviewed.changes()) {
                if (x.deposed() == null) {
                    reviewedChanges.putIfAbsent(x.addr(), x);
                }
            }
        }
        this.calls = calls;
        this.openCreates = inputs.openCreates();
        this.previous = inputs.previous();
        this.imports = inputs.imports();
        this.removed = inputs.removed();
        this.walk = walk;
        this.provisioning = new Provisioning(run, events, calls.stopping());
    }

    private final Provisioning provisioning;
    /** Operation ids and create tokens (unique, not secret: {@link OperationIds}). */
    private final OperationIds operationIds = new OperationIds();
    /** The layouts of the resource bodies this walk decodes: worked out once per block, not per instance. */
    private final BodyDecoder.Shapes shapes = new BodyDecoder.Shapes();

    /**
     * One instance's configuration, provider and schema. {@code providerMeta} is its module's
     * {@code provider_meta} block for that provider, decoded ({@link Value#NULL} when there is none or
     * it has not been evaluated), which every request about the instance carries.
     */
    private record Ctx(
            ResourceConfig rc,
            AbsResourceInstance addr,
            AbsProviderConfig providerAddr,
            Provider provider,
            Schema schema,
            Value providerMeta,
            dev.strata.lang.types.ObjectType type,
            Value nullObject) {
        /** A change without replace paths, planned private data, previous address or import: reads, deletes, drift. */
        ResourceChange change(
                AbsResourceInstance ai, String deposed, Action action, Value before, Value after, String reason) {
            return new ResourceChange(
                    ai,
                    deposed,
                    action,
                    before,
                    after,
                    List.of(),
                    reason,
                    providerAddr,
                    schema.version(),
                    null,
                    null,
                    null);
        }

        Ctx withProviderMeta(Value meta) {
            return new Ctx(rc, addr, providerAddr, provider, schema, meta, type, nullObject);
        }

        Block block() {
            return schema.block();
        }

        /** The schema's object type: {@link Block#impliedType()}, which builds a new type at each call, once per schema. */
        dev.strata.lang.types.ObjectType impliedType() {
            return type;
        }
    }

    /**
     * Each schema's implied type and null object, worked out once per walk instead of several times per
     * instance; by identity (a schema's own equality compares every attribute), as the providers' schemas are
     * the same objects for every instance of a type.
     */
    private final Map<Schema, Typed> typed = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    private record Typed(dev.strata.lang.types.ObjectType type, Value nullObject) {}

    private Typed typed(Schema s) {
        Typed t = typed.get(s);
        if (t == null) {
            dev.strata.lang.types.ObjectType type = s.block().impliedType();
            t = new Typed(type, Value.nullValue(type));
            typed.put(s, t);
        }
        return t;
    }

    private Ctx ctx(ResourceConfig rc, AbsResourceInstance ai) {
        ConfigNode n = run.tree.node(ai.module().module()).orElseThrow();
        AbsProviderConfig pa = GraphBuilder.providerOf(run.tree, n, rc);
        return ctx(rc, ai, pa);
    }

    private Ctx ctx(ResourceConfig rc, AbsResourceInstance ai, AbsProviderConfig pa) {
        Provider p = run.providers.configured(pa);
        if (p == null || !run.providers.isConfigured(pa)) {
            return null;
        }
        Schema s = Walk.schemaOf(run.providers.schema(pa), ai.resource().resource());
        if (s == null) {
            run.diagnose(
                    Walk.unsupportedType(pa.provider(), ai.resource().resource(), rc == null ? null : rc.typeRange()));
            return null;
        }
        Typed t = typed(s);
        return new Ctx(rc, ai, pa, run.providers.forInstance(ai, p), s, Value.NULL, t.type(), t.nullObject());
    }

    // ---- state access ----

    ResourceInstanceObject stateObject(AbsResourceInstance ai, String deposed) {
        for (ResourceInstanceObject o : run.state().objects(ai)) {
            if (java.util.Objects.equals(o.deposed(), deposed)) {
                return o;
            }
        }
        return null;
    }

    /**
     * Destroying with {@code -target}: what a target depends on is kept, but read again first, as Terraform's
     * refresh before a destroy reads it; its refreshed value is what the plan's expressions see.
     */
    void refreshKept(ResourceConfig rc, AbsResourceInstance ai) {
        ResourceInstanceObject o = stateObject(ai, null);
        if (o == null) {
            return;
        }
        Ctx c = ctx(rc, ai);
        if (c == null) {
            run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            return;
        }
        Value prior = decode(c, o);
        PrivateState priv = o.privateData() == null ? PrivateState.EMPTY : PrivateState.fromBase64(o.privateData());
        Value v = refresh(c, o, prior, priv);
        if (v != null) {
            run.setInstanceValue(ai, v);
        }
    }

    /** The recorded value of an instance (marked), for instances this run does not touch. */
    Value stateValue(AbsResourceInstance ai, ResourceConfig rc) {
        ResourceInstanceObject o = stateObject(ai, null);
        if (o == null) {
            return null;
        }
        Ctx c = ctx(rc, ai);
        return c == null ? Value.DYNAMIC_UNKNOWN : decode(c, o);
    }

    private Value decode(Ctx c, ResourceInstanceObject o) {
        Value v;
        if (o.schemaVersion() > c.schema().version()) {
            reportInvalid(
                    o,
                    () -> PriorStateCheck.newerSchema(
                            run.state(),
                            c.addr(),
                            o,
                            c.providerAddr().provider().forDisplay()));
            return Value.DYNAMIC_UNKNOWN;
        }
        if (o.schemaVersion() < c.schema().version()) {
            Provider.UpgradeResponse up = c.provider()
                    .upgradeResourceState(new Provider.UpgradeRequest(
                            c.addr().resource().resource().type(),
                            o.schemaVersion(),
                            StateValues.toNode(o.attributes()).toString()));
            report(c, up.diagnostics());
            v = up.upgradedState();
            v = StateValues.fromJson(StateValues.toJson(v, c.impliedType()), c.impliedType(), o.sensitiveAttributes());
        } else {
            // One tree of the attributes for both the check and the decode.
            com.fasterxml.jackson.databind.JsonNode node = StateValues.toNode(o.attributes());
            dev.strata.lang.types.ObjectType type = c.impliedType();
            PriorStateCheck.Mismatch bad = PriorStateCheck.mismatch(node, type);
            if (bad != null) {
                reportInvalid(
                        o,
                        () -> PriorStateCheck.invalid(
                                run.state(),
                                c.addr(),
                                o,
                                c.addr().resource().resource().type(),
                                c.schema().version(),
                                bad));
                return Value.DYNAMIC_UNKNOWN;
            }
            v = StateValues.fromNode(node, type, o.sensitiveAttributes());
        }
        return SchemaValues.markSensitive(c.block(), v);
    }

    /** Objects already reported as unreadable: several steps decode the same object, the user hears of it once. */
    private final Set<ResourceInstanceObject> invalidReported =
            java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    private void reportInvalid(ResourceInstanceObject o, java.util.function.Supplier<Diagnostic> d) {
        synchronized (invalidReported) {
            if (!invalidReported.add(o)) {
                return;
            }
        }
        run.diagnose(d.get());
    }

    private ResourceInstanceObject object(
            Ctx c, InstanceKey key, String deposed, Value v, PrivateState priv, ObjectStatus status) {
        Value plain = v;
        return new ResourceInstanceObject(
                key,
                status,
                deposed,
                c.schema().version(),
                StateValues.toJson(plain, c.impliedType()),
                null,
                StateValues.sensitivePaths(v),
                0,
                null,
                priv == null || priv.isEmpty() ? null : priv.toBase64(),
                dependencies(c),
                c.rc() != null && walk.createBeforeDestroy(c.addr().module().module(), c.rc()),
                null);
    }

    /**
     * The resources this instance's configuration depends on, directly or through other resources, locals,
     * variables and module calls, as Terraform's state records them: all of them, so that a destroy keeps its
     * order when an object between two others has left the state. A data resource records none, as in
     * Terraform's state.
     */
    private List<ConfigResource> dependencies(Ctx c) {
        if (c.rc() == null) {
            ResourceInstanceObject o = stateObject(c.addr(), null);
            return o == null ? List.of() : o.dependencies();
        }
        if (c.addr().resource().resource().mode() == ResourceMode.DATA) {
            return List.of();
        }
        Node self = new Node.ResourceNode(
                c.addr().module().module(), c.addr().resource().resource());
        // The same for every instance of the resource: worked out once per walk.
        return dependenciesOf.computeIfAbsent(self, this::resourceDependencies);
    }

    private final Map<Node, List<ConfigResource>> dependenciesOf = new java.util.concurrent.ConcurrentHashMap<>();

    private List<ConfigResource> resourceDependencies(Node self) {
        // In the order of their text, as the state file has always listed them.
        Map<String, ConfigResource> out = new TreeMap<>();
        Set<Node> seen = new java.util.HashSet<>();
        List<Node> todo = new ArrayList<>(walk.graph.dependenciesOf(self));
        while (!todo.isEmpty()) {
            Node n = todo.removeLast();
            if (!seen.add(n) || n instanceof Node.ProviderNode) {
                continue;
            }
            if (n instanceof Node.ResourceNode rn && !n.equals(self)) {
                // Ephemeral resources too: never in state themselves, but recorded as Terraform records them
                // (a write-only argument's source).
                ConfigResource d = new ConfigResource(rn.module(), rn.resource());
                out.put(d.toString(), d);
            }
            todo.addAll(walk.graph.dependenciesOf(n));
        }
        return List.copyOf(out.values());
    }

    private void setObject(Ctx c, ResourceInstanceObject o) {
        run.record(new JournalEntry.SetObject(c.addr().containingResource(), c.providerAddr(), o));
    }

    private void removeObject(AbsResourceInstance ai, String deposed) {
        run.record(new JournalEntry.RemoveObject(ai, deposed));
    }

    // ---- the per-instance entry point ----

    void instance(ResourceConfig rc, AbsResourceInstance ai, RunData scopeData) {
        Ctx c = ctx(rc, ai);
        if (c == null) {
            run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            return;
        }
        if (ai.resource().resource().mode() == ResourceMode.EPHEMERAL) {
            openEphemeral(c, scopeData);
            return;
        }
        if (rc != null && !(run.phase == Run.Phase.PLAN && run.options.mode() == PlanMode.DESTROY)) {
            Value meta = providerMeta(c, scopeData);
            if (meta == null) {
                run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
                return;
            }
            c = c.withProviderMeta(meta);
        }
        boolean data = Walk.isData(ai.containingResource());
        if (run.phase == Run.Phase.PLAN) {
            if (data) {
                planData(c, scopeData);
            } else {
                planManaged(c, scopeData);
            }
        } else {
            apply(c, scopeData);
        }
    }

    /**
     * Opens an ephemeral resource instance, in plan and in apply alike, and makes its result (marked
     * ephemeral, and sensitive where the schema says so) the instance's value. Nothing is recorded: no
     * change, no state, no journal entry. A configuration not wholly known yet (while planning) is not
     * opened: its result is unknown, as Terraform has it.
     */
    private void openEphemeral(Ctx c, RunData scopeData) {
        AbsResourceInstance ai = c.addr();
        Value unknown = Value.unknown(c.impliedType()).mark(Mark.EPHEMERAL);
        for (CheckRule pre : c.rc().lifecycle().preconditions()) {
            walk.condition(scopeData.scope(), pre, "Resource precondition failed", true);
        }
        Result<Value> decoded = BodyDecoder.decode(c.rc().config(), c.block(), scopeData.scope(), shapes);
        run.diagnose(decoded.diagnostics());
        if (decoded.hasErrors()) {
            run.setInstanceValue(ai, unknown);
            return;
        }
        SchemaValues.Coerced co = SchemaValues.coerce(c.block(), decoded.value());
        String type = ai.resource().resource().type();
        if (report(c, co.diagnostics()) || report(c, c.provider().validateEphemeralResourceConfig(type, co.value()))) {
            run.setInstanceValue(ai, unknown);
            return;
        }
        if (!co.value().isWhollyKnown()) {
            LOG.debug("ephemeral: {} not opened: its configuration is not known yet", ai);
            run.setInstanceValue(ai, unknown);
            return;
        }
        events.ephemeralStart(ai, EphemeralAction.OPEN);
        long t0 = System.nanoTime();
        Provider.OpenEphemeralResponse r = calls.call(
                c.providerAddr(),
                ai,
                ProviderCalls.Operation.OPEN_EPHEMERAL_RESOURCE,
                () -> c.provider().openEphemeralResource(new Provider.OpenEphemeralRequest(type, co.value())),
                Provider.OpenEphemeralResponse::diagnostics);
        if (report(c, r.diagnostics())) {
            events.ephemeralErrored(ai, EphemeralAction.OPEN, Duration.ofNanos(System.nanoTime() - t0));
            run.setInstanceValue(ai, unknown);
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (r.deferred()) {
            // The provider cannot open it yet (its own configuration is not known): unknown for now.
            events.ephemeralComplete(ai, EphemeralAction.OPEN, took);
            run.setInstanceValue(ai, unknown);
            return;
        }
        events.ephemeralComplete(ai, EphemeralAction.OPEN, took);
        Value v = SchemaValues.markSensitive(c.block(), r.result()).mark(Mark.EPHEMERAL);
        run.setInstanceValue(ai, v);
        walk.ephemerals.opened(
                ai,
                c.provider(),
                type,
                r.privateState(),
                r.renewAt(),
                walk.dependentsOf(new Node.ResourceNode(
                        ai.module().module(), ai.resource().resource())));
        for (CheckRule post : c.rc().lifecycle().postconditions()) {
            walk.condition(scopeData.withSelf(v).scope(), post, "Resource postcondition failed", true);
        }
    }

    /**
     * The {@code provider_meta} block of the instance's module for the instance's provider, decoded
     * against the provider's {@code provider_meta} schema; {@link Value#NULL} when the module has none,
     * null once the errors are reported. As in Terraform, each instance reports them (a module's block
     * applies to its own resources only, not to those of its children).
     */
    private Value providerMeta(Ctx c, RunData scopeData) {
        dev.strata.config.ModuleConfig m =
                run.tree.node(c.addr().module().module()).orElseThrow().module();
        dev.strata.config.ProviderMetaConfig meta = null;
        for (dev.strata.config.ProviderMetaConfig pm : m.providerMetas().values()) {
            if (m.providerFor(pm.name()).equals(c.providerAddr().provider())) {
                meta = pm;
                break;
            }
        }
        if (meta == null) {
            return Value.NULL;
        }
        Optional<Schema> schema = run.providers.schema(c.providerAddr()).providerMeta();
        if (schema.isEmpty()) {
            run.diagnose(Diagnostic.error(
                    "Provider " + c.providerAddr().provider() + " doesn't support provider_meta",
                    "The resource " + c.addr().resource() + " belongs to a provider that doesn't support "
                            + "provider_meta blocks",
                    meta.nameRange()));
            return null;
        }
        Result<Value> decoded = BodyDecoder.decode(meta.config(), schema.get().block(), scopeData.scope());
        run.diagnose(decoded.diagnostics());
        return decoded.hasErrors() ? null : decoded.value();
    }

    // ---- planning ----

    private Value config(Ctx c, RunData scopeData) {
        Result<Value> decoded = BodyDecoder.decode(c.rc().config(), c.block(), scopeData.scope(), shapes);
        run.diagnose(decoded.diagnostics());
        if (decoded.hasErrors()) {
            return null;
        }
        List<Diagnostic> ephemeral = new java.util.ArrayList<>();
        Ephemerals.checkResourceArguments(c.rc().config(), c.block(), decoded.value(), c.rc().declRange(), ephemeral);
        if (!ephemeral.isEmpty()) {
            ephemeral.forEach(run::diagnose);
            return null;
        }
        SchemaValues.Coerced co = SchemaValues.coerce(c.block(), decoded.value());
        if (report(c, co.diagnostics())) {
            return null;
        }
        ProviderDiagnostics vd = Walk.isData(c.addr().containingResource())
                ? c.provider()
                        .validateDataResourceConfig(
                                c.addr().resource().resource().type(), co.value())
                : c.provider()
                        .validateResourceConfig(c.addr().resource().resource().type(), co.value());
        if (report(c, vd)) {
            return null;
        }
        return co.value();
    }

    /**
     * Checks every precondition of the instance (each failure reported); whether all hold. As Terraform, an
     * instance whose precondition fails is not planned further: no read, no change.
     */
    private boolean preconditionsHold(Ctx c, RunData scopeData) {
        boolean errors = conditionsAreErrors();
        boolean hold = true;
        for (CheckRule pre : c.rc().lifecycle().preconditions()) {
            hold &= walk.condition(scopeData.scope(), pre, "Resource precondition failed", errors);
        }
        return hold || !errors;
    }

    /**
     * As Terraform: a refresh-only plan reports a resource's or data source's failed conditions as warnings
     * and goes on (the refresh may be what brings the recorded objects back in line).
     */
    private boolean conditionsAreErrors() {
        return run.options.mode() != PlanMode.REFRESH_ONLY;
    }

    private void planData(Ctx c, RunData scopeData) {
        AbsResourceInstance ai = c.addr();
        if (run.options.mode() == PlanMode.DESTROY) {
            if (stateObject(ai, null) != null) {
                removeObject(ai, null);
            }
            run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            return;
        }
        if (!preconditionsHold(c, scopeData)) {
            run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            return;
        }
        Value config = config(c, scopeData);
        if (config == null) {
            run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            return;
        }
        if (!config.isWhollyKnown() || dependsOnPendingChanges(c)) {
            Value after = SchemaValues.markSensitive(c.block(), unknownsForComputed(c.block(), config));
            ResourceInstanceObject prior = stateObject(ai, null);
            Value before = prior == null ? c.nullObject() : decode(c, prior);
            walk.planned.change(
                    ai,
                    c.change(
                            ai,
                            null,
                            Action.READ,
                            before,
                            after,
                            config.isWhollyKnown()
                                    ? "read_because_dependency_pending"
                                    : "read_because_config_unknown"));
            run.setInstanceValue(ai, after);
            return;
        }
        // As Terraform, a read while planning is reported as it happens ("Reading...", "Read complete"),
        // which is also the first output a user sees of a plan that reads data sources.
        events.applyStart(ai, Action.READ, null);
        long t0 = System.nanoTime();
        Value v = read(c, config);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (v == null) {
            events.applyErrored(ai, Action.READ, took, Diagnostics.NONE);
            run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            return;
        }
        events.applyComplete(ai, Action.READ, idOf(v), took);
        setObject(c, object(c, ai.resource().key(), null, v, null, ObjectStatus.READY));
        run.setInstanceValue(ai, v);
        for (CheckRule post : c.rc().lifecycle().postconditions()) {
            walk.condition(scopeData.withSelf(v).scope(), post, "Resource postcondition failed", conditionsAreErrors());
        }
    }

    /**
     * Whether a managed resource this data source waits for has a planned change, so that it is read
     * at apply instead. As in Terraform, it waits for what its {@code depends_on} names (a module call
     * there: every resource in that module), for managed resources its configuration refers to
     * directly, and for what the {@code depends_on} of the module calls containing it names; not for
     * what it reaches through locals, variables or module outputs, whose unknown values already
     * defer the read through its configuration.
     */
    private boolean dependsOnPendingChanges(Ctx c) {
        if (c.rc() == null) {
            return false;
        }
        List<WaitsFor> waits = new ArrayList<>();
        Module here = c.addr().module().module();
        for (Reference r : References.of(c.rc())) {
            if (r.subject() instanceof dev.strata.addr.Resource res && res.mode() == ResourceMode.MANAGED) {
                waits.add(new WaitsFor(here, res));
            } else if (r.subject() instanceof ResourceInstance ri
                    && ri.resource().mode() == ResourceMode.MANAGED) {
                waits.add(new WaitsFor(here, ri.resource()));
            }
        }
        dependsOnTargets(here, c.rc().dependsOn(), waits);
        for (Module m = here; !m.isRoot(); m = m.parent()) {
            ConfigNode n = run.tree.node(m).orElse(null);
            if (n != null && n.call() != null) {
                dependsOnTargets(m.parent(), n.call().dependsOn(), waits);
            }
        }
        for (ResourceChange ch : walk.planned.currentChanges()) {
            if (ch.action() == Action.NO_OP
                    || ch.action() == Action.READ
                    || ch.addr().resource().resource().mode() != ResourceMode.MANAGED) {
                continue;
            }
            Module m = ch.addr().module().module();
            dev.strata.addr.Resource res = ch.addr().resource().resource();
            for (WaitsFor w : waits) {
                if (w.resource() == null
                        ? startsWith(m, w.module())
                        : m.equals(w.module()) && res.equals(w.resource())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A managed resource of a module, or (resource null) every resource in a module and below. */
    private record WaitsFor(Module module, dev.strata.addr.Resource resource) {}

    private static void dependsOnTargets(Module in, List<Traversal> dependsOn, List<WaitsFor> out) {
        for (Traversal t : dependsOn) {
            Reference r = Reference.parse(t).value();
            if (r == null) {
                continue;
            }
            switch (r.subject()) {
                case dev.strata.addr.Resource res -> out.add(new WaitsFor(in, res));
                case ResourceInstance ri -> out.add(new WaitsFor(in, ri.resource()));
                case dev.strata.addr.ModuleCall mc -> out.add(new WaitsFor(in.child(mc.name()), null));
                case dev.strata.addr.ModuleCallInstance mc ->
                    out.add(new WaitsFor(in.child(mc.call().name()), null));
                default -> {}
            }
        }
    }

    /** Whether {@code m} is {@code prefix} or a module inside it. */
    static boolean startsWith(Module m, Module prefix) {
        return m.names().size() >= prefix.names().size()
                && m.names().subList(0, prefix.names().size()).equals(prefix.names());
    }

    private Value read(Ctx c, Value config) {
        Provider.ReadDataResponse r = calls.call(
                c.providerAddr(),
                c.addr(),
                ProviderCalls.Operation.READ_DATA_SOURCE,
                () -> c.provider()
                        .readDataSource(new Provider.ReadDataRequest(
                                c.addr().resource().resource().type(), config, c.providerMeta())),
                Provider.ReadDataResponse::diagnostics);
        if (report(c, r.diagnostics())) {
            return null;
        }
        return StateValues.copyMarks(config, SchemaValues.markSensitive(c.block(), r.state()));
    }

    /** The config with every null computed attribute unknown: what a deferred read will produce. */
    private static Value unknownsForComputed(Block b, Value config) {
        if (!config.isKnownAndNotNull()) {
            return config;
        }
        Map<String, Value> out = new TreeMap<>(config.attributes());
        b.attributes().forEach((name, a) -> {
            Value v = out.get(name);
            if (a.computed() && (v == null || v.isNull())) {
                out.put(name, Value.unknown(a.type()));
            }
        });
        return Value.object(out);
    }

    private void planManaged(Ctx c, RunData scopeData) {
        AbsResourceInstance ai = c.addr();
        ResourceInstanceObject obj = stateObject(ai, null);
        Value prior = obj == null ? null : decode(c, obj);
        PrivateState priorPrivate = obj == null || obj.privateData() == null
                ? PrivateState.EMPTY
                : PrivateState.fromBase64(obj.privateData());
        String importId = null;
        ImportTargets.Target importing = run.options.mode() == PlanMode.NORMAL ? imports.target(run, ai) : null;
        if (obj == null && importing != null) {
            importId = importId(importing);
            if (importId == null) {
                return;
            }
            events.importPreparing(ai, importId);
            Imported imp = importObject(c, importId, true);
            if (imp == null) {
                run.setInstanceValue(ai, Value.unknown(c.impliedType()));
                return;
            }
            prior = imp.value;
            priorPrivate = imp.priv;
            obj = object(c, ai.resource().key(), null, prior, priorPrivate, ObjectStatus.READY);
        } else if (prior != null && walk.refreshes(ai)) {
            prior = refresh(c, obj, prior, priorPrivate);
        }
        if (run.options.mode() == PlanMode.DESTROY) {
            if (prior != null && run.providers.preventsDestroy(c.rc())) {
                preventDestroy(c);
            }
            if (prior != null) {
                ResourceChange delete = c.change(ai, null, Action.DELETE, prior, c.nullObject(), null);
                // As Terraform, a destroy plan still notes where a moved block took the object from.
                walk.planned.change(ai, previous.containsKey(ai) ? delete.movedFrom(previous.get(ai)) : delete);
            }
            run.setInstanceValue(ai, prior == null ? Value.DYNAMIC_UNKNOWN : prior);
            return;
        }
        if (run.options.mode() == PlanMode.REFRESH_ONLY) {
            run.setInstanceValue(ai, prior == null ? Value.DYNAMIC_UNKNOWN : prior);
            // As Terraform: the conditions are still checked, the postconditions against the refreshed object,
            // and what fails is a warning.
            preconditionsHold(c, scopeData);
            if (prior != null) {
                for (CheckRule post : c.rc().lifecycle().postconditions()) {
                    walk.condition(scopeData.withSelf(prior).scope(), post, "Resource postcondition failed", false);
                }
            }
            return;
        }
        if (!preconditionsHold(c, scopeData)) {
            run.setInstanceValue(ai, Value.unknown(c.impliedType()));
            return;
        }
        Value config = config(c, scopeData);
        if (config == null) {
            run.setInstanceValue(ai, Value.unknown(c.impliedType()));
            return;
        }
        Planned p = plan(c, prior, config, priorPrivate);
        if (p == null) {
            run.setInstanceValue(ai, Value.unknown(c.impliedType()));
            return;
        }
        Action action;
        String reason = null;
        List<AttributePath> replacePaths = List.of();
        if (prior == null) {
            action = Action.CREATE;
        } else {
            Value priorNow = prior;
            replacePaths = p.requiresReplace.stream()
                    .filter(path ->
                            !AttributePaths.valueIn(path, priorNow).equals(AttributePaths.valueIn(path, p.value)))
                    .toList();
            if (obj.status() == ObjectStatus.TAINTED) {
                reason = "replace_because_tainted";
            } else if (run.options.replace().contains(ai)) {
                reason = "replace_by_request";
            } else if (triggered(c, scopeData)) {
                reason = "replace_by_triggers";
            } else if (!replacePaths.isEmpty()) {
                reason = "replace_because_cannot_update";
            }
            if (reason != null) {
                action = walk.createBeforeDestroy(ai.module().module(), c.rc())
                        ? Action.CREATE_THEN_DELETE
                        : Action.DELETE_THEN_CREATE;
            } else if (p.value.equalsIgnoringMarks(prior) && p.value.deepMarks().equals(prior.deepMarks())) {
                action = Action.NO_OP;
            } else {
                action = Action.UPDATE;
            }
        }
        Planned after = p;
        if (action.isReplace()) {
            after = plan(c, null, config, PrivateState.EMPTY);
            if (after == null) {
                run.setInstanceValue(ai, Value.unknown(c.impliedType()));
                return;
            }
            if (run.providers.preventsDestroy(c.rc())) {
                preventDestroy(c);
            }
        }
        walk.planned.change(
                ai,
                new ResourceChange(
                        ai,
                        null,
                        action,
                        prior == null ? c.nullObject() : prior,
                        after.value,
                        replacePaths,
                        reason,
                        c.providerAddr(),
                        c.schema().version(),
                        after.priv,
                        previous.get(ai),
                        importId));
        run.setInstanceValue(ai, after.value);
        run.diagnose(ActionTriggers.unsupported(
                c.rc(), action, scopeData.withSelf(after.value).scope()));
        // As Terraform, a postcondition is checked against the planned object too: one already known to
        // fail fails the plan, and one that depends on what only the apply knows waits for it.
        for (CheckRule post : c.rc().lifecycle().postconditions()) {
            walk.condition(scopeData.withSelf(after.value).scope(), post, "Resource postcondition failed", true);
        }
    }

    private record Imported(Value value, PrivateState priv) {}

    private String importId(ImportTargets.Target t) {
        dev.strata.config.ImportConfig ic = t.block();
        Result<Value> id = new dev.strata.lang.eval.Evaluator(ImportTargets.idScope(run, t)).evaluate(ic.id());
        run.diagnose(id.diagnostics());
        if (id.hasErrors()) {
            return null;
        }
        String problem = null;
        Value v = id.value();
        if (v.isNull()) {
            problem = "The import ID cannot be null.";
        } else if (!v.isWhollyKnown()) {
            problem = "The import block \"id\" argument depends on resource attributes that cannot be determined "
                    + "until apply, so Strata cannot plan to import this resource.";
        } else if (v.hasMarkDeep(dev.strata.lang.value.Mark.SENSITIVE)) {
            problem = "The import ID cannot be sensitive.";
        } else if (v.hasMarkDeep(dev.strata.lang.value.Mark.EPHEMERAL)) {
            problem = "The import ID cannot be ephemeral: it is recorded in the plan.";
        }
        var s = problem == null
                ? dev.strata.lang.value.Convert.convert(v.unmarkDeep(), dev.strata.lang.types.Type.STRING)
                : null;
        if (s instanceof dev.strata.lang.value.ConversionResult.Failed f) {
            problem = "Incorrect value type: " + f.message() + ".";
        }
        if (problem != null) {
            run.diagnose(Diagnostic.error(
                    "Invalid import id argument", problem, ic.id().range()));
            return null;
        }
        return s.value().asString();
    }

    /** Imports an object through the provider and reads it, as {@code import} blocks and {@code strata import} do. */
    private Imported importObject(Ctx c, String id) {
        return importObject(c, id, false, false);
    }

    private Imported importObject(Ctx c, String id, boolean announce) {
        return importObject(c, id, announce, false);
    }

    /**
     * As {@link #importObject(Ctx, String)}; {@code announce}: the read is reported as a refresh, as a plan does;
     * {@code prepared}: what the provider returned is reported first, as Terraform's import command does.
     */
    private Imported importObject(Ctx c, String id, boolean announce, boolean prepared) {
        AbsResourceInstance ai = c.addr();
        String type = ai.resource().resource().type();
        Provider.ImportResponse ir = calls.call(
                c.providerAddr(),
                ai,
                ProviderCalls.Operation.IMPORT_RESOURCE_STATE,
                () -> c.provider().importResourceState(new Provider.ImportRequest(type, id)),
                Provider.ImportResponse::diagnostics);
        if (report(c, ir.diagnostics())) {
            return null;
        }
        if (prepared) {
            events.importPrepared(
                    ai,
                    ir.imported().stream()
                            .map(Provider.ImportedResource::typeName)
                            .toList());
        }
        Provider.ImportedResource found = ir.imported().stream()
                .filter(x -> x.typeName().equals(type))
                .findFirst()
                .orElse(null);
        if (found == null) {
            run.diagnose(Diagnostic.error(
                    "Cannot import non-existent remote object",
                    "While attempting to import "
                            + "an existing object to \"" + ai
                            + "\", the provider detected that no object exists with the "
                            + "given id. Only pre-existing objects can be imported; check that the id is correct.",
                    c.rc() != null ? c.rc().declRange() : null));
            return null;
        }
        if (announce) {
            String foundId = idOf(found.state());
            events.refreshStart(ai, foundId != null ? foundId : id);
        }
        Provider.ReadResponse rr = calls.call(
                c.providerAddr(),
                ai,
                ProviderCalls.Operation.READ_RESOURCE,
                () -> c.provider()
                        .readResource(
                                new Provider.ReadRequest(type, found.state(), found.privateState(), c.providerMeta())),
                Provider.ReadResponse::diagnostics);
        if (report(c, rr.diagnostics())) {
            return null;
        }
        if (rr.newState().isNull()) {
            run.diagnose(Diagnostic.error(
                    "Cannot import non-existent remote object",
                    "While attempting to import "
                            + "an existing object to \"" + ai
                            + "\", the provider detected that no object exists with the "
                            + "given id (" + id + ").",
                    c.rc() != null ? c.rc().declRange() : null));
            return null;
        }
        if (announce) {
            events.refreshComplete(ai, idOf(rr.newState()));
        }
        return new Imported(
                SchemaValues.nullWriteOnly(c.block(), SchemaValues.markSensitive(c.block(), rr.newState())),
                rr.newPrivate());
    }

    /**
     * {@code plan -generate-config-out}: imports the object of a target that has no configuration and
     * writes its resource block; null after reporting why not.
     */
    GeneratedConfig.Resource generate(ImportTargets.Target t) {
        AbsResourceInstance ai = t.addr();
        dev.strata.addr.Resource r = ai.resource().resource();
        var at = t.block().to().range();
        // The block has no configuration yet: an empty one stands in to find the provider and schema.
        ResourceConfig stub = new ResourceConfig(
                r, null, null, List.of(), null, dev.strata.config.Lifecycle.NONE, null, at, at, List.of(), null);
        Ctx c = ctx(stub, ai);
        if (c == null) {
            run.diagnose(Diagnostic.error(
                    "Cannot generate configuration",
                    "The provider for " + ai + " is not configured in this plan. Add a resource of the provider, "
                            + "or its provider block, to the configuration and try again.",
                    at));
            return null;
        }
        String id = importId(t);
        if (id == null) {
            return null;
        }
        Imported imp = importObject(c, id);
        if (imp == null) {
            return null;
        }
        return GeneratedConfig.resource(r.type(), r.name(), id, c.block(), imp.value);
    }

    /** {@code strata import}: imports one object into state now (with the lock held by the caller). */
    Diagnostics importNow(ResourceConfig rc, AbsResourceInstance ai, String id) {
        Ctx c = ctx(rc, ai);
        if (c == null) {
            return run.diagnostics();
        }
        if (stateObject(ai, null) != null) {
            return Diagnostics.of(Diagnostic.error(
                    "Resource already managed by Strata",
                    "Strata is already managing "
                            + "a remote object for " + ai
                            + ". To import to this address you must first remove the existing "
                            + "object from the state.",
                    null));
        }
        events.importingFromId(ai, id);
        Imported imp = importObject(c, id, true, true);
        if (imp != null) {
            setObject(c, object(c, ai.resource().key(), null, imp.value, imp.priv, ObjectStatus.READY));
        }
        return run.diagnostics();
    }

    /** Whether a {@code removed} block with {@code destroy = false} covers this instance. */
    boolean forgotten(AbsResourceInstance ai) {
        return removed.stream().anyMatch(r -> !r.destroy() && covers(r.from(), ai));
    }

    /** Whether any {@code removed} block covers this instance. */
    private boolean removedByBlock(AbsResourceInstance ai) {
        return removed.stream().anyMatch(r -> covers(r.from(), ai));
    }

    private static boolean covers(dev.strata.addr.Targetable from, AbsResourceInstance ai) {
        return switch (from) {
            case AbsResource ar -> ar.equals(ai.containingResource());
            case AbsResourceInstance x -> x.equals(ai);
            case dev.strata.addr.ModuleInstance mi -> startsWith(ai.module().module(), mi.module());
        };
    }

    void preventDestroy(Ctx c) {
        run.diagnose(Diagnostic.error(
                "Instance cannot be destroyed",
                "Resource " + c.addr() + " has "
                        + "lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid "
                        + "this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the "
                        + "scope of the plan using the -target option.",
                c.rc() != null ? c.rc().declRange() : null));
    }

    private Value refresh(Ctx c, ResourceInstanceObject obj, Value prior, PrivateState priorPrivate) {
        AbsResourceInstance ai = c.addr();
        events.refreshStart(ai, idOf(prior));
        Provider.ReadResponse rr = calls.call(
                c.providerAddr(),
                ai,
                ProviderCalls.Operation.READ_RESOURCE,
                () -> c.provider()
                        .readResource(new Provider.ReadRequest(
                                ai.resource().resource().type(), prior, priorPrivate, c.providerMeta())),
                Provider.ReadResponse::diagnostics);
        if (report(c, rr.diagnostics())) {
            return prior;
        }
        if (rr.newState().isNull()) {
            walk.planned.drift(c.change(ai, null, Action.DELETE, prior, c.nullObject(), null));
            removeObject(ai, null);
            events.refreshComplete(ai, null);
            return null;
        }
        Value refreshed = SchemaValues.nullWriteOnly(
                c.block(), StateValues.copyMarks(prior, SchemaValues.markSensitive(c.block(), rr.newState())));
        if (!refreshed.equalsIgnoringMarks(prior)) {
            walk.planned.drift(c.change(ai, null, Action.UPDATE, prior, refreshed, null));
            setObject(c, object(c, ai.resource().key(), null, refreshed, rr.newPrivate(), obj.status()));
        }
        events.refreshComplete(ai, idOf(refreshed));
        return refreshed;
    }

    private record Planned(
            Value value, List<AttributePath> requiresReplace, PrivateState priv, boolean legacyTypeSystem) {}

    private Planned plan(Ctx c, Value prior, Value config, PrivateState priorPrivate) {
        Value priorV = prior == null ? c.nullObject() : prior;
        Value cfg = prior == null ? config : ignoreChanges(c, config, prior);
        Value proposed = ProposedNewState.of(c.block(), priorV, cfg);
        Provider.PlanResponse pr = calls.call(
                c.providerAddr(),
                c.addr(),
                ProviderCalls.Operation.PLAN_RESOURCE_CHANGE,
                () -> c.provider()
                        .planResourceChange(new Provider.PlanRequest(
                                c.addr().resource().resource().type(),
                                priorV,
                                proposed,
                                cfg,
                                priorPrivate,
                                c.providerMeta())),
                Provider.PlanResponse::diagnostics);
        if (report(c, pr.diagnostics())) {
            return null;
        }
        List<String> problems = ObjectChecks.checkPlanValid(c.block(), cfg, pr.plannedState());
        if (!problems.isEmpty() && pr.legacyTypeSystem()) {
            // As Terraform does: the legacy SDK's type system is too loose to pass this check (an
            // Optional attribute with a Default is planned as the default while the config is null),
            // so such a plan is only logged, not refused.
            tolerated(c, "planned", problems);
        } else if (!problems.isEmpty()) {
            run.diagnose(Diagnostic.error(
                    "Provider produced invalid plan",
                    "Provider "
                            + c.providerAddr().provider().forDisplay() + " planned an invalid value for " + c.addr()
                            + ":\n  - "
                            + String.join("\n  - ", problems)
                            + "\n\nThis is a bug in the provider, which should be reported "
                            + "in the provider's own issue tracker.",
                    c.rc().declRange()));
            return null;
        }
        return new Planned(
                SchemaValues.nullWriteOnly(
                        c.block(),
                        StateValues.copyMarks(cfg, SchemaValues.markSensitive(c.block(), pr.plannedState()))),
                pr.requiresReplace(),
                pr.plannedPrivate(),
                pr.legacyTypeSystem());
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InstanceOps.class);

    /** A legacy-SDK provider's deviation that Terraform tolerates too: logged for whoever debugs a later failure. */
    private static void tolerated(Ctx c, String what, List<String> problems) {
        LOG.debug(
                "provider {} {} a value for {} that the legacy type system tolerates: {}",
                c.providerAddr().provider().forDisplay(),
                what,
                c.addr(),
                String.join("; ", problems));
    }

    /** {@code ignore_changes}: the prior value stands in for the configuration at each ignored path. */
    private Value ignoreChanges(Ctx c, Value config, Value prior) {
        var lc = c.rc().lifecycle();
        if (lc.ignoreAllChanges()) {
            Map<String, Value> out = new TreeMap<>(config.attributes());
            c.block().attributes().forEach((name, a) -> {
                if (a.configurable()) {
                    out.put(name, prior.attributes().get(name));
                }
            });
            c.block()
                    .blockTypes()
                    .keySet()
                    .forEach(name -> out.put(name, prior.attributes().get(name)));
            return Value.object(out);
        }
        Value out = config;
        for (Traversal t : lc.ignoreChanges()) {
            List<Object> path = new ArrayList<>();
            for (Traverser s : t.steps()) {
                switch (s) {
                    case Traverser.Root r -> path.add(r.name());
                    case Traverser.Attr a -> path.add(a.name());
                    case Traverser.Index ix ->
                        path.add(
                                ix.key() instanceof dev.strata.hcl.Literal.StringLit sl
                                        ? sl.value()
                                        : ix.key().toString());
                    default -> {}
                }
            }
            out = replaceAt(out, prior, path, 0);
        }
        return out;
    }

    private static Value replaceAt(Value target, Value source, List<Object> path, int i) {
        if (i == path.size()) {
            return source;
        }
        if (!target.isKnownAndNotNull() || !source.isKnownAndNotNull()) {
            // Nothing to descend into on one side: the configuration's value stands.
            return target;
        }
        String key = path.get(i).toString();
        if (target.type() instanceof dev.strata.lang.types.ObjectType
                || target.type() instanceof dev.strata.lang.types.MapType) {
            Value t = target.attributes().get(key);
            Value s = source.attributes().get(key);
            if (t == null) {
                return target;
            }
            Map<String, Value> attrs = new TreeMap<>(target.attributes());
            if (s == null) {
                attrs.remove(key);
            } else {
                attrs.put(key, replaceAt(t, s, path, i + 1));
            }
            return target.type() instanceof dev.strata.lang.types.MapType mt
                    ? Value.map(mt.elem(), attrs)
                    : Value.object(attrs);
        }
        return target;
    }

    /** Whether a {@code replace_triggered_by} reference has a planned replacement or update in this plan. */
    private boolean triggered(Ctx c, RunData scopeData) {
        for (Expression e : c.rc().lifecycle().replaceTriggeredBy()) {
            for (Traversal t : e.variables()) {
                Result<Reference> r = Reference.parse(t);
                if (r.value() == null) {
                    continue;
                }
                AbsResource target = null;
                InstanceKey key = null;
                switch (r.value().subject()) {
                    case Resource res -> target = scopeData.module().resource(res);
                    case ResourceInstance ri -> {
                        target = scopeData.module().resource(ri.resource());
                        key = ri.key();
                    }
                    default -> {}
                }
                if (target == null) {
                    continue;
                }
                for (ResourceChange ch : walk.planned.currentChanges()) {
                    if (ch.addr().containingResource().equals(target)
                            && (key == null || ch.addr().resource().key().equals(key))
                            && (ch.action() == Action.UPDATE || ch.action().isReplace())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Instances in state that the expansion no longer has, and deposed objects: planned for deletion. */
    void orphans(ResourceConfig rc, AbsResource ar, Expansion e) {
        Optional<ResourceState> rs = run.state().resource(ar);
        if (rs.isEmpty() || e instanceof Expansion.Deferred) {
            return;
        }
        Set<InstanceKey> keys = new TreeSet<>(e.keys());
        for (ResourceInstanceObject o : rs.get().instances()) {
            InstanceKey k = o.key();
            AbsResourceInstance ai = ar.instance(k);
            if (!Targets.matchesInstance(run.options.targets(), ai)
                    || Targets.excludesInstance(run.options.excludes(), ai)) {
                continue;
            }
            boolean gone = !keys.contains(k);
            if (!gone && o.deposed() == null) {
                continue;
            }
            if (Walk.isData(ar)) {
                removeObject(ai, o.deposed());
                continue;
            }
            AbsProviderConfig pa = rs.get().provider();
            Ctx c = pa == null ? null : ctx(rc, ai, pa);
            if (c == null) {
                c = ctx(rc, ai);
            }
            if (c == null) {
                continue;
            }
            Value before = decode(c, o);
            if (run.options.refresh() && o.deposed() == null) {
                // As Terraform, an instance the expansion dropped is refreshed too: one deleted outside is only
                // forgotten (its deletion shown as drift), not destroyed again, and the plan shows its current values.
                PrivateState priv =
                        o.privateData() == null ? PrivateState.EMPTY : PrivateState.fromBase64(o.privateData());
                before = refresh(c, o, before, priv);
                if (before == null) {
                    continue;
                }
            }
            if (run.options.mode() == PlanMode.REFRESH_ONLY) {
                continue; // a refresh-only plan changes no remote object
            }
            String reason = o.deposed() != null || run.options.mode() == PlanMode.DESTROY
                    ? null
                    : k instanceof InstanceKey.IntKey
                            ? (e instanceof Expansion.Count
                                    ? "delete_because_count_index"
                                    : "delete_because_wrong_repetition")
                            : k instanceof InstanceKey.StringKey
                                    ? (e instanceof Expansion.ForEach
                                            ? "delete_because_each_key"
                                            : "delete_because_wrong_repetition")
                                    : "delete_because_wrong_repetition";
            if (run.providers.preventsDestroy(rc) && o.deposed() == null) {
                preventDestroy(c);
            }
            ResourceChange ch = c.change(ai, o.deposed(), Action.DELETE, before, c.nullObject(), reason);
            if (o.deposed() == null) {
                walk.planned.change(ai, ch);
            } else {
                walk.planned.deposed(ch);
            }
        }
    }

    /** An object whose resource (or module) is no longer configured: planned for deletion. */
    void orphanWithoutConfig(ResourceState rs, ResourceInstanceObject o, AbsResourceInstance ai, String reason) {
        if (Walk.isData(ai.containingResource())) {
            removeObject(ai, o.deposed());
            return;
        }
        AbsProviderConfig pa = rs.provider();
        if (pa == null || !ensureProvider(pa)) {
            return;
        }
        Ctx c = ctx(null, ai, pa);
        if (c == null) {
            return;
        }
        Value before = decode(c, o);
        boolean forget = forgotten(ai);
        // As Terraform, an object about to be forgotten is not read again: the plan shows it as recorded.
        if (run.options.refresh() && o.deposed() == null && !(forget && run.options.mode() != PlanMode.REFRESH_ONLY)) {
            PrivateState priv = o.privateData() == null ? PrivateState.EMPTY : PrivateState.fromBase64(o.privateData());
            before = refresh(c, o, before, priv);
            if (before == null) {
                return;
            }
        }
        if (run.options.mode() == PlanMode.REFRESH_ONLY) {
            // A refresh-only plan changes no remote object: one without configuration stays, refreshed.
            return;
        }
        // Terraform gives every object a removed block names this reason, even one in a removed module.
        String why = removedByBlock(ai) ? "delete_because_no_resource_config" : reason;
        ResourceChange ch = new ResourceChange(
                ai,
                o.deposed(),
                forget ? Action.FORGET : Action.DELETE,
                before,
                c.nullObject(),
                List.of(),
                o.deposed() == null ? why : null,
                pa,
                c.schema().version(),
                null,
                null,
                null);
        if (o.deposed() == null) {
            walk.planned.change(ai, ch);
        } else {
            walk.planned.deposed(ch);
        }
    }

    /** Starts and configures a provider outside the graph walk (for objects without configuration). */
    boolean ensureProvider(AbsProviderConfig pa) {
        if (run.providers.isConfigured(pa)) {
            return true;
        }
        Result<Provider> p = run.providers.get(pa, dev.strata.addr.VersionConstraint.ANY);
        run.diagnose(p.diagnostics());
        if (p.value() == null) {
            return false;
        }
        var pc = GraphBuilder.providerConfig(run.tree, pa);
        Value config;
        Block b = run.providers.schema(pa).provider().block();
        if (pc == null) {
            Value supplied = run.providers.supplied(pa);
            SchemaValues.Coerced coerced = SchemaValues.coerce(b, supplied != null ? supplied : Value.EMPTY_OBJECT);
            Diagnostics bad = coerced.diagnostics().toDiagnostics();
            run.diagnose(bad);
            if (bad.hasErrors()) {
                return false;
            }
            config = coerced.value();
        } else {
            Result<Value> r = BodyDecoder.decode(
                    pc.config(), b, RunData.scope(run, pa.module().unkeyedInstance()));
            run.diagnose(r.diagnostics());
            if (r.hasErrors()) {
                return false;
            }
            config = r.value();
        }
        synchronized (this) {
            if (run.providers.isConfigured(pa)) {
                return true;
            }
            Diagnostics d = run.providers.configure(pa, config);
            run.diagnose(d);
            return !d.hasErrors();
        }
    }

    /**
     * At apply time, for a resource that was deferred in the plan: instances in state that its expansion
     * no longer has would be destroyed by a normal plan; without a reviewed plan that is not done, only
     * reported (§3.6).
     */
    void deferredLeftovers(AbsResource ar, Expansion e) {
        boolean wasDeferred = reviewed != null
                && reviewed.deferred().stream()
                        .anyMatch(d ->
                                d.addr().module().module().equals(ar.module().module())
                                        && d.addr().resource().equals(ar.resource()));
        if (!wasDeferred) {
            return;
        }
        Set<InstanceKey> keys = new TreeSet<>(e.keys());
        run.state().resource(ar).ifPresent(rs -> {
            for (ResourceInstanceObject o : rs.instances()) {
                InstanceKey k = o.key();
                if (o.deposed() == null && !keys.contains(k)) {
                    walk.applied.needsPlan(ar.instance(k));
                }
            }
        });
    }

    /** A resource whose expansion is deferred: planned as a placeholder, expanded and created during the apply. */
    void deferred(
            ResourceConfig rc, AbsResource ar, Expansion.Deferred d, RunData scopeData, List<Walk.InstanceWork> work) {
        if (run.phase == Run.Phase.PLAN) {
            walk.planned.deferred(new DeferredResource(ar, d.argument(), d.unknownRefs()));
            return;
        }
        run.diagnose(Diagnostic.error(
                "Invalid " + d.argument() + " argument",
                "The \"" + d.argument() + "\" value of "
                        + ar
                        + " depends on values that are still unknown after the objects it depends on were applied: "
                        + String.join(", ", d.unknownRefs())
                        + ". Check that those objects were applied without errors.",
                (d.argument().equals("count") ? rc.count() : rc.forEach()).range()));
    }

    // ---- outputs ----

    void rootOutput(String name, OutputConfig oc, Value v) {
        OutputValue prior = run.state().outputs().get(name);
        // As Terraform, a targeted destroy leaves the root outputs as they are: none is planned for removal,
        // and applying such a plan removes none (the next plan brings them up to date).
        boolean targetedDestroy = run.phase == Run.Phase.PLAN
                ? run.options.mode() == PlanMode.DESTROY
                        && !run.options.targets().isEmpty()
                : reviewed != null
                        && reviewed.mode() == PlanMode.DESTROY
                        && !reviewed.outputs().containsKey(name);
        if (targetedDestroy) {
            return;
        }
        if (run.phase == Run.Phase.PLAN) {
            Value before = prior == null ? Value.NULL : priorOutput(prior);
            Action a;
            if (run.options.mode() == PlanMode.DESTROY) {
                if (prior == null) {
                    return; // as Terraform: a destroy plan only removes outputs; one not in state is no change
                }
                a = Action.DELETE;
            } else if (prior == null) {
                a = v.isNull() ? Action.NO_OP : Action.CREATE;
            } else if (v.isNull()) {
                a = Action.DELETE;
            } else if (v.isWhollyKnown() && v.equalsIgnoringMarks(before)) {
                a = Action.NO_OP;
            } else {
                a = Action.UPDATE;
            }
            walk.planned.output(new OutputChange(name, a, before, v, oc.sensitive() || v.hasMarkDeep(Mark.SENSITIVE)));
            return;
        }
        if (v.isNull() || run.options.mode() == PlanMode.DESTROY) {
            if (prior != null) {
                run.record(new JournalEntry.RemoveOutput(name));
            }
        } else if (v.isWhollyKnown()) {
            run.record(new JournalEntry.SetOutput(name, Walk.outputValue(v)));
        }
    }

    static Value priorOutput(OutputValue o) {
        Value v = StateValues.outputValue(o);
        return o.sensitive() ? v.mark(Mark.SENSITIVE) : v;
    }

    // ---- applying ----

    private void apply(Ctx c, RunData scopeData) {
        AbsResourceInstance ai = c.addr();
        ResourceChange ch = reviewedChanges.get(ai);
        boolean wasDeferred = reviewed.deferred().stream()
                .anyMatch(d -> d.addr().equals(ai.containingResource())
                        || (d.addr().module().module().equals(ai.module().module())
                                && d.addr().resource().equals(ai.resource().resource())));
        ResourceInstanceObject obj = stateObject(ai, null);
        Value prior = obj == null ? null : decode(c, obj);
        boolean data = Walk.isData(ai.containingResource());
        if (ch == null && wasDeferred) {
            // Expanded now (§3.6): only creates (and reads) may happen without a new plan.
            if (data) {
                Value config = config(c, scopeData);
                Value v = config == null || !requireKnown(c, config) ? null : read(c, config);
                if (v != null) {
                    setObject(c, object(c, ai.resource().key(), null, v, null, ObjectStatus.READY));
                }
                run.setInstanceValue(ai, v == null ? Value.DYNAMIC_UNKNOWN : v);
                return;
            }
            if (prior != null) {
                walk.applied.needsPlan(ai);
                run.setInstanceValue(ai, prior);
                return;
            }
            events.instanceAdded(ai, Action.CREATE);
            ch = c.change(ai, null, Action.CREATE, c.nullObject(), Value.DYNAMIC_UNKNOWN, null);
        }
        if (ch != null && ch.importId() != null && obj == null) {
            events.importStart(ai, ch.importId());
            Imported imp = importObject(c, ch.importId());
            if (imp == null) {
                failed(c, Action.CREATE);
                return;
            }
            setObject(c, object(c, ai.resource().key(), null, imp.value, imp.priv, ObjectStatus.READY));
            events.importComplete(ai, ch.importId());
            walk.applied.succeeded(ai, Action.READ);
            obj = stateObject(ai, null);
            prior = imp.value;
        }
        if (ch == null || ch.action() == Action.NO_OP || ch.action() == Action.DELETE || ch.action() == Action.FORGET) {
            if (prior != null) {
                run.setInstanceValue(ai, prior);
            } else if (data && obj == null) {
                run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            }
            return;
        }
        Value config = config(c, scopeData);
        if (config == null || !requireKnown(c, config)) {
            run.setInstanceValue(ai, Value.DYNAMIC_UNKNOWN);
            failed(c, ch.action());
            return;
        }
        if (ch.action() == Action.READ) {
            events.applyStart(ai, Action.READ, null);
            long t0 = System.nanoTime();
            Value v = read(c, config);
            if (v == null) {
                failed(c, Action.READ);
                return;
            }
            setObject(c, object(c, ai.resource().key(), null, v, null, ObjectStatus.READY));
            run.setInstanceValue(ai, v);
            events.applyComplete(ai, Action.READ, idOf(v), Duration.ofNanos(System.nanoTime() - t0));
            return;
        }
        for (CheckRule pre : c.rc().lifecycle().preconditions()) {
            if (!walk.condition(scopeData.scope(), pre, "Resource precondition failed", true)) {
                return;
            }
        }
        PrivateState priorPrivate = obj == null || obj.privateData() == null
                ? PrivateState.EMPTY
                : PrivateState.fromBase64(obj.privateData());
        Value created;
        switch (ch.action()) {
            case UPDATE -> created = applyOne(c, ch, Action.UPDATE, prior, config, priorPrivate, null, scopeData);
            case CREATE -> created = applyOne(c, ch, Action.CREATE, null, config, PrivateState.EMPTY, null, scopeData);
            case DELETE_THEN_CREATE -> {
                if (prior != null && !destroy(c, prior, priorPrivate, null)) {
                    return;
                }
                created = applyOne(c, ch, Action.CREATE, null, config, PrivateState.EMPTY, null, scopeData);
            }
            case CREATE_THEN_DELETE -> {
                String deposedKey = null;
                if (prior != null) {
                    deposedKey = newDeposedKey();
                    setObject(c, withDeposed(obj, deposedKey));
                    removeObject(ai, null);
                }
                created = applyOne(c, ch, Action.CREATE, null, config, PrivateState.EMPTY, null, scopeData);
                if (created != null && prior != null) {
                    deposedLater.add(c.change(ai, deposedKey, Action.DELETE, prior, c.nullObject(), null));
                }
            }
            default -> throw new IllegalStateException("unexpected action " + ch.action());
        }
        if (created == null) {
            return;
        }
        run.setInstanceValue(ai, created);
        for (CheckRule post : c.rc().lifecycle().postconditions()) {
            walk.condition(scopeData.withSelf(created).scope(), post, "Resource postcondition failed", true);
        }
    }

    /**
     * The {@code timeouts} block's value for an operation ({@code create}, {@code update}, {@code delete}),
     * where the resource type's schema has that block; null for none.
     */
    private Duration timeout(Ctx c, Value config, String operation) {
        if (!c.block().blockTypes().containsKey("timeouts") || config == null || !config.isKnownAndNotNull()) {
            return null;
        }
        Value t = config.attributes().get("timeouts");
        if (t == null || !t.isKnownAndNotNull() || !(t.type() instanceof dev.strata.lang.types.ObjectType)) {
            return null;
        }
        Value v = t.attributes().get(operation);
        if (v == null || !v.isKnownAndNotNull() || v.type() != dev.strata.lang.types.Type.STRING) {
            return null;
        }
        Duration d = GoDuration.parse(v.unmarkDeep().asString());
        if (d == null) {
            run.diagnose(Diagnostic.error(
                    "Invalid timeout",
                    "The " + operation + " timeout of " + c.addr() + " must be a duration such as \"30s\" or \"10m\".",
                    c.rc() == null ? null : c.rc().declRange()));
        }
        return d;
    }

    /**
     * Runs a provider operation with the resource's timeout: when it does not finish in time, the provider
     * is asked to stop, the error is reported, and null is returned (the operation's late result is ignored).
     */
    private Provider.ApplyResponse withTimeout(
            Ctx c, Duration limit, Action action, Value prior, java.util.function.Supplier<Provider.ApplyResponse> op) {
        if (limit == null) {
            return op.get();
        }
        java.util.concurrent.CompletableFuture<Provider.ApplyResponse> f =
                new java.util.concurrent.CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                f.complete(op.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(limit.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            c.provider().stop();
            run.diagnose(Diagnostic.error(
                    "Operation timed out",
                    "The " + (action == Action.DELETE ? "delete" : action == Action.CREATE ? "create" : "update")
                            + " of " + c.addr() + " did not finish within its "
                            + "timeout of " + limit.toSeconds()
                            + "s (timeouts block). Strata asked the provider to stop; the "
                            + "object is checked on the next run.",
                    c.rc() == null ? null : c.rc().declRange()));
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static ResourceInstanceObject withDeposed(ResourceInstanceObject o, String key) {
        return new ResourceInstanceObject(
                o.key(),
                o.status(),
                key,
                o.schemaVersion(),
                o.attributes(),
                o.attributesFlat(),
                o.sensitiveAttributes(),
                o.identitySchemaVersion(),
                o.identity(),
                o.privateData(),
                o.dependencies(),
                o.createBeforeDestroy(),
                o.extra());
    }

    private static String newDeposedKey() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    }

    private void failed(Ctx c, Action a) {
        walk.applied.failed(c.addr());
    }

    /** Just-in-time resolution (§3.8): every value must be known when the operation starts. */
    private boolean requireKnown(Ctx c, Value config) {
        if (config.isWhollyKnown()) {
            return true;
        }
        List<String> paths = ObjectChecks.unknownPaths(config).stream()
                .map(AttributePath::toString)
                .toList();
        run.diagnose(Diagnostic.error(
                "Unresolved reference during apply",
                "The configuration of " + c.addr()
                        + " still has values that are unknown after everything it depends on was applied: "
                        + String.join(", ", paths)
                        + ". Strata does not apply partially resolved configurations; check the "
                        + "errors reported for the objects it refers to.",
                c.rc().declRange()));
        return false;
    }

    /** Plans the operation again with the freshest values, checks it against the reviewed plan, and applies it. */
    private Value applyOne(
            Ctx c,
            ResourceChange ch,
            Action action,
            Value prior,
            Value config,
            PrivateState priorPrivate,
            String deposed,
            RunData scopeData) {
        AbsResourceInstance ai = c.addr();
        Planned p = plan(c, prior, config, priorPrivate);
        if (p == null) {
            failed(c, action);
            return null;
        }
        if (ch.after() != null
                && ch.after() != Value.DYNAMIC_UNKNOWN
                && !ch.after().isNull()) {
            List<String> problems = ObjectChecks.checkCompatible(ch.after().unmarkDeep(), p.value.unmarkDeep());
            if (!problems.isEmpty() && p.legacyTypeSystem) {
                tolerated(c, "re-planned", problems);
            } else if (!problems.isEmpty()) {
                run.diagnose(Diagnostic.error(
                        "Provider produced inconsistent final plan",
                        "When expanding the plan "
                                + "for " + ai + " to include new values learned so far during apply, provider "
                                + c.providerAddr().provider().forDisplay() + " produced an invalid new value:\n  - "
                                + String.join("\n  - ", problems)
                                + "\n\nThis is a bug in the provider, which should be "
                                + "reported in the provider's own issue tracker.",
                        c.rc().declRange()));
                failed(c, action);
                return null;
            }
        }
        String reused = action == Action.CREATE ? openCreates.get(ai) : null;
        String token = reused != null ? reused : operationIds.next();
        run.record(new JournalEntry.Intent(token, ai, action.jsonActions().getFirst()));
        events.applyStart(ai, action, deposed, idOf(prior));
        long t0 = System.nanoTime();
        Value priorV = prior == null ? c.nullObject() : prior;
        Duration limit = timeout(c, config, action == Action.CREATE ? "create" : "update");
        Provider.ApplyResponse ar = withTimeout(
                c,
                limit,
                action,
                priorV,
                () -> calls.call(
                        c.providerAddr(),
                        ai,
                        ProviderCalls.Operation.APPLY_RESOURCE_CHANGE,
                        () -> c.provider()
                                .applyResourceChange(new Provider.ApplyRequest(
                                        ai.resource().resource().type(),
                                        priorV,
                                        p.value.unmarkDeep(),
                                        config,
                                        p.priv,
                                        action == Action.CREATE ? token : null,
                                        c.providerMeta())),
                        Provider.ApplyResponse::diagnostics));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (ar == null) {
            // Timed out: the intent stays open, so the next run checks (and, for a create, adopts) the object.
            events.applyErrored(ai, action, took, Diagnostics.NONE);
            failed(c, action);
            return null;
        }
        Value ns = ar.newState();
        boolean errors = ar.diagnostics().hasErrors();
        List<JournalEntry> outcome = new ArrayList<>(2);
        if (!ns.isNull()) {
            if (!errors) {
                List<String> problems = ObjectChecks.checkCompatible(p.value.unmarkDeep(), ns.unmarkDeep());
                if (!problems.isEmpty() && ar.legacyTypeSystem()) {
                    tolerated(c, "returned after apply", problems);
                } else if (!problems.isEmpty()) {
                    run.diagnose(Diagnostic.error(
                            "Provider produced inconsistent result after apply",
                            "When "
                                    + "applying changes to " + ai + ", provider "
                                    + c.providerAddr().provider().forDisplay()
                                    + " produced an unexpected new value:\n  - " + String.join("\n  - ", problems)
                                    + "\n\nThis is a bug in the provider, which should be reported in the provider's own issue "
                                    + "tracker.",
                            c.rc().declRange()));
                    errors = true;
                }
            }
            Value marked = SchemaValues.nullWriteOnly(
                    c.block(), StateValues.copyMarks(p.value, SchemaValues.markSensitive(c.block(), ns)));
            // A new object with creation-time provisioners is recorded tainted until they have all run: a
            // crash in between leaves an object that the next plan replaces, as one whose provisioner failed.
            ObjectStatus status = action == Action.CREATE && (errors || provisionsAfterCreate(c, deposed))
                    ? ObjectStatus.TAINTED
                    : ObjectStatus.READY;
            if (ns.isWhollyKnown()) {
                outcome.add(new JournalEntry.SetObject(
                        c.addr().containingResource(),
                        c.providerAddr(),
                        object(c, ai.resource().key(), deposed, marked, ar.newPrivate(), status)));
            }
            ns = marked;
        } else if (prior != null) {
            outcome.add(new JournalEntry.RemoveObject(ai, deposed));
        }
        outcome.add(new JournalEntry.Completed(token));
        // The result and the end of its intent in one step: one wait for the disk instead of two, and a crash
        // in between still leaves the result with its intent open, which the next run settles.
        run.record(outcome);
        if (report(c, ar.diagnostics()) || errors) {
            events.applyErrored(ai, action, took, ar.diagnostics().toDiagnostics());
            failed(c, action);
            return null;
        }
        if (action == Action.CREATE && provisionsAfterCreate(c, deposed)) {
            // The object is recorded (tainted) before its provisioners run: a crash now leaves it in state.
            boolean provisioned = provisioning.run(
                    c.rc(), ai, scopeData.withSelf(ns).scope(), dev.strata.config.Provisioner.When.CREATE);
            if (!provisioned) {
                // As Terraform does: the object exists but is not set up, so the next plan replaces it.
                if (ns.isWhollyKnown()) {
                    setObject(c, object(c, ai.resource().key(), null, ns, ar.newPrivate(), ObjectStatus.TAINTED));
                }
                events.applyErrored(ai, action, Duration.ofNanos(System.nanoTime() - t0), Diagnostics.NONE);
                failed(c, action);
                return null;
            }
            if (ns.isWhollyKnown()) {
                setObject(c, object(c, ai.resource().key(), null, ns, ar.newPrivate(), ObjectStatus.READY));
            }
            took = Duration.ofNanos(System.nanoTime() - t0);
        }
        events.applyComplete(ai, action, idOf(ns), took);
        walk.applied.succeeded(ai, action);
        return ns;
    }

    private static boolean provisionsAfterCreate(Ctx c, String deposed) {
        return deposed == null && c.rc() != null && provisions(c.rc(), dev.strata.config.Provisioner.When.CREATE);
    }

    /**
     * Whether the resource has a provisioner that runs at {@code when}: asked twice per create, for a list that
     * is nearly always empty, so without {@link ResourceConfig#provisioners(dev.strata.config.Provisioner.When)}'s
     * stream and list.
     */
    private static boolean provisions(ResourceConfig rc, dev.strata.config.Provisioner.When when) {
        for (dev.strata.config.Provisioner p : rc.provisioners()) {
            if (p.when() == when) {
                return true;
            }
        }
        return false;
    }

    /** Destroys one object (current, or deposed when {@code deposed} is set). */
    boolean destroy(Ctx c, Value prior, PrivateState priorPrivate, String deposed) {
        AbsResourceInstance ai = c.addr();
        String token = operationIds.next();
        run.record(new JournalEntry.Intent(token, ai, "delete"));
        events.applyStart(ai, Action.DELETE, deposed, idOf(prior));
        long t0 = System.nanoTime();
        if (!destroyProvisioners(c, prior, deposed)) {
            run.record(new JournalEntry.Completed(token));
            events.applyErrored(ai, Action.DELETE, Duration.ofNanos(System.nanoTime() - t0), Diagnostics.NONE);
            failed(c, Action.DELETE);
            return false;
        }
        Duration limit = c.rc() == null ? null : timeout(c, prior, "delete");
        Provider.ApplyResponse ar = withTimeout(
                c,
                limit,
                Action.DELETE,
                prior,
                () -> calls.call(
                        c.providerAddr(),
                        ai,
                        ProviderCalls.Operation.APPLY_RESOURCE_CHANGE,
                        () -> c.provider()
                                .applyResourceChange(new Provider.ApplyRequest(
                                        ai.resource().resource().type(),
                                        prior.unmarkDeep(),
                                        c.nullObject(),
                                        c.nullObject(),
                                        priorPrivate,
                                        null,
                                        c.providerMeta())),
                        Provider.ApplyResponse::diagnostics));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (ar == null) {
            events.applyErrored(ai, Action.DELETE, took, Diagnostics.NONE);
            failed(c, Action.DELETE);
            return false;
        }
        if (ar.newState().isNull()) {
            removeObject(ai, deposed);
        }
        run.record(new JournalEntry.Completed(token));
        if (report(c, ar.diagnostics()) || !ar.newState().isNull()) {
            events.applyErrored(ai, Action.DELETE, took, ar.diagnostics().toDiagnostics());
            failed(c, Action.DELETE);
            return false;
        }
        events.applyComplete(ai, Action.DELETE, null, took);
        walk.applied.succeeded(ai, Action.DELETE);
        return true;
    }

    /**
     * Runs the destroy-time provisioners of the current object before it is destroyed; false when one
     * failed (reported), and the object then stays. As in Terraform they do not run for a tainted object
     * (its creation-time provisioners did not finish) nor for a deposed one.
     */
    private boolean destroyProvisioners(Ctx c, Value prior, String deposed) {
        if (deposed != null) {
            return true;
        }
        dev.strata.config.RemovedConfig removedBlock = c.rc() == null ? removedBlockOf(c.addr()) : null;
        if (c.rc() != null
                ? !provisions(c.rc(), dev.strata.config.Provisioner.When.DESTROY)
                : removedBlock == null || removedBlock.provisioners().isEmpty()) {
            return true;
        }
        ResourceInstanceObject o = stateObject(c.addr(), null);
        if (o == null || o.status() == ObjectStatus.TAINTED) {
            return true;
        }
        RunData data = new RunData(run, c.addr().module())
                .forInstance(c.addr().resource().key(), null)
                .withSelf(prior);
        return c.rc() != null
                ? provisioning.run(c.rc(), c.addr(), data.scope(), dev.strata.config.Provisioner.When.DESTROY)
                : provisioning.run(
                        removedBlock.provisioners(),
                        removedBlock.connection(),
                        c.addr(),
                        data.scope(),
                        dev.strata.config.Provisioner.When.DESTROY);
    }

    /**
     * The {@code removed} block that destroys {@code ai}'s resource, now gone from the configuration (its
     * provisioners run before each object goes, Terraform 1.9+); null when there is none.
     */
    private dev.strata.config.RemovedConfig removedBlockOf(AbsResourceInstance ai) {
        dev.strata.addr.ConfigResource gone = ai.containingResource().config();
        for (ConfigNode n : run.tree.nodes()) {
            for (dev.strata.config.RemovedConfig r : n.module().removed()) {
                if (r.destroy()
                        && r.from() instanceof AbsResource from
                        && from.resource().equals(gone.resource())
                        && within(n.path(), from.module()).equals(gone.module())) {
                    return r;
                }
            }
        }
        return null;
    }

    /** The module that {@code relative} (as written in a block of {@code base}) names. */
    private static dev.strata.addr.Module within(dev.strata.addr.Module base, dev.strata.addr.ModuleInstance relative) {
        dev.strata.addr.Module m = base;
        for (String name : relative.module().names()) {
            m = m.child(name);
        }
        return m;
    }

    /** The destroy-first deletions of the plan that {@code d} makes ({@link DestroyOrder}). */
    List<ResourceChange> destroyedFirst(Node.DestroyNode d) {
        return destroyedFirst.getOrDefault(new dev.strata.addr.ConfigResource(d.module(), d.resource()), List.of());
    }

    /**
     * Whether {@code lifecycle.prevent_destroy} of the object's configuration ({@code rc}, null when there is
     * none) forbids the planned deletion {@code c} of a current object; reported when it does.
     */
    boolean destroyPrevented(ResourceChange c, ResourceConfig rc) {
        if (rc == null || c.deposed() != null || !run.providers.preventsDestroy(rc)) {
            return false;
        }
        run.diagnose(Diagnostic.error(
                "Instance cannot be destroyed",
                "Resource " + c.addr() + " has "
                        + "lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. "
                        + "To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy "
                        + "or reduce the scope of the plan using the -target option.",
                rc.declRange()));
        return true;
    }

    /** The configuration of resource {@code r} in module {@code m}; null when the configuration no longer has it. */
    static ResourceConfig configOf(
            dev.strata.config.ConfigTree tree, dev.strata.addr.Module m, dev.strata.addr.Resource r) {
        return tree.node(m).map(n -> n.module().resources().get(r)).orElse(null);
    }

    /** Applies a planned deletion of an object that has no configuration to evaluate. */
    boolean destroy(ResourceChange ch, ResourceConfig rc) {
        Ctx c = ctx(rc, ch.addr(), ch.provider());
        if (c == null) {
            run.diagnose(Diagnostic.error(
                    "Provider configuration not present",
                    "To destroy " + ch.addr()
                            + ", its provider configuration " + ch.provider() + " is required, but it could not be "
                            + "configured.",
                    null));
            return false;
        }
        ResourceInstanceObject obj = stateObject(ch.addr(), ch.deposed());
        if (obj == null) {
            return true;
        }
        PrivateState priv = obj.privateData() == null ? PrivateState.EMPTY : PrivateState.fromBase64(obj.privateData());
        return destroy(c, decode(c, obj), priv, ch.deposed());
    }

    static String idOf(Value v) {
        if (v == null || !v.isKnownAndNotNull() || !(v.type() instanceof dev.strata.lang.types.ObjectType)) {
            return null;
        }
        Value id = v.attributes().get("id");
        if (id == null
                || !id.isKnownAndNotNull()
                || id.isSensitive()
                || id.type() != dev.strata.lang.types.Type.STRING) {
            return null;
        }
        return id.asString();
    }

    /** Reports provider diagnostics for the instance; true when there were errors. */
    private boolean report(Ctx c, ProviderDiagnostics pd) {
        if (pd.isEmpty()) {
            return false;
        }
        SourceRange at = c.rc() != null ? c.rc().config().missingItemRange() : null;
        for (ProviderDiagnostic pdi : pd) {
            // A provider that is gone fails every object that needs it for the same reason: say it once.
            if (pdi.failure() instanceof Failure.Unavailable && !unavailableReported.add(c.providerAddr())) {
                continue;
            }
            // As Terraform: at the argument the provider names when the configuration has it, else at the block's
            // body, and with the instance it was reported for.
            SourceRange where = pdi.attribute() == null || c.rc() == null
                    ? null
                    : PathRanges.find(c.rc().config(), c.block(), pdi.attribute());
            run.diagnose(pdi.toDiagnostic(where != null ? where : at)
                    .withAddress(c.addr().toString()));
        }
        return pd.hasErrors();
    }
}
