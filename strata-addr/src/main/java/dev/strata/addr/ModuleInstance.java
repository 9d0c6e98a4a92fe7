package dev.strata.addr;

import java.util.ArrayList;
import java.util.List;

/**
 * The path of one module instance from the root, e.g. {@code module.net["eu"].module.subnets};
 * the root module is the empty path and renders as the empty string.
 */
public record ModuleInstance(List<Step> steps) implements Comparable<ModuleInstance>, Targetable {
    public static final ModuleInstance ROOT = new ModuleInstance(List.of());

    public ModuleInstance {
        steps = List.copyOf(steps);
    }

    /** {@code module.<name><key>}. */
    public record Step(String name, InstanceKey key) {
        public Step {
            java.util.Objects.requireNonNull(name);
            java.util.Objects.requireNonNull(key);
        }

        // Written out: the generated record methods go through method handles that C1 (the compiler of
        // plans and applies) does not inline, and steps are compared in every address lookup.
        @Override
        public boolean equals(Object o) {
            return this == o || o instanceof Step s && name.equals(s.name) && key.equals(s.key);
        }

        @Override
        public int hashCode() {
            return 31 * name.hashCode() + key.hashCode();
        }

        @Override
        public String toString() {
            return "module." + name + key;
        }
    }

    public boolean isRoot() {
        return steps.isEmpty();
    }

    public ModuleInstance child(String name, InstanceKey key) {
        List<Step> l = new ArrayList<>(steps);
        l.add(new Step(name, key));
        return new ModuleInstance(l);
    }

    /** Whether {@code other} is this module instance or one below it. */
    public boolean contains(ModuleInstance other) {
        return other.steps.size() >= steps.size()
                && other.steps.subList(0, steps.size()).equals(steps);
    }

    /**
     * Whether {@code other} is this module instance or one below it, read as a target: a step without a key
     * names every instance of that call ({@code module.m} takes in {@code module.m[0]}), as {@code -target},
     * {@code state list} and {@code state rm} read module addresses.
     */
    public boolean targetContains(ModuleInstance other) {
        if (other.steps.size() < steps.size()) {
            return false;
        }
        for (int i = 0; i < steps.size(); i++) {
            Step mine = steps.get(i);
            Step theirs = other.steps.get(i);
            if (!mine.name().equals(theirs.name())
                    || !(mine.key() instanceof InstanceKey.NoKey) && !mine.key().equals(theirs.key())) {
                return false;
            }
        }
        return true;
    }

    public ModuleInstance parent() {
        if (isRoot()) {
            throw new IllegalStateException("the root module has no parent");
        }
        return new ModuleInstance(steps.subList(0, steps.size() - 1));
    }

    /** The static module path this instance belongs to (keys dropped). */
    public Module module() {
        if (steps.isEmpty()) {
            return Module.ROOT;
        }
        String[] names = new String[steps.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = steps.get(i).name();
        }
        return new Module(List.of(names));
    }

    public AbsResource resource(Resource r) {
        return new AbsResource(this, r);
    }

    public AbsResourceInstance resourceInstance(ResourceInstance r) {
        return new AbsResourceInstance(this, r);
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof ModuleInstance m && steps.equals(m.steps);
    }

    @Override
    public int hashCode() {
        return steps.hashCode();
    }

    @Override
    public int compareTo(ModuleInstance o) {
        if (this == o) {
            return 0;
        }
        int n = Math.min(steps.size(), o.steps.size());
        for (int i = 0; i < n; i++) {
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

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Step s : steps) {
            if (!sb.isEmpty()) {
                sb.append('.');
            }
            sb.append(s);
        }
        return sb.toString();
    }
}
