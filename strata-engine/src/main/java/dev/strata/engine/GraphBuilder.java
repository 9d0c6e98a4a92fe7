package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.InputVariable;
import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.LocalValue;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleCall;
import dev.strata.addr.ModuleCallInstance;
import dev.strata.addr.ModuleCallInstanceOutput;
import dev.strata.addr.Reference;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceInstance;
import dev.strata.config.CheckRule;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleConfig;
import dev.strata.config.PassedProvider;
import dev.strata.config.ProviderConfig;
import dev.strata.config.References;
import dev.strata.config.ResourceConfig;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds the dependency graph of a configuration from its references (P3's {@link References},
 * never from strings), at Terraform's granularity: one vertex per variable, local, output, resource,
 * provider configuration and check of each module, and per module call one vertex for its
 * expansion and one that closes it. A child module's input variable depends on its own argument's
 * references (evaluated in the parent), the call's expansion vertex only on {@code count},
 * {@code for_each}, provider keys and {@code depends_on}, and a reference to one output only on that
 * output, so module A may feed one output into B while B feeds another back into A. Every object of
 * a child module depends on its call's expansion; the close vertex depends on every object of the
 * module, and is what a reference to the whole module ({@code module.a}, {@code depends_on}) waits for.
 * A child module's variable with {@code validation} rules has one more vertex for them, after the
 * variable and what the rules refer to, which nothing but the close vertex waits for (as in Terraform).
 * Every resource depends on its provider configuration.
 */
final class GraphBuilder {
    private GraphBuilder() {}

    static DependencyGraph<Node> build(ConfigTree tree) {
        DependencyGraph.Builder<Node> g = DependencyGraph.builder();
        for (ConfigNode n : tree.nodes()) {
            Module m = n.path();
            ModuleConfig mc = n.module();
            Node call = m.isRoot()
                    ? null
                    : new Node.ModuleCallNode(m.parent(), m.names().getLast());
            Node close = m.isRoot()
                    ? null
                    : new Node.ModuleCloseNode(m.parent(), m.names().getLast());
            List<Node> own = new ArrayList<>();
            Optional<ConfigNode> parent = m.isRoot() ? Optional.empty() : tree.node(m.parent());
            mc.variables().keySet().forEach(v -> {
                Node node = new Node.VariableNode(m, v);
                own.add(node);
                if (parent.isPresent() && n.call() != null) {
                    var arg = n.call().inputs().get(v);
                    if (arg != null) {
                        refs(g, node, parent.get(), References.of(arg.expr()));
                    }
                }
                // As Terraform, the walk checks every rule, a root variable's too: a rejected value stops only what
                // uses it.
                List<CheckRule> rules = mc.variables().get(v).validations();
                if (!rules.isEmpty()) {
                    Node validation = new Node.VariableValidationNode(m, v);
                    own.add(validation);
                    g.dependency(validation, node, null);
                    refs(g, validation, n, ruleRefs(rules));
                }
            });
            mc.locals().forEach((name, l) -> {
                Node node = new Node.LocalNode(m, name);
                own.add(node);
                refs(g, node, n, References.of(l));
            });
            mc.outputs().forEach((name, o) -> {
                Node node = new Node.OutputNode(m, name);
                own.add(node);
                refs(g, node, n, References.of(o));
            });
            mc.moduleCalls().forEach((name, c) -> {
                Node node = new Node.ModuleCallNode(m, name);
                own.add(node);
                refs(g, node, n, References.ofExpansion(c));
                if (n.children().get(name) != null) {
                    // A nested module is closed only when its own objects are done.
                    own.add(new Node.ModuleCloseNode(m, name));
                }
            });
            mc.resources().forEach((addr, rc) -> {
                Node node = new Node.ResourceNode(m, addr);
                own.add(node);
                refs(g, node, n, References.of(rc));
                g.dependency(node, new Node.ProviderNode(providerOf(tree, n, rc)), rc.declRange());
            });
            mc.providerConfigs().forEach((lpc, pc) -> {
                Node node =
                        new Node.ProviderNode(new AbsProviderConfig(m, mc.providerFor(lpc.localName()), lpc.alias()));
                own.add(node);
                refs(g, node, n, References.of(pc));
            });
            mc.checks().forEach((name, c) -> {
                Node node = new Node.CheckNode(m, name);
                own.add(node);
                refs(g, node, n, ruleRefs(c.asserts()));
            });
            if (close != null) {
                g.dependency(close, call, null);
            }
            for (Node o : own) {
                g.node(o);
                if (call != null && !(o instanceof Node.ModuleCloseNode)) {
                    g.dependency(o, call, null);
                }
                if (close != null) {
                    g.dependency(close, o, null);
                }
            }
        }
        importRefs(g, tree);
        return g.build();
    }

