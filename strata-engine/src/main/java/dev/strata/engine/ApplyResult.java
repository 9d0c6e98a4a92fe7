package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostics;
import dev.strata.state.StateSnapshot;
import java.util.List;

/**
 * What an apply did.
 *
 * @param state          the state after the apply (durable)
 * @param added          objects created (including the create half of replacements)
 * @param changed        objects updated in place
 * @param destroyed      objects destroyed (including the destroy half of replacements)
 * @param failed         instances whose operation failed
 * @param skipped        instances not applied because something they depend on failed, or because of an interrupt
 * @param needsNewPlan   existing instances a deferred expansion would change: applied only after a new plan
 * @param interrupted    whether the apply was stopped before it was complete
 */
public record ApplyResult(
        StateSnapshot state,
        int added,
        int changed,
        int destroyed,
        List<AbsResourceInstance> failed,
        List<AbsResourceInstance> skipped,
        List<AbsResourceInstance> needsNewPlan,
        boolean interrupted,
        Diagnostics diagnostics) {
    public ApplyResult {
        failed = List.copyOf(failed);
        skipped = List.copyOf(skipped);
        needsNewPlan = List.copyOf(needsNewPlan);
    }
}
