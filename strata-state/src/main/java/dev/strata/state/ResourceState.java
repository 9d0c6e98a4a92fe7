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
        instances = StateSnapshot.sortedCopy(instances, INSTANCE_ORDER);
        extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
    }

    private static final Comparator<ResourceInstanceObject> INSTANCE_ORDER = Comparator.comparing(
                    ResourceInstanceObject::key)
            .thenComparing(o -> o.deposed() == null ? "" : o.deposed());

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