    /** A resource that {@code import} blocks import into waits for what their {@code for_each} and {@code id} use. */
    private static void importRefs(DependencyGraph.Builder<Node> g, ConfigTree tree) {
        for (dev.strata.config.ImportConfig ic : tree.root().module().imports()) {
            var target = dev.strata.config.ImportExpansion.configTarget(ic.to()).value();
            Optional<ConfigNode> n = target == null ? Optional.empty() : tree.node(target.module());
            if (n.isEmpty()) {
                continue;
            }
            if (!n.get().module().resources().containsKey(target.resource())) {
                // A target without configuration may have it generated (-generate-config-out): its
                // provider is started so the object can be imported.
                var stub = new ResourceConfig(
                        target.resource(),
                        null,
                        null,
                        List.of(),
                        null,
                        dev.strata.config.Lifecycle.NONE,
                        null,
                        ic.to().range(),
                        ic.to().range(),
                        List.of(),
                        null);
                g.node(new Node.ProviderNode(providerOf(tree, n.get(), stub)));
                continue;
            }
            List<Reference> refs = new ArrayList<>();
            for (var e : java.util.Arrays.asList(ic.forEach(), ic.id())) {
                for (Traversal t : e == null ? List.<Traversal>of() : e.variables()) {
                    Result<Reference> ref = Reference.parse(t);
                    if (ref.value() != null) {
                        refs.add(ref.value());
                    }
                }
            }
            refs(g, new Node.ResourceNode(target.module(), target.resource()), tree.root(), refs);
        }
    }

    private static List<Reference> ruleRefs(List<CheckRule> rules) {
        List<Reference> out = new ArrayList<>();
        for (CheckRule r : rules) {
            for (var e : List.of(r.condition(), r.errorMessage())) {
                if (e == null) {
                    continue;
                }
                for (Traversal t : e.variables()) {
                    Result<Reference> ref = Reference.parse(t);
                    if (ref.value() != null) {
                        out.add(ref.value());
                    }
                }
            }
        }
        return out;
    }

    private static void refs(DependencyGraph.Builder<Node> g, Node from, ConfigNode n, List<Reference> refs) {
        Module m = n.path();
        ModuleConfig mc = n.module();
        for (Reference r : refs) {
            switch (r.subject()) {
                case InputVariable v -> {
                    var vc = mc.variables().get(v.name());
                    if (vc != null) {
                        // As Terraform: what refers to a variable validated in the walk waits for its validation,
                        // so that a value its rules reject is used by nothing. The rules themselves read the value.
                        boolean validated =
                                !vc.validations().isEmpty() && !(from instanceof Node.VariableValidationNode);
                        g.dependency(
                                from,
                                validated
                                        ? new Node.VariableValidationNode(m, v.name())
                                        : new Node.VariableNode(m, v.name()),
                                r.range());
                    }
                }
                case LocalValue l -> {
                    if (mc.locals().containsKey(l.name())) {
                        g.dependency(from, new Node.LocalNode(m, l.name()), r.range());
                    }
                }
                case Resource res -> resource(g, from, mc, m, res, r);
                case ResourceInstance ri -> resource(g, from, mc, m, ri.resource(), r);
                case ModuleCall c -> wholeModule(g, from, n, c.name(), r);
                case ModuleCallInstance c -> wholeModule(g, from, n, c.call().name(), r);
                case ModuleCallInstanceOutput o ->
                    moduleOutput(g, from, n, o.call().call().name(), o.name(), r);
                default -> {}
            }
        }
    }

