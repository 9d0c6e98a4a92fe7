package dev.strata.stacks.addr;

import dev.strata.addr.InstanceKey;
import java.util.ArrayList;
import java.util.List;

/**
 * One instance of a stack: the root stack, or the chain of embedded stack calls with the instance
 * key each call's {@code for_each} chose.
 */
public record StackInstance(List<Step> steps) implements Comparable<StackInstance> {
    public static final StackInstance ROOT = new StackInstance(List.of());

    /** One embedded stack call and its instance key ({@link InstanceKey#NONE} without for_each). */
    public record Step(String name, InstanceKey key) {
        public Step {
            java.util.Objects.requireNonNull(name);
            java.util.Objects.requireNonNull(key);
        }
    }

    public StackInstance {
        steps = List.copyOf(steps);
    }

    public boolean isRoot() {
        return steps.isEmpty();
    }

    public StackInstance child(String name, InstanceKey key) {
        List<Step> l = new ArrayList<>(steps);
        l.add(new Step(name, key));
        return new StackInstance(l);
    }

    /** The configuration path this instance belongs to (keys dropped). */
    public StackPath configPath() {
        return new StackPath(steps.stream().map(Step::name).toList());
    }

    @Override
    public int compareTo(StackInstance o) {
        for (int i = 0; i < Math.min(steps.size(), o.steps.size()); i++) {
            Step a = steps.get(i);
            Step b = o.steps.get(i);
            int c = a.name().compareTo(b.name());
            if (c == 0) {
                c = a.key().compareTo(b.key());
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(steps.size(), o.steps.size());
    }

    /** {@code stack.a["x"].stack.b}; empty for the root stack. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Step s : steps) {
            if (!sb.isEmpty()) {
                sb.append('.');
            }
            sb.append("stack.").append(s.name()).append(s.key());
        }
        return sb.toString();
    }
}
