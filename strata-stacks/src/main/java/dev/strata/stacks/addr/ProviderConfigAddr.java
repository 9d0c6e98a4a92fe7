package dev.strata.stacks.addr;

/**
 * A {@code provider "TYPE" "NAME"} block in a stack: {@code type} is the local name from
 * {@code required_providers}, {@code name} the block's second label.
 */
public record ProviderConfigAddr(String type, String name) implements Comparable<ProviderConfigAddr> {
    public ProviderConfigAddr {
        java.util.Objects.requireNonNull(type);
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public int compareTo(ProviderConfigAddr o) {
        int c = type.compareTo(o.type);
        return c != 0 ? c : name.compareTo(o.name);
    }

    /** {@code provider.aws.east}, as a reference spells it. */
    @Override
    public String toString() {
        return "provider." + type + "." + name;
    }
}
