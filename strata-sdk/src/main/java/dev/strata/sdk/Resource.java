package dev.strata.sdk;

import java.util.function.Consumer;

/**
 * A managed resource, by type name: {@code stack.resource("aws_vpc", "main").arg("cidr_block", "10.0.0.0/16")}.
 * {@link #attr} gives an attribute as a value whose lineage is {@code aws_vpc.main.NAME}.
 */
public final class Resource extends Instanced<Resource> implements Declaration, Dependable {
    final String type;
    Provider provider;
    Site providerSite;
    final Lifecycle lifecycle = new Lifecycle();

    Resource(Stack stack, String type, String name, Site site) {
        super(stack, name, site);
        this.type = type;
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

    public String type() {
        return type;
    }

    /** An attribute (argument or computed): {@code aws_vpc.main.id}. Known to Terraform, often only after apply. */
    public AnyValue attr(String name) {
        Site s = Site.capture();
        return new AnyValue(new Expr.Ref(lineage().member(name), s), s);
    }

    /** The non-default provider configuration: {@code provider = aws.east}. */
    public Resource provider(Provider provider) {
        this.provider = provider;
        this.providerSite = Site.capture();
        return this;
    }

    public Resource lifecycle(Consumer<Lifecycle> settings) {
        settings.accept(lifecycle);
        return this;
    }

    @Override
    public Address address() {
        return new Address(root(), java.util.List.of(type, name), site);
    }

    @Override
    public String toString() {
        return root();
    }
}
