package dev.strata.stacks.runtime;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.config.ConfigTree;
import dev.strata.lang.value.Value;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What the engine needs to plan or apply one component instance, evaluated in the stack: its module
 * tree, the values of its root module's variables, and the configuration of each provider passed in.
 * {@code deferredReason} says why it cannot be planned yet (then the rest may be incomplete);
 * {@code blockedBy} names a component it depends on that failed.
 */
record ComponentSetup(
        String address,
        ConfigTree tree,
        SortedMap<String, Value> variables,
        Map<AbsProviderConfig, Value> providers,
        List<String> dependsOn,
        String deferredReason,
        String blockedBy,
        boolean broken) {
    ComponentSetup {
        dependsOn = List.copyOf(dependsOn);
        providers = Map.copyOf(providers);
    }
}
