package dev.strata.addr;

/** {@code self}: the enclosing resource instance, in provisioners, connections and postconditions. */
public record Self() implements Referenceable {
    public static final Self INSTANCE = new Self();

    @Override
    public String toString() {
        return "self";
    }
}
