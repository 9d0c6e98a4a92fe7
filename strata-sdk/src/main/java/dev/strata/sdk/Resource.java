package dev.strata.sdk;

import java.util.function.Consumer;

/**
 * A managed resource, by type name: {@code stack.resource("aws_vpc", "main").arg("cidr_block", "10.0.0.0/16")}.
 * {@link #attr} gives an attribute as a value whose lineage is {@code aws_vpc.main.NAME}.
 */
public final class Resource extends Typed<Resource> implements Declaration, Dependable {
    final Lifecycle lifecycle = new Lifecycle();

    Resource(Stack stack, String type, String name, Site site) {
        super(stack, type, name, site);
    }

    @Override
    Resource self() {
        return this;
    }

    @Override
    String root() {
        return type + "." + name;
    }

    @Override
    Declaration declaration() {
        return this;
    }

    public Resource lifecycle(Consumer<Lifecycle> settings) {
        settings.accept(lifecycle);
        return this;
    }
}
