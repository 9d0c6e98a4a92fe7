package dev.strata.cli.view;

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
import dev.strata.engine.Action;
import dev.strata.engine.Plan;
import dev.strata.engine.ResourceChange;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The resource attributes that contribute to a plan's changes, as Terraform (1.2+) works them out for its
 * {@code relevant_attributes}: the references of every resource whose planned action is not a no-op,
 * followed through local values, input variables (to the calling module's arguments), module outputs and
 * the configuration of the resources they name. A normal plan shows only the drift in these attributes
 * (a refresh-only plan shows all of it): a change made outside that nothing in the plan depends on, like
 * the {@code tags = {}} the AWS provider reads back for a parameter created without tags, is not news.
 *
 * <p>A reference to a resource without an instance key stands for all of its instances. The result is
 * a superset of Terraform's where Terraform narrows a reference to one argument of a referenced resource:
 * here all of that resource's references are followed, so at worst more drift is shown, never less.
 */
final class RelevantAttributes {
    /** One contributing attribute: a resource (instance) address and the path into its object. */
    record Attr(String resource, List<Object> path) {}

    static final RelevantAttributes NONE = new RelevantAttributes(List.of());

    private final List<Attr> attrs;

    private RelevantAttributes(List<Attr> attrs) {
        this.attrs = List.copyOf(attrs);
    }

    /** Sorted by resource address, then by path. */
    List<Attr> all() {
        return attrs;
    }

    /** The contributing attributes of {@code plan}'s changes in the configuration {@code tree}. */
    static RelevantAttributes of(ConfigTree tree, Plan plan) {
        if (tree == null) {
            return NONE;
        }
        Set<ModuleInstance> moduleInstances = new TreeSet<>();
        plan.changes().forEach(c -> addModules(moduleInstances, c.addr().module()));
        plan.priorState()
                .resources()
                .forEach(r -> addModules(moduleInstances, r.addr().module()));
        Walker w = new Walker(tree, moduleInstances);
        for (ResourceChange c : plan.changes()) {
            if (c.action() == Action.NO_OP) {
                continue;
            }
            ResourceConfig rc =
                    w.resource(c.addr().module(), c.addr().resource().resource());
            if (rc != null) {
                References.of(rc).forEach(r -> w.queue(c.addr().module(), r));
            }
        }
        w.run();
        List<Attr> out = new ArrayList<>(w.found);
        out.sort(
                Comparator.comparing(Attr::resource).thenComparing(a -> a.path().toString()));
        return new RelevantAttributes(out.stream().distinct().toList());
    }

    private static void addModules(Set<ModuleInstance> into, ModuleInstance m) {
        for (ModuleInstance x = m; ; x = x.parent()) {
            into.add(x);
            if (x.isRoot()) {
                return;
            }
        }
    }

    /** Whether any attribute of {@code addr} contributes: an object deleted outside is shown only then. */
    boolean covers(AbsResourceInstance addr) {
        String instance = addr.toString();
        String resource = addr.module().resource(addr.resource().resource()).toString();
        return attrs.stream()
                .anyMatch(a -> a.resource().equals(instance) || a.resource().equals(resource));
    }

    /**
     * {@code before} with every attribute outside the relevant paths of {@code addr} taken from {@code
     * after}: what of a drifted object's change matters to the plan. Equal to {@code after} when nothing
     * relevant changed.
     */
    Value relevantBefore(AbsResourceInstance addr, Value before, Value after) {
        Node root = new Node();
        String instance = addr.toString();
        String resource = addr.module().resource(addr.resource().resource()).toString();
        for (Attr a : attrs) {
            if (a.resource().equals(instance) || a.resource().equals(resource)) {
                root.add(a.path());
            }
        }
        return mask(before, after, root);
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
        private final Set<ModuleInstance> moduleInstances;
        private final Deque<Map.Entry<ModuleInstance, Reference>> queue = new ArrayDeque<>();
        private final Set<String> visited = new HashSet<>();
        final Set<Attr> found = new HashSet<>();

        Walker(ConfigTree tree, Set<ModuleInstance> moduleInstances) {
            this.tree = tree;
            this.moduleInstances = moduleInstances;
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
                case ModuleCall call -> {
                    for (ModuleInstance child : moduleInstances) {
                        if (!child.isRoot()
                                && child.parent().equals(m)
                                && child.steps().getLast().name().equals(call.name())) {
                            outputs(child, r.remaining());
                        }
                    }
                }
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
                References.of(oc).forEach(x -> queue(child, x));
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
            if (res.mode() == ResourceMode.MANAGED) {
                String addr = key == InstanceKey.NONE
                        ? m.resource(res).toString()
                        : m.resourceInstance(res.instance(key)).toString();
                found.add(new Attr(addr, path(steps)));
            }
            if (rc != null && first(m, res)) {
                References.of(rc).forEach(x -> queue(m, x));
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
