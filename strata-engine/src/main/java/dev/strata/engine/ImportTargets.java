package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.config.ConfigNode;
import dev.strata.config.ImportConfig;
import dev.strata.config.ImportExpansion;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The root module's {@code import} blocks as import targets. A block is expanded when the plan first
 * reaches the resource it imports into (the graph makes that resource wait for what {@code for_each}
 * and {@code id} refer to), so a {@code for_each} may use values the plan computes; {@link #finish}
 * expands the rest and reports the targets no configured instance took.
 */
final class ImportTargets {
    /** One object to import: the block, the instance and the {@code each} it was expanded with (null without). */
    record Target(ImportConfig block, AbsResourceInstance addr, ImportExpansion.Each each) {}

    static final ImportTargets NONE = new ImportTargets(List.of());

    private final List<ImportConfig> blocks;
    private final List<ImportExpansion.ConfigTarget> configTargets = new ArrayList<>();
    private final Set<Integer> expanded = new HashSet<>();
    private final Map<AbsResourceInstance, Target> byAddr = new HashMap<>();
    private final Set<AbsResourceInstance> taken = new HashSet<>();

    ImportTargets(List<ImportConfig> blocks) {
        this.blocks = List.copyOf(blocks);
        for (ImportConfig b : this.blocks) {
            // Validation reported a `to` that names no resource; such a block imports nothing.
            configTargets.add(ImportExpansion.configTarget(b.to()).value());
        }
    }

    boolean isEmpty() {
        return blocks.isEmpty();
    }

    /** The import into {@code ai}, or null; the instance is planned, so the target counts as taken. */
    synchronized Target target(Run run, AbsResourceInstance ai) {
        if (blocks.isEmpty()) {
            return null;
        }
        var ct = new ImportExpansion.ConfigTarget(
                ai.module().module(), ai.resource().resource());
        for (int i = 0; i < blocks.size(); i++) {
            if (ct.equals(configTargets.get(i))) {
                expand(run, i);
            }
        }
        taken.add(ai);
        return byAddr.get(ai);
    }

    /**
     * Expands the blocks no planned resource asked for and reports every target that no configured
     * instance took and state does not hold yet. Returns the targets without any configuration, in
     * address order: {@code -generate-config-out} writes theirs, otherwise they are errors.
     */
    synchronized List<Target> finish(Run run, PlannedChanges planned) {
        return finish(run, planned, false);
    }

    /**
     * As {@link #finish(Run, PlannedChanges)}; when {@code generating}, a keyed target without
     * configuration is refused as Terraform refuses it: generated configuration has no {@code for_each}.
     */
    synchronized List<Target> finish(Run run, PlannedChanges planned, boolean generating) {
        if (run.options.mode() != PlanMode.NORMAL || blocks.isEmpty()) {
            return List.of();
        }
        for (int i = 0; i < blocks.size(); i++) {
            if (configTargets.get(i) != null) {
                expand(run, i);
            }
        }
        Set<dev.strata.addr.AbsResource> deferred = new HashSet<>();
        planned.deferred().forEach(d -> deferred.add(d.addr()));
        List<Target> unconfigured = new ArrayList<>();
        for (Target t : new TreeMap<>(byAddr).values()) {
            AbsResourceInstance a = t.addr();
            if (taken.contains(a)
                    || !run.state().objects(a).isEmpty()
                    || !Targets.matchesInstance(run.options.targets(), a)
                    || deferred.contains(a.containingResource())
                    || run.deferredModules.containsKey(a.module().module())) {
                continue;
            }
            if (resourceConfig(run, a) == null && t.block().forEach() == null) {
                unconfigured.add(t);
                continue;
            }
            if (generating && resourceConfig(run, a) == null) {
                run.diagnose(Diagnostic.error(
                        "Invalid import 'to' expression",
                        "The target resource does not use for_each.",
                        t.block().to().range()));
                continue;
            }
            run.diagnose(Diagnostic.error(
                    "Configuration for import target does not exist",
                    "The configuration for the given import " + a + " does not exist. All target instances must "
                            + "have an associated configuration to be imported.",
                    null));
        }
        return unconfigured;
    }

    /** The diagnostic for a target without configuration when no configuration is to be generated. */
    static Diagnostic missingConfiguration(Target t) {
        return Diagnostic.error(
                "Configuration for import target does not exist",
                "The configuration for the given import target " + t.addr() + " does not exist. If you wish to "
                        + "automatically generate config for this resource, use the -generate-config-out option "
                        + "within strata plan. Otherwise, make sure the target resource exists within your "
                        + "configuration. For example:\n\n  strata plan -generate-config-out=generated.tf",
                t.block().to().range());
    }

    private void expand(Run run, int i) {
        if (!expanded.add(i)) {
            return;
        }
        ImportConfig b = blocks.get(i);
        List<ImportExpansion.Each> each;
        if (b.forEach() == null) {
            each = java.util.Collections.singletonList(null);
        } else {
            Result<Value> v =
                    new dev.strata.lang.eval.Evaluator(RunData.scope(run, ModuleInstance.ROOT)).evaluate(b.forEach());
            run.diagnose(v.diagnostics());
            if (v.hasErrors()) {
                return;
            }
            Result<List<ImportExpansion.Each>> e =
                    ImportExpansion.forEach(v.value(), b.forEach().range());
            run.diagnose(e.diagnostics());
            if (e.value() == null) {
                return;
            }
            each = e.value();
        }
        for (ImportExpansion.Each e : each) {
            Result<AbsResourceInstance> t =
                    ImportExpansion.target(b.to(), e, run.functions(dev.strata.addr.Module.ROOT));
            run.diagnose(t.diagnostics());
            if (t.value() == null) {
                return;
            }
            AbsResourceInstance addr = t.value();
            ResourceConfig rc = resourceConfig(run, addr);
            if (rc != null || b.forEach() != null) {
                var mismatch =
                        ImportExpansion.checkExpansion(rc, addr.resource().key(), b.to().range());
                if (mismatch.hasErrors()) {
                    run.diagnose(mismatch);
                    return;
                }
            }
            Target prev = byAddr.get(addr);
            if (prev != null) {
                run.diagnose(ImportExpansion.duplicate(addr, prev.block().declRange(), b.to().range()));
                continue;
            }
            byAddr.put(addr, new Target(b, addr, e));
        }
    }

    private static ResourceConfig resourceConfig(Run run, AbsResourceInstance a) {
        return run.tree
                .node(a.module().module())
                .map(ConfigNode::module)
                .map(m -> m.resources().get(a.resource().resource()))
                .orElse(null);
    }

    /** The scope an import's {@code id} is evaluated in: the root module, with {@code each} bound. */
    static dev.strata.lang.eval.Scope idScope(Run run, Target t) {
        RunData root = new RunData(run, ModuleInstance.ROOT);
        if (t.each() == null) {
            return root.scope();
        }
        Value k = t.each().key();
        InstanceKey key = k.type() == dev.strata.lang.types.Type.NUMBER
                ? new InstanceKey.IntKey(k.asNumber().intValue())
                : new InstanceKey.StringKey(
                        k.type() == dev.strata.lang.types.Type.STRING ? k.asString() : Objects.toString(k));
        return root.forInstance(key, t.each().value()).scope();
    }
}
