package dev.strata.addr;

import java.util.ArrayList;
import java.util.List;

/**
 * A module in the static configuration tree, e.g. {@code module.net.module.subnets}: the names of
 * the module calls from the root, without instance keys. The root is the empty path.
 */
public record Module(List<String> names) implements Comparable<Module> {
    public static final Module ROOT = new Module(List.of());

    public Module {
        names = List.copyOf(names);
    }

    public boolean isRoot() {
        return names.isEmpty();
    }

    public Module child(String name) {
        List<String> l = new ArrayList<>(names);
        l.add(name);
        return new Module(l);
    }

    public Module parent() {
        if (isRoot()) {
            throw new IllegalStateException("the root module has no parent");
        }
        return new Module(names.subList(0, names.size() - 1));
    }

    /** The module instance with no keys on any step, as a singular module path would be instanced. */
    public ModuleInstance unkeyedInstance() {
        return new ModuleInstance(names.stream()
                .map(n -> new ModuleInstance.Step(n, InstanceKey.NONE))
                .toList());
    }

    // Written out: the generated record methods go through method handles that C1 (the compiler of plans
    // and applies) does not inline, and modules key the configuration tree's lookups.
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Module m && names.equals(m.names);
    }

    @Override
    public int hashCode() {
        return names.hashCode();
    }

    @Override
    public int compareTo(Module o) {
        int n = Math.min(names.size(), o.names.size());
        for (int i = 0; i < n; i++) {
            int c = names.get(i).compareTo(o.names.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(names.size(), o.names.size());
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            if (!sb.isEmpty()) {
                sb.append('.');
            }
            sb.append("module.").append(n);
        }
        return sb.toString();
    }
}
