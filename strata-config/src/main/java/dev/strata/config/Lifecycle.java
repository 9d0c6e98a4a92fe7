package dev.strata.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.Traversal;
import java.util.List;

/**
 * A resource's {@code lifecycle} block. {@code ignoreAllChanges} is {@code ignore_changes = all};
 * otherwise {@code ignoreChanges} lists attribute paths relative to the resource. {@code actionTriggers}
 * are its {@code action_trigger} blocks (Terraform 1.14 actions).
 */
public record Lifecycle(
        boolean createBeforeDestroy,
        boolean preventDestroy,
        boolean ignoreAllChanges,
        List<Traversal> ignoreChanges,
        List<Expression> replaceTriggeredBy,
        List<CheckRule> preconditions,
        List<CheckRule> postconditions,
        List<ActionTrigger> actionTriggers) {
    public static final Lifecycle NONE =
            new Lifecycle(false, false, false, List.of(), List.of(), List.of(), List.of(), List.of());

    public Lifecycle {
        ignoreChanges = List.copyOf(ignoreChanges);
        replaceTriggeredBy = List.copyOf(replaceTriggeredBy);
        preconditions = List.copyOf(preconditions);
        postconditions = List.copyOf(postconditions);
        actionTriggers = List.copyOf(actionTriggers);
    }
}
