package dev.strata.config;

import dev.strata.addr.CountAttr;
import dev.strata.addr.ForEachAttr;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleCallInstance;
import dev.strata.addr.ModuleCallInstanceOutput;
import dev.strata.addr.PathAttr;
import dev.strata.addr.Reference;
import dev.strata.addr.Referenceable;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.addr.Self;
import dev.strata.addr.TerraformAttr;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.DidYouMean;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SchemaMessages;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.ExprWalk;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Static validation of a loaded configuration (the validate phase: every value unknown, only types
 * known). Each configuration object is checked once, so each mistake is reported once however many
 * instances the object will have: references to undeclared objects (with "did you mean"), the
 * instancing rules of ARCHITECTURE §3.6, {@code count}/{@code each}/{@code self} outside their
 * blocks, literal {@code count}/{@code for_each} values, unknown functions and type errors in
 * expressions, module call arguments against the child's variables. Local values are evaluated
 * with the other values unknown, so locals built from constants are known and these checks see
 * through them, as {@code terraform validate} does.
 *
 * <p>Reference problems have one owner, the static reference check; the evaluation that follows
 * sees every reference as an unknown placeholder and reports only what evaluation finds (type
 * errors, unknown functions, bad function arguments).
 */
public final class Validator {
    private final ConfigTree tree;
    private final java.util.function.Function<ModuleConfig, FunctionTable> functionTables;
    private final Diagnostics.Builder diags = Diagnostics.builder();

    private Validator(ConfigTree tree, java.util.function.Function<ModuleConfig, FunctionTable> functionTables) {
        this.tree = tree;
        this.functionTables = functionTables;
    }

    /** Validates with the built-in functions only: a provider-defined function is an unknown function. */
    public static Diagnostics validate(ConfigTree tree) {
        // As in Terraform, file functions resolve relative paths against the working directory (the
        // root module's), not the module's own directory; modules use path.module for theirs.
        // Validating is not applying: timestamp(), uuid() and bcrypt() are unknown, as in terraform validate.
        FunctionTable builtins = TemplateFunctions.planning(
                FunctionContext.system(tree.root().module().dir()));
        return validate(tree, m -> builtins);
    }

    /**
     * Validates with {@code functionTables} giving each module's function table (the built-ins plus
     * the provider-defined functions its {@code required_providers} offer).
     */
    public static Diagnostics validate(
            ConfigTree tree, java.util.function.Function<ModuleConfig, FunctionTable> functionTables) {
        Validator v = new Validator(tree, functionTables);
        // A module called from several places has the same declarations and children everywhere,
        // so it is checked once; its callers' arguments are checked by each caller.
        Set<Path> seen = new java.util.HashSet<>();
        for (ConfigNode n : tree.nodes()) {
            if (seen.add(n.module().dir())) {
                v.new ModuleCheck(n).run();
            }
        }
        return v.diags.build().inPlaceOrder();
    }

    enum Mode {
        NONE,
        COUNT,
        FOR_EACH
    }

    /** Where an expression sits: what {@code count}/{@code each}/{@code self} mean there. */
    record Ctx(Mode mode, Set<String> bound, boolean selfAllowed, Referenceable owner) {
        static final Ctx PLAIN = new Ctx(Mode.NONE, Set.of(), false, null);

        Ctx bind(Set<String> names) {
            return names.isEmpty() ? this : new Ctx(mode, names, selfAllowed, owner);
        }

        Ctx withSelf() {
            return new Ctx(mode, bound, true, owner);
        }
    }

    /** What a literal count/for_each told us about the instances: their count, or their keys. */
    record Known(Integer count, Set<String> keys) {}

    private final class ModuleCheck {
        private final ConfigNode node;
        private final ModuleConfig m;
        private final FunctionTable functions;
        private final Map<Referenceable, Known> known = new HashMap<>();
        /** The data source of the check block being validated: visible only inside that block. */
        private ResourceConfig scoped;
        /** Local values as the validate phase knows them: constant where their expressions are. */
        private final Map<String, Value> localValues = new HashMap<>();

        private final Set<String> evaluatingLocals = new java.util.HashSet<>();
        /**
         * Evaluations of locals that refer to no other local, kept with their diagnostics: such a
         * value is the same wherever it is asked for, so a large one (a {@code for_each} map built by
         * a {@code for}) is evaluated once for both the literal checks and the local's own check.
         */
        private final Map<String, Result<Value>> localResults = new HashMap<>();

