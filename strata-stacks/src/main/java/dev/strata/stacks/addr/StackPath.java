package dev.strata.stacks.addr;

import java.util.ArrayList;
import java.util.List;

/**
 * A stack in the configuration tree, without instance keys: the root stack, or the chain of
 * {@code stack} block names leading to an embedded stack.
 */
public record StackPath(List<String> names) implements Comparable<StackPath> {
    public static final StackPath ROOT = new StackPath(List.of());

    public StackPath {
        names = List.copyOf(names);
    }

    public boolean isRoot() {
        return names.isEmpty();
    }

    public StackPath child(String name) {
        List<String> l = new ArrayList<>(names);
        l.add(name);
        return new StackPath(l);
    }

    public StackPath parent() {
        if (isRoot()) {
            throw new IllegalStateException("the root stack has no parent");
        }
        return new StackPath(names.subList(0, names.size() - 1));
    }

    @Override
    public int compareTo(StackPath o) {
        for (int i = 0; i < Math.min(names.size(), o.names.size()); i++) {
            int c = names.get(i).compareTo(o.names.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(names.size(), o.names.size());
    }

    /** {@code stack.a.stack.b}; empty for the root stack. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            if (!sb.isEmpty()) {
                sb.append('.');
            }
            sb.append("stack.").append(n);
        }
        return sb.toString();
    }
}
