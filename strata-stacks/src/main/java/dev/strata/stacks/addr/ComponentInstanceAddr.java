package dev.strata.stacks.addr;

import dev.strata.addr.InstanceKey;

/** One instance of a component: the key its {@code for_each} chose, or none. */
public record ComponentInstanceAddr(ComponentAddr component, InstanceKey key)
        implements Comparable<ComponentInstanceAddr> {
    public ComponentInstanceAddr {
        java.util.Objects.requireNonNull(component);
        java.util.Objects.requireNonNull(key);
    }

    @Override
    public int compareTo(ComponentInstanceAddr o) {
        int c = component.compareTo(o.component);
        return c != 0 ? c : key.compareTo(o.key);
    }

    /** {@code component.b["x"]}. */
    @Override
    public String toString() {
        return component.toString() + key;
    }
}
