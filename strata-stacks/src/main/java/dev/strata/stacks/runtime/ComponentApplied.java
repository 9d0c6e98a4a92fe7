package dev.strata.stacks.runtime;

import dev.strata.engine.ApplyResult;
import dev.strata.hcl.Diagnostics;

/**
 * What the apply did to one component instance.
 *
 * @param address     the instance
 * @param result      the engine's result; null when it was not applied (something it depends on failed)
 * @param replanned   whether it was planned again during the apply (it was deferred, or its inputs were
 *                    known only once what it depends on was applied)
 * @param diagnostics problems found applying it
 */
public record ComponentApplied(String address, ApplyResult result, boolean replanned, Diagnostics diagnostics) {
    public boolean failed() {
        return diagnostics.hasErrors()
                || !diagnostics.isEmpty() && result == null
                || result != null && (!result.failed().isEmpty() || result.interrupted());
    }
}
