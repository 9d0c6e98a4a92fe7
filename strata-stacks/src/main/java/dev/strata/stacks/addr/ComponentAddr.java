package dev.strata.stacks.addr;

/** A {@code component} block, within a stack instance (a "call" that may have many instances). */
public record ComponentAddr(StackInstance stack, String name) implements Comparable<ComponentAddr> {
    public ComponentAddr {
        java.util.Objects.requireNonNull(stack);
        java.util.Objects.requireNonNull(name);
    }

    public static ComponentAddr root(String name) {
        return new ComponentAddr(StackInstance.ROOT, name);
    }

    public ComponentInstanceAddr instance(dev.strata.addr.InstanceKey key) {
        return new ComponentInstanceAddr(this, key);
    }

    @Override
    public int compareTo(ComponentAddr o) {
        int c = stack.compareTo(o.stack);
        return c != 0 ? c : name.compareTo(o.name);
    }

    /** {@code stack.a.component.b}, or {@code component.b} in the root stack. */
    @Override
    public String toString() {
        return (stack.isRoot() ? "" : stack + ".") + "component." + name;
    }
}
