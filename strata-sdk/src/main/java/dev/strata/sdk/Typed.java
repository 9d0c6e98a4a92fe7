package dev.strata.sdk;

import java.util.List;

/** What resources and data sources share: a type name, attributes, a provider configuration. */
abstract sealed class Typed<S extends Typed<S>> extends Instanced<S> permits Resource, DataSource {
    final String type;
    Provider provider;
    Site providerSite;

    Typed(Stack stack, String type, String name, Site site) {
        super(stack, name, site);
        this.type = type;
    }

    public String type() {
        return type;
    }

    /** An attribute (argument or computed), e.g. {@code aws_vpc.main.id}: known to Terraform, often only after apply. */
    public AnyValue attr(String name) {
        Site s = Site.capture();
        return new AnyValue(new Expr.Ref(lineage().member(name), s), s);
    }

    /** The non-default provider configuration: {@code provider = aws.east}. */
    public S provider(Provider provider) {
        this.provider = provider;
        this.providerSite = Site.capture();
        return self();
    }

    public Address address() {
        return new Address(root(), List.of(type, name), site);
    }

    @Override
    public String toString() {
        return root();
    }
}