    private static void resource(
            DependencyGraph.Builder<Node> g, Node from, ModuleConfig mc, Module m, Resource res, Reference r) {
        if (mc.resources().containsKey(res)
                && !(from instanceof Node.ResourceNode rn
                        && rn.resource().equals(res)
                        && rn.module().equals(m))) {
            g.dependency(from, new Node.ResourceNode(m, res), r.range());
        }
    }

    /** {@code module.a.x}: that output only (or the expansion, when the child module declares no such output). */
    private static void moduleOutput(
            DependencyGraph.Builder<Node> g, Node from, ConfigNode n, String call, String output, Reference r) {
        if (!n.module().moduleCalls().containsKey(call)) {
            return;
        }
        g.dependency(from, new Node.ModuleCallNode(n.path(), call), r.range());
        ConfigNode child = n.children().get(call);
        if (child != null && child.module().outputs().containsKey(output)) {
            g.dependency(from, new Node.OutputNode(child.path(), output), r.range());
        }
    }

    /** {@code module.a} as a whole (a value or a {@code depends_on} entry): everything in the module. */
    private static void wholeModule(
            DependencyGraph.Builder<Node> g, Node from, ConfigNode n, String call, Reference r) {
        if (!n.module().moduleCalls().containsKey(call)) {
            return;
        }
        g.dependency(from, new Node.ModuleCallNode(n.path(), call), r.range());
        if (n.children().get(call) != null) {
            g.dependency(from, new Node.ModuleCloseNode(n.path(), call), r.range());
        }
    }

    /**
     * The provider configuration a resource uses: declared in its module, passed in by the module
     * call's {@code providers} map, or inherited (default configurations only) from the parent;
     * at the root, an implied empty configuration when none is declared.
     */
    static AbsProviderConfig providerOf(ConfigTree tree, ConfigNode n, ResourceConfig rc) {
        LocalProviderConfig lpc = rc.providerConfig();
        return resolveProvider(tree, n, lpc, n.module().providerFor(lpc.localName()));
    }

    private static AbsProviderConfig resolveProvider(
            ConfigTree tree, ConfigNode n, LocalProviderConfig lpc, dev.strata.addr.Provider provider) {
        ModuleConfig mc = n.module();
        if (mc.providerConfigs().containsKey(lpc)) {
            return new AbsProviderConfig(n.path(), mc.providerFor(lpc.localName()), lpc.alias());
        }
        if (!n.isRoot()) {
            Optional<ConfigNode> parent = tree.node(n.path().parent());
            if (parent.isPresent()) {
                for (PassedProvider pp : n.call().providers()) {
                    if (pp.inChild().equals(lpc)) {
                        return resolveProvider(tree, parent.get(), pp.inParent().config(), provider);
                    }
                }
                if (lpc.alias() == null) {
                    return resolveProvider(tree, parent.get(), lpc, provider);
                }
            }
        }
        return new AbsProviderConfig(Module.ROOT, provider, lpc.alias());
    }

    /** The provider configuration block behind an address, or null for an implied empty one. */
    static ProviderConfig providerConfig(ConfigTree tree, AbsProviderConfig cfg) {
        Optional<ConfigNode> n = tree.node(cfg.module());
        if (n.isEmpty()) {
            return null;
        }
        for (var e : n.get().module().providerConfigs().entrySet()) {
            if (java.util.Objects.equals(e.getKey().alias(), cfg.alias())
                    && n.get().module().providerFor(e.getKey().localName()).equals(cfg.provider())) {
                return e.getValue();
            }
        }
        return null;
    }
}