        private final Scope scope = new ReferenceScope(new StaticData());

        ModuleCheck(ConfigNode node) {
            this.node = node;
            this.m = node.module();
            this.functions = functionTables.apply(m);
        }

        String where() {
            return node.path().isRoot() ? "the root module" : node.path().toString();
        }

        void run() {
            // Instance counts first: references are checked against them.
            for (ResourceConfig r : m.resources().values()) {
                repetition(r.addr(), r.count(), r.forEach(), Ctx.PLAIN);
            }
            for (ModuleCallConfig c : m.moduleCalls().values()) {
                repetition(c.addr(), c.count(), c.forEach(), Ctx.PLAIN);
            }
            for (VariableConfig v : m.variables().values()) {
                for (CheckRule rule : v.validations()) {
                    rule(rule, Ctx.PLAIN);
                }
            }
            for (LocalConfig l : m.locals().values()) {
                checkLocal(l, new Ctx(Mode.NONE, Set.of(), false, l.addr()));
            }
            localCycles();
            for (OutputConfig o : m.outputs().values()) {
                if (o.value() != null) {
                    check(o.value(), Ctx.PLAIN);
                }
                o.preconditions().forEach(r -> rule(r, Ctx.PLAIN));
                dependsOn(o.dependsOn(), Ctx.PLAIN);
            }
            for (ProviderConfig p : m.providerConfigs().values()) {
                if (p.forEach() != null) {
                    Value v = check(p.forEach(), Ctx.PLAIN);
                    forEachValue(v, p.forEach(), Ctx.PLAIN);
                }
                Ctx ctx = new Ctx(p.isInstanced() ? Mode.FOR_EACH : Mode.NONE, Set.of(), false, null);
                BodyWalk.expressions(p.config(), Set.of(), s -> check(s.expr(), ctx.bind(s.bound())));
            }
            for (ResourceConfig r : m.resources().values()) {
                resource(r);
            }
            m.removed().forEach(this::removedProvisioners);
            for (ModuleCallConfig c : m.moduleCalls().values()) {
                moduleCall(c);
            }
            List<ImportConfig> seenImports = new ArrayList<>();
            for (ImportConfig i : m.imports()) {
                Mode mode = Mode.NONE;
                Value forEach = null;
                if (i.forEach() != null) {
                    forEach = check(i.forEach(), Ctx.PLAIN);
                    mode = Mode.FOR_EACH;
                }
                Ctx ctx = new Ctx(mode, Set.of(), false, null);
                check(i.id(), ctx);
                diags.addAll(ImportChecks.check(node.path(), m, i, forEach, seenImports, functions));
                seenImports.add(i);
                providerKey(i.provider(), ctx);
            }
            for (CheckConfig c : m.checks().values()) {
                if (c.data() != null) {
                    resource(c.data());
                }
                scoped = c.data();
                c.asserts().forEach(a -> rule(a, Ctx.PLAIN));
                scoped = null;
            }
        }

        /**
         * A local value evaluated with the validate phase's scope (variables, resources and module
         * outputs unknown), so that constant locals are known and literal checks ({@code count},
         * {@code for_each}, instance keys, type errors) see through them. Its own problems belong to
         * the local's check and are not reported again here; a cycle or an error gives an unknown.
         */
        private Value localValue(String name) {
            Value cached = localValues.get(name);
            if (cached != null) {
                return cached;
            }
            LocalConfig lc = m.locals().get(name);
            if (lc == null || !evaluatingLocals.add(name)) {
                return Value.DYNAMIC_UNKNOWN;
            }
            Result<Value> v;
            try {
                v = new Evaluator(scope).evaluate(lc.expr());
            } finally {
                evaluatingLocals.remove(name);
            }
            if (selfContained(lc)) {
                localResults.put(name, v);
            }
            Value out = v.hasErrors() ? Value.DYNAMIC_UNKNOWN : v.value();
            localValues.put(name, out);
            return out;
        }

