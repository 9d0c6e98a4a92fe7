package dev.strata.sdk;

/** A local value, declared by {@link Stack#local}. */
public record Local(Stack stack, String name, Value value, Site site) implements Declaration {
    @Override
    public String toString() {
        return "local." + name;
    }
}
