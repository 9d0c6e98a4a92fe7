package dev.strata.stacks.addr;

/** A {@code deployment "NAME"} block of a deployment configuration. */
public record DeploymentAddr(String name) implements Comparable<DeploymentAddr> {
    public DeploymentAddr {
        java.util.Objects.requireNonNull(name);
    }

    @Override
    public int compareTo(DeploymentAddr o) {
        return name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return "deployment." + name;
    }
}