        /** A local's check: its references statically, then its value, evaluated once if it is self-contained. */
        private void checkLocal(LocalConfig l, Ctx ctx) {
            Result<Value> v = localResults.get(l.name());
            if (v == null) {
                check(l.expr(), ctx);
                return;
            }
            references(l.expr(), ctx);
            diags.addAll(v.diagnostics());
        }

        private static boolean selfContained(LocalConfig l) {
            return References.of(l).stream().noneMatch(r -> r.subject() instanceof LocalValue);
        }

        /** Locals that refer to each other in a circle: one diagnostic per cycle, naming every step. */
        private void localCycles() {
            Map<String, List<Reference>> edges = new HashMap<>();
            for (LocalConfig l : m.locals().values()) {
                edges.put(
                        l.name(),
                        References.of(l).stream()
                                .filter(r -> r.subject() instanceof LocalValue lv
                                        && m.locals().containsKey(lv.name()))
                                .toList());
            }
            Set<Set<String>> reported = new java.util.HashSet<>();
            Set<String> done = new java.util.HashSet<>();
            for (String start : m.locals().keySet()) {
                findCycle(start, new ArrayList<>(), new ArrayList<>(), edges, done, reported);
            }
        }

        private void findCycle(
                String name,
                List<String> path,
                List<Reference> via,
                Map<String, List<Reference>> edges,
                Set<String> done,
                Set<Set<String>> reported) {
            int at = path.indexOf(name);
            if (at >= 0) {
                List<String> members = path.subList(at, path.size());
                if (reported.add(new java.util.TreeSet<>(members))) {
                    StringBuilder sb = new StringBuilder("These local values refer to each other, so none can be "
                            + "evaluated: local." + members.getFirst());
                    for (int i = at; i < path.size(); i++) {
                        Reference r = via.get(i);
                        sb.append(i == at ? " " : ", which ")
                                .append("refers to ")
                                .append(r.subject())
                                .append(" at ")
                                .append(r.range());
                    }
                    sb.append(". Break the cycle by computing one of them without the others.");
                    diags.add(Diagnostic.error(
                            "Cycle in local values",
                            sb.toString(),
                            m.locals().get(members.getFirst()).declRange()));
                }
                return;
            }
            if (done.contains(name)) {
                return;
            }
            path.add(name);
            for (Reference r : edges.getOrDefault(name, List.of())) {
                via.add(r);
                findCycle(((LocalValue) r.subject()).name(), path, via, edges, done, reported);
                via.removeLast();
            }
            path.removeLast();
            done.add(name);
        }

        private void resource(ResourceConfig r) {
            Mode mode = r.count() != null ? Mode.COUNT : r.forEach() != null ? Mode.FOR_EACH : Mode.NONE;
            Ctx ctx = new Ctx(mode, Set.of(), false, r.addr());
            BodyWalk.expressions(r.config(), Set.of(), s -> check(s.expr(), ctx.bind(s.bound())));
            providerKey(r.provider(), ctx);
            providerConfig(r.provider());
            dependsOn(r.dependsOn(), ctx);
            Lifecycle lc = r.lifecycle();
            lc.preconditions().forEach(x -> rule(x, ctx));
            lc.postconditions().forEach(x -> rule(x, ctx.withSelf()));
            for (Expression e : lc.replaceTriggeredBy()) {
                check(e, ctx);
            }
            boolean destroyTime = false;
            for (Provisioner p : r.provisioners()) {
                boolean destroy = p.when() == Provisioner.When.DESTROY;
                destroyTime |= destroy;
                provisionerBody(p.config(), ctx.withSelf(), destroy);
                if (p.connection() != null) {
                    provisionerBody(p.connection().config(), ctx.withSelf(), destroy);
                }
            }
            if (r.connection() != null) {
                provisionerBody(r.connection().config(), ctx.withSelf(), destroyTime);
            }
        }

        /**
         * A provisioner's or connection's arguments. Destroy-time ones run when the rest of the
         * configuration may already be gone, so (as in Terraform) they may name only the object itself.
         */
        private void provisionerBody(dev.strata.hcl.Body body, Ctx ctx, boolean destroy) {
            BodyWalk.expressions(body, Set.of(), s -> {
                if (destroy) {
                    destroyReferences(s);
                }
                check(s.expr(), ctx.bind(s.bound()));
            });
        }

