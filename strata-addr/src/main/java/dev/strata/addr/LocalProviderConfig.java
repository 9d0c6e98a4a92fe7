package dev.strata.addr;

/**
 * A provider configuration as a module refers to it: the local name from {@code required_providers}
 * (or implied by a resource type) and the optional alias, {@code aws} or {@code aws.west}.
 */
public record LocalProviderConfig(String localName, String alias) implements Comparable<LocalProviderConfig> {
    public LocalProviderConfig {
        java.util.Objects.requireNonNull(localName);
        alias = alias == null || alias.isEmpty() ? null : alias;
    }

    public static LocalProviderConfig of(String localName) {
        return new LocalProviderConfig(localName, null);
    }

    @Override
    public int compareTo(LocalProviderConfig o) {
        return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
        return alias == null ? localName : localName + "." + alias;
    }
}
