package dev.strata.state;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One resource of the state file with all its instance objects.
 *
 * @param module    the module instance path, e.g. {@code module.net["a"]}; empty for the root module
 * @param each      legacy {@code each} mode ({@code list}/{@code map}), or null when absent
 * @param provider  the absolute provider configuration, e.g. {@code provider["registry.terraform.io/hashicorp/aws"]}
 * @param instances the objects, current and deposed, in any order (the codec sorts on write)
 * @param extra     members this version does not know, written back unchanged
 */
public record ResourceState(String module, ResourceMode mode, String type, String name, String each, String provider,
                            List<ResourceInstanceObject> instances, JsonValue.ObjectValue extra) {
    public ResourceState {
        module = module == null ? "" : module;
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(provider, "provider");
        if (each != null && each.isEmpty()) {
            each = null;
        }
        // Terraform's order (statefile normalize): by key, then deposed key with the current object first.
        instances = StateSnapshot.sortedCopy(instances, INSTANCE_ORDER);
        extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
    }

    private static final Comparator<ResourceInstanceObject> INSTANCE_ORDER = Comparator
            .comparing(ResourceInstanceObject::key)
            .thenComparing(o -> o.deposed() == null ? "" : o.deposed());

    public ResourceAddr addr() {
        return new ResourceAddr(module, mode, type, name);
    }

    public ResourceState withInstances(List<ResourceInstanceObject> newInstances) {
        return new ResourceState(module, mode, type, name, each, provider, newInstances, extra);
    }

    public ResourceState withAddr(ResourceAddr a) {
        return new ResourceState(a.module(), a.mode(), a.type(), a.name(), each, provider, instances, extra);
    }

    public ResourceState withProvider(String newProvider) {
        return new ResourceState(module, mode, type, name, each, newProvider, instances, extra);
    }
}
