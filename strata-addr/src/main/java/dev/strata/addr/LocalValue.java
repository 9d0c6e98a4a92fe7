package dev.strata.addr;

/** {@code local.<name>}: a named value from a {@code locals} block. */
public record LocalValue(String name) implements Referenceable {
    public LocalValue {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return "local." + name;
    }
}
