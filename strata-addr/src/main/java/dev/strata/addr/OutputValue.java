package dev.strata.addr;

/** {@code output.<name>}: an {@code output} block of a module (callers see it as a module call's attribute). */
public record OutputValue(String name) implements Comparable<OutputValue> {
    public OutputValue {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public int compareTo(OutputValue o) {
        return name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return "output." + name;
    }
}