        /**
         * A {@code removed} block's destroy-time provisioners: what they may refer to is the related object
         * (whose instances may have had {@code count} or {@code for_each}).
         */
        private void removedProvisioners(RemovedConfig rc) {
            List<dev.strata.hcl.Body> bodies = new java.util.ArrayList<>();
            for (Provisioner p : rc.provisioners()) {
                bodies.add(p.config());
                if (p.connection() != null) {
                    bodies.add(p.connection().config());
                }
            }
            if (!rc.provisioners().isEmpty() && rc.connection() != null) {
                bodies.add(rc.connection().config());
            }
            for (dev.strata.hcl.Body body : bodies) {
                BodyWalk.expressions(body, Set.of(), this::destroyReferences);
            }
        }

        /** Destroy-time provisioners run when the rest of the configuration may be gone: only the object itself. */
        private void destroyReferences(BodyWalk.Site s) {
            for (Traversal t : s.expr().variables()) {
                if (s.bound().contains(t.rootName())) {
                    continue;
                }
                Reference ref = Reference.parse(t).value();
                boolean allowed = ref == null
                        || switch (ref.subject()) {
                            case Self x -> true;
                            case CountAttr x -> true;
                            case PathAttr x -> true;
                            case TerraformAttr x -> true;
                            case ForEachAttr x -> x.name().equals("key");
                            default -> false;
                        };
                if (!allowed) {
                    diags.add(Diagnostic.error(
                            "Invalid reference from destroy provisioner",
                            "Destroy-time provisioners and their connection configurations may only "
                                    + "reference attributes of the related resource, via 'self', "
                                    + "'count.index', or 'each.key'.\n\nReferences to other resources "
                                    + "during the destroy phase can cause dependency cycles and interact "
                                    + "poorly with create_before_destroy.",
                            t.range()));
                }
            }
        }

        private void moduleCall(ModuleCallConfig c) {
            Mode mode = c.count() != null ? Mode.COUNT : c.forEach() != null ? Mode.FOR_EACH : Mode.NONE;
            Ctx ctx = new Ctx(mode, Set.of(), false, c.addr());
            for (Attribute a : c.inputs().values()) {
                check(a.expr(), ctx);
            }
            for (PassedProvider p : c.providers()) {
                providerKey(p.inParent(), ctx);
                providerConfig(p.inParent());
            }
            dependsOn(c.dependsOn(), ctx);
            ConfigNode child = node.children().get(c.name());
            if (child == null) {
                return;
            }
            Map<String, VariableConfig> vars = child.module().variables();
            for (Attribute a : c.inputs().values()) {
                if (!vars.containsKey(a.name())) {
                    diags.add(Diagnostic.error(
                            "Unsupported argument",
                            "An argument named \"" + a.name() + "\" is not " + "expected here."
                                    + DidYouMean.sentence(a.name(), vars.keySet()),
                            a.nameRange()));
                }
            }
            for (VariableConfig v : vars.values()) {
                if (v.required() && !c.inputs().containsKey(v.name())) {
                    diags.add(SchemaMessages.missingArgument(v.name(), c.missingItemRange()));
                }
            }
            // The configurations a module declares it needs (configuration_aliases) cannot be inherited:
            // the call must pass each one, as Terraform requires.
            for (RequiredProvider rp : child.module().requiredProviders().values()) {
                for (dev.strata.addr.LocalProviderConfig alias : rp.configurationAliases()) {
                    if (c.providers().stream().noneMatch(pp -> pp.inChild().equals(alias))) {
                        diags.add(Diagnostic.error(
                                "Missing required provider configuration",
                                "The child module requires an additional configuration for provider "
                                        + child.module()
                                                .providerFor(alias.localName())
                                                .forDisplay()
                                        + ", with the local name \"" + alias + "\".\n\nRefer to the module's "
                                        + "documentation to understand the intended purpose of this additional "
                                        + "provider configuration, and then add an entry for " + alias + " in the "
                                        + "\"providers\" meta-argument in the module block to choose which provider "
                                        + "configuration the module should use for that purpose.",
                                c.declRange()));
                    }
                }
            }
        }

