package dev.strata.engine;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import java.util.List;
import java.util.TreeSet;

/**
 * Terraform's warning for a plan that forgets objects ({@code removed} with {@code destroy = false}): their
 * tracking information goes, the remote objects stay, unmanaged from then on. A forget has no count in the
 * plan's summary, so this warning is what tells the user they must import the objects to manage them again.
 */
final class ForgottenObjects {
    private ForgottenObjects() {}

    static Diagnostics warning(List<ResourceChange> changes) {
        TreeSet<String> forgotten = new TreeSet<>();
        for (ResourceChange c : changes) {
            if (c.action() == Action.FORGET) {
                forgotten.add(c.addr().toString());
            }
        }
        if (forgotten.isEmpty()) {
            return Diagnostics.NONE;
        }
        StringBuilder detail = new StringBuilder("If you apply this plan, Strata will discard its tracking information"
                + " for the following objects, but it will not delete them:");
        forgotten.forEach(a -> detail.append("\n - ").append(a));
        detail.append("\n\nAfter applying this plan, Strata will no longer manage these objects. You will need to"
                + " import them into Strata to manage them again.");
        return Diagnostics.of(
                Diagnostic.warning("Some objects will no longer be managed by Strata", detail.toString(), null));
    }
}
