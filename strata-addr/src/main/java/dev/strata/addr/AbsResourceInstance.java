package dev.strata.addr;

/** One resource instance anywhere in the configuration: {@code module.net["eu"].aws_subnet.a[0]}. */
public record AbsResourceInstance(ModuleInstance module, ResourceInstance resource)
        implements Targetable, Comparable<AbsResourceInstance> {
    public AbsResourceInstance {
        java.util.Objects.requireNonNull(module);
        java.util.Objects.requireNonNull(resource);
    }

    public AbsResource containingResource() {
        return new AbsResource(module, resource.resource());
    }

    // Written out: the generated record methods go through method handles that C1 (the compiler of plans
    // and applies) does not inline, and instances key the maps of every plan.
    @Override
    public boolean equals(Object o) {
        return this == o
                || o instanceof AbsResourceInstance r && resource.equals(r.resource) && module.equals(r.module);
    }

    @Override
    public int hashCode() {
        return 31 * module.hashCode() + resource.hashCode();
    }

    @Override
    public int compareTo(AbsResourceInstance o) {
        if (this == o) {
            return 0;
        }
        int c = module.compareTo(o.module);
        if (c == 0) {
            c = Addrs.compareResources(resource.resource(), o.resource.resource());
        }
        return c != 0 ? c : resource.key().compareTo(o.resource.key());
    }

    @Override
    public String toString() {
        return module.isRoot() ? resource.toString() : module + "." + resource;
    }
}
