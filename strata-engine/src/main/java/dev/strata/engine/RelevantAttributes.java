package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InputVariable;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.LocalValue;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleCallInstance;
import dev.strata.addr.ModuleCallInstanceOutput;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.addr.ResourceMode;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.LocalConfig;
import dev.strata.config.ModuleCallConfig;
import dev.strata.config.OutputConfig;
import dev.strata.config.References;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The resource attributes that contribute to a plan's changes, Terraform's {@code relevant_attributes}
 * (1.2+): the references in the arguments of every resource whose planned action is not a no-op, in
 * the value of every changing root output and in every output of every child module instance, followed
 * through local values, input variables (to the calling module's arguments), module outputs and the
 * referenced resources' arguments. As in Terraform, a reference to one attribute of a resource
 * ({@code aws_x.a.id}) makes only that attribute relevant and is followed only into the argument of that
 * name (nowhere when the provider computes it), while a reference to the whole object makes all of it
 * relevant and is followed into all of its arguments; {@code count}, {@code for_each} and {@code depends_on}
 * contribute nothing. Data resources are listed like managed ones; ephemeral ones never. A normal plan
 * shows only the drift in these attributes (a refresh-only plan shows all of it), and the plan JSON lists
 * them.
 *
 * <p>Part of the plan ({@link Plan#relevantAttributes()}, ADR 0026), worked out once and only when asked:
 * a plan without drift that nobody renders as JSON never walks its changes for it. A reference to a
 * resource without an instance key stands for all of its instances.
 */
public final class RelevantAttributes {
    /** One contributing attribute: a resource (instance) address and the path into its object. */
    public record Attr(String resource, List<Object> path) {
        public Attr {
            Objects.requireNonNull(resource, "resource");
            path = List.copyOf(path);
        }
    }

    /**
     * Not worked out (a plan decoded from a file that does not record them): every drifted attribute
     * counts as relevant, and the plan JSON lists none.
     */
    public static final RelevantAttributes UNKNOWN = new RelevantAttributes(null, List.of());

    private final java.util.function.Supplier<List<Attr>> source;
    private volatile List<Attr> attrs;

    private RelevantAttributes(java.util.function.Supplier<List<Attr>> source, List<Attr> attrs) {
        this.source = source;
        this.attrs = source == null ? List.copyOf(attrs) : null;
    }

    /** Attributes already worked out (decoded from a plan file), in any order: kept sorted. */
    public static RelevantAttributes of(List<Attr> attrs) {
        return new RelevantAttributes(() -> sorted(attrs), null);
    }

    /** The contributing attributes of {@code changes} in the configuration {@code tree}, worked out on first use. */
    public static RelevantAttributes of(ConfigTree tree, List<ResourceChange> changes) {
        return of(tree, changes, Map.of());
    }

    /** As {@link #of(ConfigTree, List)}, with the root output changes, which contribute too. */
    public static RelevantAttributes of(
            ConfigTree tree, List<ResourceChange> changes, Map<String, OutputChange> outputs) {
        return of(tree, changes, outputs, Set.of());
    }

    /**
     * As {@link #of(ConfigTree, List, Map)}, with the module instances the plan expanded: the outputs of
     * each child module instance contribute whether or not anything changed, as in Terraform, which keeps
     * no prior value for them and so plans each as created.
     */
    public static RelevantAttributes of(
            ConfigTree tree,
            List<ResourceChange> changes,
            Map<String, OutputChange> outputs,
            Set<ModuleInstance> expanded) {
        Objects.requireNonNull(tree, "tree");
        List<ResourceChange> cs = List.copyOf(changes);
        List<String> changedOutputs = outputs.values().stream()
                .filter(o -> o.action() != Action.NO_OP)
                .map(OutputChange::name)
                .sorted()
                .toList();
        Set<ModuleInstance> modules = new TreeSet<>(expanded);
        return new RelevantAttributes(() -> compute(tree, cs, changedOutputs, modules), null);
    }

    /** Whether these were worked out: false for {@link #UNKNOWN}, where every drifted attribute counts. */
    public boolean isKnown() {
        return source != null;
    }

    /** Sorted by resource address, then by path; empty when not {@link #isKnown() known}. */
    public List<Attr> all() {
        List<Attr> a = attrs;
        if (a == null) {
            synchronized (this) {
                a = attrs;
                if (a == null) {
                    a = List.copyOf(source.get());
                    attrs = a;
                }
            }
        }
        return a;
    }

    /** Whether any attribute of {@code addr} contributes: an object deleted outside is shown only then. */
    public boolean covers(AbsResourceInstance addr) {
        if (!isKnown()) {
            return true;
        }
        String instance = addr.toString();
        String resource = addr.module().resource(addr.resource().resource()).toString();
        return all().stream()
                .anyMatch(a -> a.resource().equals(instance) || a.resource().equals(resource));
    }

    /**
     * {@code before} with every attribute outside the relevant paths of {@code addr} taken from {@code
     * after}: what of a drifted object's change matters to the plan. Equal to {@code after} when nothing
     * relevant changed; {@code before} itself when these are not {@link #isKnown() known}.
     */
    public Value relevantBefore(AbsResourceInstance addr, Value before, Value after) {
        if (!isKnown()) {
            return before;
        }
        Node root = new Node();
        String instance = addr.toString();
        String resource = addr.module().resource(addr.resource().resource()).toString();
        for (Attr a : all()) {
            if (a.resource().equals(instance) || a.resource().equals(resource)) {
                root.add(a.path());
            }
        }
        return mask(before, after, root);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RelevantAttributes r
                && r.isKnown() == isKnown()
                && r.all().equals(all());
    }

    @Override
    public int hashCode() {
        return Objects.hash(isKnown(), all());
    }

    @Override
    public String toString() {
        return isKnown() ? all().toString() : "(not worked out)";
    }

    private static List<Attr> sorted(List<Attr> in) {
        return in.stream()
                .distinct()
                .sorted(Comparator.comparing(Attr::resource)
                        .thenComparing(a -> a.path().toString()))
                .toList();
    }

    private static List<Attr> compute(
            ConfigTree tree, List<ResourceChange> changes, List<String> outputs, Set<ModuleInstance> expanded) {
        Walker w = new Walker(tree);
        // Every instance of a resource has the same arguments: their references are followed once.
        Map<ModuleInstance, Set<Resource>> started = new HashMap<>();
        for (ResourceChange c : changes) {
            if (c.action() == Action.NO_OP) {
                continue;
            }
            ModuleInstance m = c.addr().module();
            Resource res = c.addr().resource().resource();
            if (!started.computeIfAbsent(m, k -> new HashSet<>()).add(res)) {
                continue;
            }
            ResourceConfig rc = w.resource(m, res);
            if (rc != null) {
                References.ofArguments(rc).forEach(r -> w.queue(m, r));
            }
        }
        // As Terraform: a changing root output's value contributes as a changing resource's arguments do,
        // and so does every output of every child module instance the plan expanded (Terraform keeps no
        // prior value for those, so each is planned as created).
        outputs.forEach(name -> w.output(ModuleInstance.ROOT, name));
        for (ModuleInstance mi : expanded) {
            if (!mi.isRoot()) {
                tree.node(mi.module())
                        .ifPresent(n ->
                                n.module().outputs().keySet().stream().sorted().forEach(name -> w.output(mi, name)));
            }
        }
        w.run();
        return sorted(new ArrayList<>(w.found));
    }

    private static Value mask(Value before, Value after, Node node) {
        if (node.terminal) {
            return before;
        }
        if (node.children.isEmpty()) {
            return after;
        }
        if (!before.isKnownAndNotNull()
                || !after.isKnownAndNotNull()
                || !(before.type() instanceof ObjectType)
                || !(after.type() instanceof ObjectType)
                || !before.attributes().keySet().equals(after.attributes().keySet())) {
            // A relevant part of a value whose shape changed: the whole change is relevant.
            return before;
        }
        Map<String, Value> out = new LinkedHashMap<>();
        for (Map.Entry<String, Value> e : after.attributes().entrySet()) {
            Node child = node.children.get(e.getKey());
            out.put(
                    e.getKey(),
                    child == null ? e.getValue() : mask(before.attributes().get(e.getKey()), e.getValue(), child));
        }
        return Value.object(out);
    }

    /** A trie of relevant paths; a terminal node covers everything below it. */
    private static final class Node {
        boolean terminal;
        final Map<Object, Node> children = new LinkedHashMap<>();

        void add(List<Object> path) {
            Node n = this;
            for (Object step : path) {
                if (n.terminal) {
                    return;
                }
                n = n.children.computeIfAbsent(step, k -> new Node());
            }
            n.terminal = true;
        }
    }

    /** Follows references to the resource attributes they come from. */
    private static final class Walker {
        private final ConfigTree tree;
        private final Deque<Map.Entry<ModuleInstance, Reference>> queue = new ArrayDeque<>();
        private final Set<String> visited = new HashSet<>();
        final Set<Attr> found = new HashSet<>();

        Walker(ConfigTree tree) {
            this.tree = tree;
        }

        void queue(ModuleInstance m, Reference r) {
            queue.add(Map.entry(m, r));
        }

        void run() {
            while (!queue.isEmpty()) {
                Map.Entry<ModuleInstance, Reference> e = queue.poll();
                visit(e.getKey(), e.getValue());
            }
        }

        /** Follows {@code key}'s references once: configurations refer to each other in cycles only when invalid. */
        private boolean first(ModuleInstance m, Object key) {
            return visited.add(m + "|" + key);
        }

        private void visit(ModuleInstance m, Reference r) {
            switch (r.subject()) {
                case Resource res -> resourceRef(m, res, InstanceKey.NONE, r.remaining(), true);
                case ResourceInstance ri -> resourceRef(m, ri.resource(), ri.key(), r.remaining(), false);
                case LocalValue lv -> {
                    Optional<ConfigNode> node = tree.node(m.module());
                    LocalConfig lc =
                            node.map(n -> n.module().locals().get(lv.name())).orElse(null);
                    if (lc != null && first(m, lv)) {
                        References.of(lc).forEach(x -> queue(m, x));
                    }
                }
                case InputVariable v -> {
                    if (m.isRoot() || !first(m, v)) {
                        return;
                    }
                    ModuleInstance parent = m.parent();
                    String call = m.steps().getLast().name();
                    ModuleCallConfig mc = tree.node(parent.module())
                            .map(n -> n.module().moduleCalls().get(call))
                            .orElse(null);
                    Attribute arg = mc == null ? null : mc.inputs().get(v.name());
                    if (arg != null) {
                        References.of(arg.expr()).forEach(x -> queue(parent, x));
                    }
                }
                case ModuleCallInstanceOutput o ->
                    output(m.child(o.call().call().name(), o.call().key()), o.name());
                case ModuleCallInstance mi -> outputs(m.child(mi.call().name(), mi.key()), r.remaining());
                // As Terraform: the whole call (module.x, module.x[*]) stands for the call's instance without a
                // key, listed under module.x even when the call has count or for_each; its keyed instances
                // contribute through their outputs (except in a destroy plan, where Terraform lists no more).
                case ModuleCall call -> outputs(m.child(call.name(), InstanceKey.NONE), r.remaining());
                default -> {
                    // count, each, path, terraform and self name no other resource.
                }
            }
        }

        /** {@code module.x.NAME...}: one output, or all of them when no name follows. */
        private void outputs(ModuleInstance child, List<Traverser> remaining) {
            int i = 0;
            while (i < remaining.size() && !(remaining.get(i) instanceof Traverser.Attr)) {
                i++;
            }
            if (i < remaining.size() && remaining.get(i) instanceof Traverser.Attr a) {
                output(child, a.name());
                return;
            }
            tree.node(child.module())
                    .ifPresent(n -> n.module().outputs().keySet().forEach(name -> output(child, name)));
        }

        private void output(ModuleInstance child, String name) {
            OutputConfig oc = tree.node(child.module())
                    .map(n -> n.module().outputs().get(name))
                    .orElse(null);
            if (oc != null && first(child, "output." + name)) {
                References.of(oc.value()).forEach(x -> queue(child, x));
            }
        }

        private void resourceRef(
                ModuleInstance m, Resource res, InstanceKey key, List<Traverser> remaining, boolean unkeyed) {
            if (res.mode() == ResourceMode.EPHEMERAL) {
                return;
            }
            ResourceConfig rc = resource(m, res);
            List<Traverser> steps = remaining;
            if (unkeyed
                    && rc != null
                    && rc.isInstanced()
                    && !steps.isEmpty()
                    && !(steps.getFirst() instanceof Traverser.Attr)) {
                // aws_x.a[*].id or aws_x.a["k"] written as an index on the whole resource: every instance.
                steps = steps.subList(1, steps.size());
            }
            List<Object> path = path(steps);
            // As Terraform: a data resource's attributes are listed too (they are in state), though only a
            // managed resource's drift is ever shown.
            String addr = key == InstanceKey.NONE
                    ? m.resource(res).toString()
                    : m.resourceInstance(res.instance(key)).toString();
            found.add(new Attr(addr, path));
            if (rc == null) {
                return;
            }
            // As Terraform: the object's attribute named first is followed into the argument of that name
            // only; the whole object into all of its arguments.
            if (path.isEmpty() || !(path.getFirst() instanceof String name)) {
                if (first(m, res)) {
                    References.ofArguments(rc).forEach(x -> queue(m, x));
                }
            } else if (steps.size() > 1
                    && steps.get(1) instanceof Traverser.Index
                    && References.writesBlocks(rc, name)) {
                // As Terraform (1.11, aws_instance's root_block_device[0].volume_size): one element of a
                // nested block type is followed nowhere, while the whole type is followed into its blocks and
                // an index into an argument (input[0]) into that argument.
            } else if (!visited.contains(m + "|" + res) && first(m, res + "#" + name)) {
                References.ofArgument(rc, name).forEach(x -> queue(m, x));
            }
        }

        ResourceConfig resource(ModuleInstance m, Resource res) {
            return tree.node(m.module())
                    .map(n -> n.module().resources().get(res))
                    .orElse(null);
        }

        /** The static prefix of the steps: attribute names, string keys and whole-number indexes. */
        private static List<Object> path(List<Traverser> steps) {
            List<Object> out = new ArrayList<>();
            for (Traverser t : steps) {
                switch (t) {
                    case Traverser.Attr a -> out.add(a.name());
                    case Traverser.Index ix when ix.key() instanceof Literal.StringLit s -> out.add(s.value());
                    case Traverser.Index ix
                    when ix.key() instanceof Literal.NumberLit n -> {
                        BigDecimal v = n.value();
                        out.add(v.stripTrailingZeros().scale() <= 0 ? (Object) v.longValueExact() : v.toPlainString());
                    }
                    default -> {
                        return out;
                    }
                }
            }
            return out;
        }
    }
}
