package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import java.util.List;

/**
 * What a {@code removed} block's {@code from} names: a path of embedded stacks, each with an
 * optional instance key expression, ending in a component (with an optional key) or, when
 * {@code component} is null, in the last embedded stack itself.
 */
public record RemovedTarget(List<Step> stacks, String component, Expression componentKey, SourceRange range) {
    public RemovedTarget {
        stacks = List.copyOf(stacks);
    }

    /** {@code stack.NAME} or {@code stack.NAME[KEY]}. */
    public record Step(String name, Expression key) {}

    public boolean targetsStack() {
        return component == null;
    }

    /** The instance key of the last step, or null when the target is a whole component or stack. */
    public Expression lastKey() {
        return component != null ? componentKey : stacks.getLast().key();
    }

    /** {@code stack.a[*].component.b}: the configuration path, keys shown only as present. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Step s : stacks) {
            if (!sb.isEmpty()) {
                sb.append('.');
            }
            sb.append("stack.").append(s.name());
        }
        if (component != null) {
            if (!sb.isEmpty()) {
                sb.append('.');
            }
            sb.append("component.").append(component);
        }
        return sb.toString();
    }
}
