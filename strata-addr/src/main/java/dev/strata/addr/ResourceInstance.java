package dev.strata.addr;

/** {@code aws_instance.web[0]}: one instance of a resource within a module. */
public record ResourceInstance(Resource resource, InstanceKey key) implements Referenceable {
    public ResourceInstance {
        java.util.Objects.requireNonNull(resource);
        java.util.Objects.requireNonNull(key);
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof ResourceInstance r && key.equals(r.key) && resource.equals(r.resource);
    }

    @Override
    public int hashCode() {
        return 31 * resource.hashCode() + key.hashCode();
    }

    @Override
    public String toString() {
        return resource.toString() + key;
    }
}
