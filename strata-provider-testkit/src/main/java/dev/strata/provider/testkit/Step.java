package dev.strata.provider.testkit;

import dev.strata.addr.AttributePath;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * The outcome of one {@link ResourceTester#apply}: the action taken, the plan (with its unknowns),
 * the paths that forced a replacement, and the state after apply and refresh.
 */
public record Step(Action action, Value planned, List<AttributePath> requiresReplace, Value state) {
    public Step {
        requiresReplace = List.copyOf(requiresReplace);
    }
}
