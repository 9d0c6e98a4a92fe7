package dev.strata.state;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.ResourceMode;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One resource of the state file with all its instance objects.
 *
 * @param addr      the resource's absolute address, e.g. {@code module.net["a"].aws_subnet.x}
 * @param each      legacy {@code each} mode ({@code list}/{@code map}), or null when absent
 * @param provider  the absolute provider configuration, e.g. {@code provider["registry.terraform.io/hashicorp/aws"]}
 * @param instances the objects, current and deposed, in any order (the codec sorts on write)
 * @param extra     members this version does not know, written back unchanged
 */
public record ResourceState(
        AbsResource addr,
        String each,
        AbsProviderConfig provider,
        List<ResourceInstanceObject> instances,
        JsonValue.ObjectValue extra) {
    public ResourceState {
        Objects.requireNonNull(addr, "addr");
        Objects.requireNonNull(provider, "provider");
        if (each != null && each.isEmpty()) {
            each = null;
        }
        // Terraform's order (statefile normalize): by key, then deposed key with the current object first.
        instances = instances instanceof Placed ? instances : StateSnapshot.sortedCopy(instances, INSTANCE_ORDER);
        extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
    }

    private static final Comparator<ResourceInstanceObject> INSTANCE_ORDER = Comparator.comparing(
                    ResourceInstanceObject::key)
            .thenComparing(o -> o.deposed() == null ? "" : o.deposed());

    /**
     * {@code sorted} (instances in this order, as a ResourceState holds them) with {@code o} in its place:
     * replacing the object of the same key and deposed key, or inserted where the order puts it. Found by
     * binary search and kept in order by construction, so the ResourceState made of it neither checks nor
     * sorts it again: the journal records each instance of a resource this way, and an apply of one resource
     * with N instances re-sorted (or at least compared) all N per entry.
     */
    static List<ResourceInstanceObject> placed(List<ResourceInstanceObject> sorted, ResourceInstanceObject o) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = INSTANCE_ORDER.compare(sorted.get(mid), o);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid;
            } else {
                ResourceInstanceObject[] out = sorted.toArray(new ResourceInstanceObject[0]);
                out[mid] = o;
                return new Placed(out);
            }
        }
        ResourceInstanceObject[] out = new ResourceInstanceObject[sorted.size() + 1];
        for (int i = 0; i < lo; i++) {
            out[i] = sorted.get(i);
        }
        out[lo] = o;
        for (int i = lo; i < sorted.size(); i++) {
            out[i + 1] = sorted.get(i);
        }
        return new Placed(out);
    }

    /** Instances in {@link #INSTANCE_ORDER} by construction ({@link #placed}); immutable. */
    private static final class Placed extends java.util.AbstractList<ResourceInstanceObject>
            implements java.util.RandomAccess {
        private final ResourceInstanceObject[] items;

        Placed(ResourceInstanceObject[] items) {
            for (ResourceInstanceObject o : items) {
                Objects.requireNonNull(o, "instance");
            }
            this.items = items;
        }

        @Override
        public ResourceInstanceObject get(int i) {
            return items[i];
        }

        @Override
        public int size() {
            return items.length;
        }
    }

    /** The module instance the resource is in; the root module for resources of the root. */
    public ModuleInstance module() {
        return addr.module();
    }

    public ResourceMode mode() {
        return addr.resource().mode();
    }

    public String type() {
        return addr.resource().type();
    }

    public String name() {
        return addr.resource().name();
    }

    public ResourceState withInstances(List<ResourceInstanceObject> newInstances) {
        return new ResourceState(addr, each, provider, newInstances, extra);
    }

    public ResourceState withAddr(AbsResource a) {
        return new ResourceState(a, each, provider, instances, extra);
    }

    public ResourceState withProvider(AbsProviderConfig newProvider) {
        return new ResourceState(addr, each, newProvider, instances, extra);
    }
}
