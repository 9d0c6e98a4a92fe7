package dev.strata.addr;

/** {@code module.<name>[key]}: one instance of a module call. */
public record ModuleCallInstance(ModuleCall call, InstanceKey key) implements Referenceable {
    public ModuleCallInstance {
        java.util.Objects.requireNonNull(call);
        java.util.Objects.requireNonNull(key);
    }

    @Override
    public String toString() {
        return call.toString() + key;
    }
}