        /**
         * An aliased provider configuration must be declared here, or be one a caller passes in
         * ({@code configuration_aliases}); an instanced one ({@code for_each}) must be selected by key,
         * and only an instanced one can be.
         */
        private void providerConfig(ProviderRef p) {
            if (p == null || p.config().alias() == null) {
                return;
            }
            ProviderConfig pc = m.providerConfigs().get(p.config());
            RequiredProvider rp = m.requiredProviders().get(p.config().localName());
            boolean passedIn = rp != null && rp.configurationAliases().contains(p.config());
            if (pc == null && !passedIn) {
                diags.add(Diagnostic.error(
                        "Provider configuration not present",
                        "There is no provider configuration "
                                + p.config() + " in " + where() + ". Declare it with a provider \""
                                + p.config().localName()
                                + "\" block whose alias is \"" + p.config().alias() + "\", or, in a module, list it in "
                                + "configuration_aliases in required_providers so that callers pass it in."
                                + DidYouMean.sentence(
                                        p.config().alias(),
                                        m.providerConfigs().keySet().stream()
                                                .filter(k -> k.localName()
                                                                .equals(p.config()
                                                                        .localName())
                                                        && k.alias() != null)
                                                .map(dev.strata.addr.LocalProviderConfig::alias)
                                                .toList()),
                        p.range()));
                return;
            }
            if (pc != null && pc.isInstanced() && p.key() == null) {
                diags.add(Diagnostic.error(
                        "Missing provider instance key",
                        "The provider configuration " + p.config()
                                + " has for_each set, so a reference to it must select one instance, as in "
                                + p.config()
                                + "[each.key].",
                        p.range()));
            } else if (pc != null && !pc.isInstanced() && p.key() != null) {
                diags.add(Diagnostic.error(
                        "Unexpected provider instance key",
                        "The provider configuration "
                                + p.config() + " does not have for_each set, so a reference to it must not include an "
                                + "instance key.",
                        p.range()));
            }
        }

        private void providerKey(ProviderRef p, Ctx ctx) {
            if (p != null && p.key() != null) {
                check(p.key(), ctx);
            }
        }

        private void rule(CheckRule r, Ctx ctx) {
            if (r.condition() != null) {
                check(r.condition(), ctx);
            }
            if (r.errorMessage() != null) {
                check(r.errorMessage(), ctx);
            }
        }

        private void dependsOn(List<Traversal> deps, Ctx ctx) {
            for (Traversal t : deps) {
                Result<Reference> r = Reference.parse(t);
                diags.addAll(r.diagnostics());
                if (r.value() != null) {
                    reference(r.value(), t, ctx);
                }
            }
        }

        private void repetition(Referenceable owner, Expression count, Expression forEach, Ctx ctx) {
            if (count != null) {
                Value v = check(count, ctx);
                Integer n = countValue(v, count, ctx);
                if (n != null) {
                    known.put(owner, new Known(n, null));
                }
            } else if (forEach != null) {
                Value v = check(forEach, ctx);
                Set<String> keys = forEachValue(v, forEach, ctx);
                if (keys != null) {
                    known.put(owner, new Known(null, keys));
                }
            }
        }

        private Integer countValue(Value v, Expression e, Ctx ctx) {
            return switch (Repetition.checkCount(v, e.range())) {
                case Repetition.Count c -> c.count();
                case Repetition.Invalid i -> {
                    diags.add(i.diagnostic(e, checkScope(ctx)));
                    yield null;
                }
                case Repetition.Unknown u -> null;
                case Repetition.ForEach f -> throw new IllegalStateException("count decided as for_each");
            };
        }

        private Set<String> forEachValue(Value v, Expression e, Ctx ctx) {
            return switch (Repetition.checkForEach(v, e.range())) {
                case Repetition.ForEach f -> new TreeSet<>(f.each().keySet());
                case Repetition.Invalid i -> {
                    diags.add(i.diagnostic(e, checkScope(ctx)));
                    yield null;
                }
                case Repetition.Unknown u -> null;
                case Repetition.Count c -> throw new IllegalStateException("for_each decided as count");
            };
        }

        /** Checks references statically, then evaluates with every reference unknown; returns the value. */
        private Value check(Expression e, Ctx ctx) {
            references(e, ctx);
            Result<Value> v = new Evaluator(checkScope(ctx)).evaluate(e);
            diags.addAll(v.diagnostics());
            return v.value();
        }

