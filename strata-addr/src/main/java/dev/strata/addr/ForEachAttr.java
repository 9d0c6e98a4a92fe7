package dev.strata.addr;

/** {@code each.key} and {@code each.value}. */
public record ForEachAttr(String name) implements Referenceable {
    public ForEachAttr {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return "each." + name;
    }
}
