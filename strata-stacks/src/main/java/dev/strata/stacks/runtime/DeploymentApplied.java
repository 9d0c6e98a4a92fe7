package dev.strata.stacks.runtime;

import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What applying one deployment's plan did: per component instance, and the stack's outputs after it;
 * {@code interrupted} when an interrupt left some of it undone (what was applied is recorded).
 */
public record DeploymentApplied(
        String deployment,
        List<ComponentApplied> components,
        SortedMap<String, Value> outputs,
        Diagnostics diagnostics,
        boolean interrupted) {
    public DeploymentApplied {
        components = List.copyOf(components);
        outputs = Collections.unmodifiableSortedMap(new TreeMap<>(outputs));
    }

    public DeploymentApplied(
            String deployment, List<ComponentApplied> components, SortedMap<String, Value> outputs, Diagnostics d) {
        this(deployment, components, outputs, d, false);
    }

    public int added() {
        return components.stream()
                .mapToInt(c -> c.result() == null ? 0 : c.result().added())
                .sum();
    }

    public int changed() {
        return components.stream()
                .mapToInt(c -> c.result() == null ? 0 : c.result().changed())
                .sum();
    }

    public int destroyed() {
        return components.stream()
                .mapToInt(c -> c.result() == null ? 0 : c.result().destroyed())
                .sum();
    }

    public boolean failed() {
        return interrupted || diagnostics.hasErrors() || components.stream().anyMatch(ComponentApplied::failed);
    }
}
