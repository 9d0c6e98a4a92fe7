package dev.strata.addr;

/** {@code var.<name>}: a variable declared in a {@code variable} block. */
public record InputVariable(String name) implements Referenceable {
    public InputVariable {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return "var." + name;
    }
}
