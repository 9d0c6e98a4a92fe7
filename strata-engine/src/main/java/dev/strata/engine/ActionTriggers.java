package dev.strata.engine;

import dev.strata.config.ActionTrigger;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * Terraform 1.14 {@code lifecycle { action_trigger }}: Strata loads and checks them but cannot invoke
 * actions yet, so a plan whose change would fire one fails there instead of skipping it silently.
 */
final class ActionTriggers {
    private ActionTriggers() {}

    /** The error for each trigger that {@code action} on the resource would fire, if any. */
    static Diagnostics unsupported(ResourceConfig rc, Action action, Scope scope) {
        Diagnostics.Builder out = Diagnostics.builder();
        for (ActionTrigger t : rc.lifecycle().actionTriggers()) {
            if (t.actions().isEmpty() || !fires(t, action) || conditionFalse(t, scope, out)) {
                continue;
            }
            List<String> names = t.actions().stream().map(Traversal::toString).toList();
            out.add(Diagnostic.error(
                    "Actions are not supported yet",
                    "The planned " + String.join(" and ", action.jsonActions()) + " of " + rc.addr()
                            + " triggers " + String.join(", ", names) + ", and Strata cannot invoke actions yet. "
                            + "Remove the action_trigger block, or give it a condition that is false for this "
                            + "change, to plan without it.",
                    t.declRange()));
        }
        return out.build();
    }

    private static boolean fires(ActionTrigger t, Action action) {
        return t.events().stream().anyMatch(e -> switch (e) {
            case BEFORE_CREATE, AFTER_CREATE -> action.creates();
            case BEFORE_UPDATE, AFTER_UPDATE -> action == Action.UPDATE;
        });
    }

    /** True only for a condition known to be false; errors in it are reported. */
    private static boolean conditionFalse(ActionTrigger t, Scope scope, Diagnostics.Builder out) {
        if (t.condition() == null) {
            return false;
        }
        Result<Value> r = new Evaluator(scope).evaluate(t.condition());
        out.addAll(r.diagnostics());
        if (r.hasErrors() || !r.value().isKnownAndNotNull()) {
            return r.hasErrors();
        }
        ConversionResult b = Convert.convert(r.value().unmarkDeep(), Type.BOOL);
        if (b instanceof ConversionResult.Failed f) {
            out.add(Diagnostic.error(
                    "Invalid condition result",
                    "Invalid condition result value: " + f.message() + ".",
                    t.condition().range()));
            return true;
        }
        return !b.value().asBool();
    }
}
