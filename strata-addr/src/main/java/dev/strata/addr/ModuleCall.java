package dev.strata.addr;

/** {@code module.<name>}: a {@code module} block (the whole call, all its instances). */
public record ModuleCall(String name) implements Referenceable {
    public ModuleCall {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return "module." + name;
    }
}
