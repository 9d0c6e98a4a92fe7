package dev.strata.addr;

/** {@code module.<name>[key].<output>}: an output of one instance of a module call. */
public record ModuleCallInstanceOutput(ModuleCallInstance call, String name) implements Referenceable {
    public ModuleCallInstanceOutput {
        java.util.Objects.requireNonNull(call);
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return call + "." + name;
    }
}
