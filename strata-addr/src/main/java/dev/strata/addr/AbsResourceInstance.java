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

    @Override
    public int compareTo(AbsResourceInstance o) {
        int c = containingResource().compareTo(o.containingResource());
        return c != 0 ? c : resource.key().compareTo(o.resource.key());
    }

    @Override
    public String toString() {
        return module.isRoot() ? resource.toString() : module + "." + resource;
    }
}
