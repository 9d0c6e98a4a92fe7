package dev.strata.stacks.runtime;

import dev.strata.engine.Plan;
import dev.strata.engine.PlanMode;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The plan of one deployment: every component instance's module plan (or why it was deferred), and
 * the stack's outputs as planned.
 *
 * @param deployment  the deployment's name
 * @param inputs      the root stack's input variables, as the deployment gave them
 * @param components  by instance address
 * @param outputs     the root stack's outputs (unknown where they wait for the apply)
 * @param diagnostics errors mean the deployment cannot be applied
 */
public record DeploymentPlan(
        String deployment,
        PlanMode mode,
        SortedMap<String, Value> inputs,
        List<ComponentPlan> components,
        SortedMap<String, Value> outputs,
        Diagnostics diagnostics) {
    public DeploymentPlan {
        inputs = Collections.unmodifiableSortedMap(new TreeMap<>(inputs));
        components = List.copyOf(components);
        outputs = Collections.unmodifiableSortedMap(new TreeMap<>(outputs));
    }

    /** The part of a component instance, or null. */
    public ComponentPlan component(String address) {
        return components.stream()
                .filter(c -> c.address().equals(address))
                .findFirst()
                .orElse(null);
    }

    /** Resource counts over every component instance, for the summary and auto-approve checks. */
    public record Summary(int add, int change, int remove, int deferred) {
        public int total() {
            return add + change + remove;
        }
    }

    public Summary summary() {
        int add = 0, change = 0, remove = 0, deferred = 0;
        for (ComponentPlan c : components) {
            if (c.deferred()) {
                deferred++;
            }
            if (c.plan() != null) {
                Plan.Summary s = c.plan().summary();
                add += s.add();
                change += s.change();
                remove += s.destroy();
                deferred += s.deferred();
            }
        }
        return new Summary(add, change, remove, deferred);
    }

    public boolean hasChanges() {
        return components.stream().anyMatch(ComponentPlan::hasChanges);
    }

    /** Whether this plan can be applied: planned without errors. */
    public boolean applyable() {
        return !diagnostics.hasErrors()
                && components.stream().noneMatch(c -> c.diagnostics().hasErrors());
    }
}