        /** The scope {@link #check} evaluates in: the names {@code ctx} binds are unknown. */
        private Scope checkScope(Ctx ctx) {
            Map<String, Value> bound = new HashMap<>();
            ctx.bound().forEach(name -> bound.put(name, Value.DYNAMIC_UNKNOWN));
            return Scope.binding(scope, bound);
        }

        /** The static half of {@link #check}: each reference against the declarations. */
        private void references(Expression e, Ctx ctx) {
            Set<SourceRange> guarded = guardedTraversals(e);
            for (Traversal t : e.variables()) {
                if (ctx.bound().contains(t.rootName())) {
                    continue;
                }
                Result<Reference> r = Reference.parse(t);
                diags.addAll(r.diagnostics());
                if (r.value() != null) {
                    keyMayBeAbsent = guarded.contains(t.range());
                    reference(r.value(), t, ctx);
                    keyMayBeAbsent = false;
                }
            }
        }

        private void reference(Reference ref, Traversal t, Ctx ctx) {
            SourceRange range = ref.range();
            switch (ref.subject()) {
                case InputVariable v -> {
                    if (!m.variables().containsKey(v.name())) {
                        String s = DidYouMean.suggest(v.name(), m.variables().keySet())
                                .orElse(null);
                        diags.add(Diagnostic.error(
                                "Reference to undeclared input variable",
                                s != null
                                        ? "An input variable with the name \"" + v.name()
                                                + "\" has not been declared. Did you " + "mean \"" + s + "\"?"
                                        : "An input variable with the name \"" + v.name()
                                                + "\" has not been declared. This "
                                                + "variable can be declared with a variable \"" + v.name()
                                                + "\" {} block.",
                                range));
                    }
                }
                case LocalValue l -> {
                    if (!m.locals().containsKey(l.name())) {
                        diags.add(Diagnostic.error(
                                "Reference to undeclared local value",
                                "A local value with the name \""
                                        + l.name() + "\" has not been declared."
                                        + DidYouMean.sentence(
                                                l.name(), m.locals().keySet()),
                                range));
                    }
                }
                case Resource r -> resourceRef(r, null, ref, t, ctx);
                case ResourceInstance ri -> resourceRef(ri.resource(), ri.key(), ref, t, ctx);
                case ModuleCall c -> moduleRef(c, null, null, ref, t);
                case ModuleCallInstance ci -> moduleRef(ci.call(), ci.key(), null, ref, t);
                case ModuleCallInstanceOutput o ->
                    moduleRef(
                            o.call().call(),
                            o.call().key() instanceof InstanceKey.NoKey
                                    ? null
                                    : o.call().key(),
                            o.name(),
                            ref,
                            t);
                case CountAttr c -> {
                    if (ctx.mode() != Mode.COUNT) {
                        diags.add(Diagnostic.error(
                                "Reference to \"count\" in non-counted context",
                                "The \"count\" "
                                        + "object can only be used in \"module\", \"resource\", and \"data\" blocks, and only "
                                        + "when the \"count\" argument is set.",
                                range));
                    }
                }
                case ForEachAttr f -> {
                    if (ctx.mode() != Mode.FOR_EACH) {
                        diags.add(Diagnostic.error(
                                "Reference to \"each\" in context without for_each",
                                "The \"each\" "
                                        + "object can be used only in \"module\" or \"resource\" blocks, and only when the "
                                        + "\"for_each\" argument is set.",
                                range));
                    }
                }
                case Self s -> {
                    if (!ctx.selfAllowed()) {
                        diags.add(Diagnostic.error(
                                "Invalid \"self\" reference",
                                "The \"self\" object is not available "
                                        + "in this context. This object can be used only in resource provisioner, connection, "
                                        + "and postcondition blocks.",
                                range));
                    }
                }
                case PathAttr p -> {}
                case TerraformAttr p -> {}
            }
        }

