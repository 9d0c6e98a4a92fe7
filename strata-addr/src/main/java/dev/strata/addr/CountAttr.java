package dev.strata.addr;

/** {@code count.index}. */
public record CountAttr(String name) implements Referenceable {
    public CountAttr {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return "count." + name;
    }
}
