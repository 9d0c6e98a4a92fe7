package dev.strata.addr;

/** {@code aws_instance.web} {@code data.aws_ami.ubuntu} or {@code ephemeral.aws_ssm_parameter.db}: a resource block within a module. */
public record Resource(ResourceMode mode, String type, String name) implements Referenceable {
    public Resource {
        java.util.Objects.requireNonNull(mode);
        java.util.Objects.requireNonNull(type);
        java.util.Objects.requireNonNull(name);
    }

    public static Resource managed(String type, String name) {
        return new Resource(ResourceMode.MANAGED, type, name);
    }

    public static Resource data(String type, String name) {
        return new Resource(ResourceMode.DATA, type, name);
    }

    public static Resource ephemeral(String type, String name) {
        return new Resource(ResourceMode.EPHEMERAL, type, name);
    }

    public ResourceInstance instance(InstanceKey key) {
        return new ResourceInstance(this, key);
    }

    /**
     * The provider local name implied by the type, the prefix before the first underscore
     * ({@code aws} for {@code aws_instance}), used when no {@code provider} argument is given.
     */
    public String impliedProviderName() {
        int u = type.indexOf('_');
        return u < 0 ? type : type.substring(0, u);
    }

    // Written out: the generated record methods go through method handles that C1 (the compiler of plans
    // and applies) does not inline, and resources key the maps of every plan.
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof Resource r && mode == r.mode && name.equals(r.name) && type.equals(r.type);
    }

    @Override
    public int hashCode() {
        return (31 * mode.hashCode() + type.hashCode()) * 31 + name.hashCode();
    }

    /** The order of the canonical renderings ({@link Referenceable}), without rendering either. */
    @Override
    public int compareTo(Referenceable o) {
        if (!(o instanceof Resource r)) {
            return Referenceable.super.compareTo(o);
        }
        if (this == r) {
            return 0;
        }
        return Addrs.compareTexts(
                new String[] {mode.prefix(), type, ".", name}, new String[] {r.mode.prefix(), r.type, ".", r.name});
    }

    @Override
    public String toString() {
        return mode.prefix() + type + "." + name;
    }
}