        private void resourceRef(Resource r, InstanceKey key, Reference ref, Traversal t, Ctx ctx) {
            ResourceConfig rc = m.resources().get(r);
            if (rc == null && scoped != null && scoped.addr().equals(r)) {
                rc = scoped;
            }
            if (rc == null
                    && m.checks().values().stream()
                            .anyMatch(c -> c.data() != null && c.data().addr().equals(r))) {
                diags.add(Diagnostic.error(
                        "Reference to scoped resource",
                        "The referenced data resource \""
                                + r.type() + "\" \"" + r.name()
                                + "\" is not available from this context: it is declared "
                                + "inside a check block, and only that block's assertions can refer to it.",
                        ref.range()));
                return;
            }
            if (rc == null) {
                String kind = r.mode() == ResourceMode.MANAGED ? "managed" : "data";
                List<String> sameType = m.resources().keySet().stream()
                        .filter(x -> x.mode() == r.mode() && x.type().equals(r.type()))
                        .map(Resource::name)
                        .toList();
                diags.add(Diagnostic.error(
                        "Reference to undeclared resource",
                        "A " + kind + " resource \"" + r.type()
                                + "\" \"" + r.name() + "\" has not been declared in " + where() + "."
                                + DidYouMean.sentence(r.name(), sameType),
                        ref.range()));
                return;
            }
            if (r.equals(ctx.owner())) {
                diags.add(Diagnostic.error(
                        "Self-referential block",
                        "Configuration for " + r + " may not refer to " + "itself.",
                        ref.range()));
                return;
            }
            String which = rc.count() != null ? "count" : "for_each";
            if (key == null) {
                if (rc.isInstanced()
                        && !ref.remaining().isEmpty()
                        && ref.remaining().getFirst() instanceof Traverser.Attr) {
                    diags.add(Diagnostic.error(
                            "Missing resource instance key",
                            "Because " + r + " has \"" + which
                                    + "\" set, its attributes must be accessed on specific instances.\n\nFor example, to "
                                    + "correlate with indices of a referring resource, use:\n    " + r
                                    + (rc.count() != null ? "[count.index]" : "[each.key]"),
                            ref.range()));
                }
                return;
            }
            if (!rc.isInstanced()) {
                diags.add(Diagnostic.error(
                        "Unexpected resource instance key",
                        "Because " + r + " does not have "
                                + "\"count\" or \"for_each\" set, references to it must not include an index key. Remove the "
                                + "bracketed index to refer to the single instance of this resource.",
                        ref.range()));
                return;
            }
            instanceKey(r.toString(), "resource", rc.count() != null, key, known.get(r), ref.range());
        }

        private void moduleRef(ModuleCall c, InstanceKey key, String output, Reference ref, Traversal t) {
            ModuleCallConfig mc = m.moduleCalls().get(c.name());
            if (mc == null) {
                diags.add(Diagnostic.error(
                        "Reference to undeclared module",
                        "No module call named \"" + c.name()
                                + "\" is declared in " + where() + "."
                                + DidYouMean.sentence(c.name(), m.moduleCalls().keySet()),
                        ref.range()));
                return;
            }
            if (key != null && !mc.isInstanced()) {
                diags.add(Diagnostic.error(
                        "Unexpected module instance key",
                        "Because " + c + " does not have "
                                + "\"count\" or \"for_each\" set, references to it must not include an index key. Remove the "
                                + "bracketed index to refer to the single instance of this module.",
                        ref.range()));
                return;
            }
            if (key == null && output != null && mc.isInstanced()) {
                String which = mc.count() != null ? "count" : "for_each";
                diags.add(Diagnostic.error(
                        "Missing module instance key",
                        "Because " + c + " has \"" + which
                                + "\" set, its outputs must be accessed on specific instances.\n\nFor example, to correlate "
                                + "with indices of a referring resource, use:\n    " + c
                                + (mc.count() != null ? "[count.index]" : "[each.key]"),
                        ref.range()));
                return;
            }
            if (key != null) {
                instanceKey(c.toString(), "module", mc.count() != null, key, known.get(c), ref.range());
            }
            ConfigNode child = node.children().get(c.name());
            if (output != null && child != null && !child.module().outputs().containsKey(output)) {
                // As Terraform, the attribute step itself: module.m[.nope].
                SourceRange at = t.steps().get(key == null ? 2 : 3).range();
                diags.add(Diagnostic.error(
                        "Unsupported attribute",
                        "This object does not have an attribute named \"" + output + "\"."
                                + DidYouMean.sentence(
                                        output, child.module().outputs().keySet()),
                        at));
            }
        }

