package dev.strata.stacks.runtime;

import dev.strata.engine.Plan;
import dev.strata.hcl.Diagnostics;
import java.util.List;

/**
 * One component instance's part of a deployment plan.
 *
 * @param address        the instance, e.g. {@code component.app["us-east-1"]}
 * @param plan           the module plan the engine made for it against its part of the state; null when
 *                       deferred or failed
 * @param deferredReason why it could not be planned yet ({@code for_each} or a provider configuration
 *                       unknown, or something it depends on deferred); null when planned
 * @param removed        whether it is planned for destruction because the configuration no longer
 *                       declares it (a {@code removed} block)
 * @param dependsOn      the components (call addresses) it depends on, decided at plan time so the
 *                       apply can order the instances without building a graph again
 * @param diagnostics    problems found planning it
 */
public record ComponentPlan(
        String address,
        Plan plan,
        String deferredReason,
        boolean removed,
        List<String> dependsOn,
        Diagnostics diagnostics) {
    public ComponentPlan {
        dependsOn = List.copyOf(dependsOn);
    }

    public boolean deferred() {
        return deferredReason != null;
    }

    public boolean hasChanges() {
        return deferred() || plan != null && plan.hasChanges();
    }
}
