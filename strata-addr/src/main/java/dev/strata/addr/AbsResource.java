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

    @Override
    public int compareTo(AbsResource o) {
        int c = module.compareTo(o.module);
        return c != 0 ? c : Addrs.compareResources(resource, o.resource);
    }

    @Override
    public String toString() {
        return module.isRoot() ? resource.toString() : module + "." + resource;
    }
}
