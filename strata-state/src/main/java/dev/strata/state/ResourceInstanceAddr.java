package dev.strata.state;

import java.util.Comparator;
import java.util.Objects;

/** The absolute address of one resource instance, e.g. {@code module.m.aws_instance.web[0]}. */
public record ResourceInstanceAddr(ResourceAddr resource, InstanceKey key) implements Comparable<ResourceInstanceAddr> {
    private static final Comparator<ResourceInstanceAddr> ORDER = Comparator
            .comparing(ResourceInstanceAddr::resource)
            .thenComparing(ResourceInstanceAddr::key);

    public ResourceInstanceAddr {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(key, "key");
    }

    @Override
    public int compareTo(ResourceInstanceAddr o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return resource + key.toString();
    }
}
