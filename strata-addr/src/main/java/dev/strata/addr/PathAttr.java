package dev.strata.addr;

/** {@code path.module}, {@code path.root}, {@code path.cwd}. */
public record PathAttr(String name) implements Referenceable {
    public PathAttr {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return "path." + name;
    }
}
