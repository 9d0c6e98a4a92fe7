package dev.strata.addr;

/** {@code aws_instance.web[0]}: one instance of a resource within a module. */
public record ResourceInstance(Resource resource, InstanceKey key) implements Referenceable {
    public ResourceInstance {
        java.util.Objects.requireNonNull(resource);
        java.util.Objects.requireNonNull(key);
    }

    @Override
    public String toString() {
        return resource.toString() + key;
    }
}