        /**
         * Whether the reference being checked sits where a failure is expected and handled: an argument
         * of try() or can(), or a result of a conditional (`length(x) > 0 ? x[0].id : null`). There an
         * instance key outside the static count or for_each keys is not an error, as in Terraform.
         */
        private boolean keyMayBeAbsent;

        private static Set<SourceRange> guardedTraversals(Expression e) {
            Result<Expr> tree = e.syntax();
            if (tree.value() == null) {
                return Set.of();
            }
            Set<SourceRange> out = new java.util.HashSet<>();
            ExprWalk.forEach(tree.value(), x -> {
                List<Expr> guardedKids = switch (x) {
                    case Expr.FunctionCall f
                    when f.name().equals("try") || f.name().equals("can") -> f.args();
                    case Expr.Conditional c -> List.of(c.trueResult(), c.falseResult());
                    default -> List.of();
                };
                for (Expr kid : guardedKids) {
                    ExprWalk.forEach(kid, y -> {
                        if (y instanceof Expr.ScopeTraversal st) {
                            out.add(st.traversal().range());
                        }
                    });
                }
            });
            return out;
        }

        private void instanceKey(
                String what, String kind, boolean counted, InstanceKey key, Known known, SourceRange range) {
            Known k = keyMayBeAbsent ? null : known;
            String summary = "Invalid " + kind + " instance key";
            switch (key) {
                case InstanceKey.IntKey i
                when !counted ->
                    diags.add(Diagnostic.error(
                            summary,
                            "Because " + what
                                    + " has \"for_each\" set, its instances are identified by string keys, not "
                                    + "by the number " + i.index() + ".",
                            range));
                case InstanceKey.StringKey s
                when counted ->
                    diags.add(Diagnostic.error(
                            summary,
                            "Because " + what
                                    + " has \"count\" set, its instances are identified by whole numbers, not by the string \""
                                    + s.key() + "\".",
                            range));
                case InstanceKey.IntKey i
                when k != null && k.count() != null && i.index() >= k.count() ->
                    diags.add(Diagnostic.error(
                            summary,
                            "The index " + i.index()
                                    + " is out of range: " + what + " has count = " + k.count() + ", so its instances "
                                    + (k.count() == 0
                                            ? "are none."
                                            : "are numbered from 0 to " + (k.count() - 1) + "."),
                            range));
                case InstanceKey.StringKey s
                when k != null && k.keys() != null && !k.keys().contains(s.key()) ->
                    diags.add(Diagnostic.error(
                            summary,
                            "There is no instance of " + what
                                    + " with the key \"" + s.key() + "\"; its for_each has the keys "
                                    + k.keys().stream()
                                            .map(x -> "\"" + x + "\"")
                                            .toList() + "."
                                    + DidYouMean.sentence(s.key(), k.keys()),
                            range));
                default -> {}
            }
        }

        /** References as the validate phase sees them: unknown values of the right type where it is known. */
        private final class StaticData extends PartialData {
            @Override
            public FunctionTable functions() {
                return functions;
            }

            @Override
            public Result<Value> inputVariable(InputVariable variable, Reference ref) {
                VariableConfig vc = m.variables().get(variable.name());
                if (vc == null) {
                    return Result.of(Value.DYNAMIC_UNKNOWN);
                }
                Value u = Value.unknown(vc.type().type());
                return Result.of(vc.sensitive() ? u.mark(Mark.SENSITIVE) : u);
            }

            @Override
            public Result<Value> localValue(LocalValue local, Reference ref) {
                return Result.of(ModuleCheck.this.localValue(local.name()));
            }

            @Override
            public Result<Value> countIndex(Reference ref) {
                return Result.of(Value.unknown(Type.NUMBER));
            }

            @Override
            public Result<Value> forEachAttr(ForEachAttr attr, Reference ref) {
                return Result.of(attr.name().equals("key") ? Value.unknown(Type.STRING) : Value.DYNAMIC_UNKNOWN);
            }

            @Override
            public Result<Value> pathAttr(PathAttr attr, Reference ref) {
                return Result.of(Value.unknown(Type.STRING));
            }

            @Override
            public Result<Value> terraformAttr(TerraformAttr attr, Reference ref) {
                return Result.of(Value.unknown(attr.name().equals("applying") ? Type.BOOL : Type.STRING));
            }
        }
    }
}
