package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.config.ConfigNode;
import dev.strata.config.ConfigTree;
import dev.strata.config.ResourceConfig;
import dev.strata.engine.graph.DependencyGraph;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import dev.strata.state.StateManager;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;

/**
 * {@code strata import ADDR ID}: reads an existing remote object through its provider and records it
 * in state at an address the configuration declares, refusing an address that is already managed.
 */
final class Importer {
    private final Wiring wiring;

    Importer(Wiring wiring) {
        this.wiring = wiring;
    }

    /** Imports; the first interrupt does not stop it (it is one operation, which finishes). */
    Diagnostics importResource(
            SortedMap<String, Value> variables,
            StateManager state,
            PlanOptions options,
            AbsResourceInstance addr,
            String id,
            EngineEvents events) {
        ConfigTree tree = wiring.config();
        Optional<ConfigNode> node = tree.node(addr.module().module());
        ResourceConfig rc = node.map(
                        n -> n.module().resources().get(addr.resource().resource()))
                .orElse(null);
        if (rc == null) {
            // Terraform's words for the import command (an import block's are ImportTargets').
            dev.strata.addr.Module m = addr.module().module();
            dev.strata.addr.Resource r = addr.resource().resource();
            return Diagnostics.of(Diagnostic.error(
                    "resource address \"" + addr + "\" does not exist in the configuration.",
                    "Before importing this resource, please create its configuration in "
                            + (m.isRoot() ? "the root module" : m.toString()) + ". For example:\n\n"
                            + "resource \"" + r.type() + "\" \"" + r.name() + "\" {\n  # (resource arguments)\n}",
                    null));
        }
        if (!addr.module().equals(addr.module().module().unkeyedInstance())
                || (rc.isInstanced() && addr.resource().key() instanceof dev.strata.addr.InstanceKey.NoKey)) {
            if (rc.isInstanced() && addr.resource().key() instanceof dev.strata.addr.InstanceKey.NoKey) {
                return Diagnostics.of(Diagnostic.error(
                        "Missing resource instance key",
                        "The resource " + addr
                                + " has count or for_each set, so the import address must include an instance key, such as "
                                + addr + "[0].",
                        rc.declRange()));
            }
        }
        DependencyGraph<Node> graph = wiring.graph();
        try (ProviderPool pool = wiring.pool(options.workingDir())) {
            // An import has no saved plan: its plan time is now.
            Run run = new Run(
                    tree,
                    options,
                    Run.Phase.APPLY,
                    pool,
                    variables,
                    state.state(),
                    java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                    r -> e -> {
                        var w = state.append(e);
                        if (w.value() == null) {
                            throw new IllegalStateException("could not record the import durably");
                        }
                        return w.value();
                    });
            // The provider's configuration, and, as in Terraform's import walk, the root variables' checks: a
            // value its declaration rejects stops the import before anything is read. Rules that refer to
            // other objects are left out: this walk evaluates nothing else.
            Set<Node> roots = new java.util.HashSet<>();
            roots.add(new Node.ProviderNode(GraphBuilder.providerOf(tree, node.get(), rc)));
            for (Node n : graph.nodes()) {
                boolean rootVariable =
                        n instanceof Node.VariableNode v && v.module().isRoot();
                boolean onVariablesAlone = n instanceof Node.VariableValidationNode v
                        && v.module().isRoot()
                        && graph.dependenciesOf(n).stream().allMatch(d -> d instanceof Node.VariableNode);
                if (rootVariable || onVariablesAlone) {
                    roots.add(n);
                }
            }
            Walk walk = wiring.walk(run, graph, events, InstanceOps.Inputs.NONE, roots, () -> false);
            InstanceOps ops = walk.ops;
            try {
                walk.walk(() -> false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (run.hasErrors()) {
                return run.diagnostics();
            }
            run.moduleInstances.putIfAbsent(addr.module().module(), java.util.List.of(addr.module()));
            Diagnostics d = ops.importNow(rc, addr, id);
            var compacted = state.compact();
            return d.with(compacted.diagnostics());
        }
    }
}
