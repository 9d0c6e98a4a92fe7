package dev.strata.stacks.addr;

/** A {@code stack} block (an embedded stack call) within a stack instance. */
public record StackCallAddr(StackInstance stack, String name) implements Comparable<StackCallAddr> {
    public StackCallAddr {
        java.util.Objects.requireNonNull(stack);
        java.util.Objects.requireNonNull(name);
    }

    public StackInstance instance(dev.strata.addr.InstanceKey key) {
        return stack.child(name, key);
    }

    @Override
    public int compareTo(StackCallAddr o) {
        int c = stack.compareTo(o.stack);
        return c != 0 ? c : name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return (stack.isRoot() ? "" : stack + ".") + "stack." + name;
    }
}
