package dev.strata.addr;

/** {@code terraform.workspace} (and {@code terraform.applying}). */
public record TerraformAttr(String name) implements Referenceable {
    public TerraformAttr {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public String toString() {
        return "terraform." + name;
    }
}
