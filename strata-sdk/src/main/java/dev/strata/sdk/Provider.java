package dev.strata.sdk;

/** A provider configuration, the default one or an alias ({@code aws.east}). */
public final class Provider extends Body<Provider> implements Declaration {
    final String name;
    String alias;

    Provider(Stack stack, String name, Site site) {
        super(stack, site);
        this.name = name;
    }

    @Override
    Provider self() {
        return this;
    }

    public Provider alias(String alias) {
        this.alias = alias;
        return this;
    }

    /** How resources name it: {@code aws} or {@code aws.east}. */
    public String reference() {
        return alias == null ? name : name + "." + alias;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Stack stack() {
        return stack;
    }

    @Override
    public Site site() {
        return site;
    }

    @Override
    public String toString() {
        return reference();
    }
}
