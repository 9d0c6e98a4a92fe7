package dev.strata.state;

import java.util.Comparator;
import java.util.Objects;

/**
 * The absolute address of a resource: module instance path, mode, type and name. Minimal on purpose:
 * the engine's address package (P3) will replace it; the state needs only to name, sort and match.
 *
 * @param module module instance path such as {@code module.a["x"].module.b}, empty for the root
 */
public record ResourceAddr(String module, ResourceMode mode, String type, String name) implements Comparable<ResourceAddr> {
    private static final Comparator<ResourceAddr> ORDER = Comparator
            .comparing(ResourceAddr::module, Addresses::compareGo)
            .thenComparing(a -> a.mode().json(), Addresses::compareGo)
            .thenComparing(ResourceAddr::type, Addresses::compareGo)
            .thenComparing(ResourceAddr::name, Addresses::compareGo);

    public ResourceAddr {
        module = module == null ? "" : module;
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    public ResourceInstanceAddr instance(InstanceKey key) {
        return new ResourceInstanceAddr(this, key);
    }

    /** Terraform's order of resources in the state file: module, mode, type, name, as strings. */
    @Override
    public int compareTo(ResourceAddr o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        String local = (mode == ResourceMode.DATA ? "data." : "") + type + "." + name;
        return module.isEmpty() ? local : module + "." + local;
    }
}
