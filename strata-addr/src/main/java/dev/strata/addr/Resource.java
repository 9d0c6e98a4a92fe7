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

    @Override
    public String toString() {
        return mode.prefix() + type + "." + name;
    }
}
