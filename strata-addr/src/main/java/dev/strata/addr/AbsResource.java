package dev.strata.addr;

/** A resource within a particular module instance: {@code module.net["eu"].aws_subnet.a}. */
public record AbsResource(ModuleInstance module, Resource resource) implements Targetable, Comparable<AbsResource> {
    public AbsResource {
        java.util.Objects.requireNonNull(module);
        java.util.Objects.requireNonNull(resource);
    }

    public AbsResourceInstance instance(InstanceKey key) {
        return new AbsResourceInstance(module, resource.instance(key));
    }

    public ConfigResource config() {
        return new ConfigResource(module.module(), resource);
    }

    // Written out: the generated record methods go through method handles that C1 (the compiler of plans
    // and applies) does not inline, and resources key the maps of every plan.
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof AbsResource r && resource.equals(r.resource) && module.equals(r.module);
    }

    @Override
    public int hashCode() {
        return 31 * module.hashCode() + resource.hashCode();
    }

    @Override
    public int compareTo(AbsResource o) {
        if (this == o) {
            return 0;
        }
        int c = module.compareTo(o.module);
        return c != 0 ? c : Addrs.compareResources(resource, o.resource);
    }

    @Override
    public String toString() {
        return module.isRoot() ? resource.toString() : module + "." + resource;
    }
}
