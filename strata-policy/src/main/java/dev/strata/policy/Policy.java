package dev.strata.policy;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import java.util.List;
import java.util.SortedSet;

/**
 * One {@code policy "NAME"} block.
 *
 * @param resourceTypes the resource types it is checked for; empty means every type
 * @param actions       the change actions it is checked for ({@code create}, {@code update},
 *                      {@code delete}, {@code replace}, {@code read}, {@code no-op}); empty means every
 *                      action but {@code no-op}
 */
public record Policy(
        String name,
        String description,
        Enforcement enforcement,
        SortedSet<String> resourceTypes,
        SortedSet<String> actions,
        Expression condition,
        Expression errorMessage,
        SourceRange declRange) {

    static final List<String> ACTIONS = List.of("create", "update", "delete", "replace", "read", "no-op");

    public Policy {
        resourceTypes = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(resourceTypes));
        actions = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(actions));
    }

    /**
     * Whether a change with Terraform's {@code actions} list is checked: {@code replace} matches a
     * change that deletes and creates, and {@code delete} or {@code create} match a replacement too,
     * so that "nothing of this type is destroyed" also covers replacing it.
     */
    boolean checks(List<String> changeActions) {
        String action = ChangeValues.action(changeActions);
        if (actions.isEmpty()) {
            return !action.equals("no-op");
        }
        if (actions.contains(action)) {
            return true;
        }
        return action.equals("replace") && (actions.contains("delete") || actions.contains("create"));
    }
}
