package dev.strata.addr;

/** A resource block in the static configuration tree: {@code module.net.aws_subnet.a} (no keys). */
public record ConfigResource(Module module, Resource resource) implements Comparable<ConfigResource> {
    public ConfigResource {
        java.util.Objects.requireNonNull(module);
        java.util.Objects.requireNonNull(resource);
    }

    @Override
    public int compareTo(ConfigResource o) {
        int c = module.compareTo(o.module);
        return c != 0 ? c : Addrs.compareResources(resource, o.resource);
    }

    @Override
    public String toString() {
        return module.isRoot() ? resource.toString() : module + "." + resource;
    }
}
