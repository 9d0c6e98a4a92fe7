package dev.strata.sdk;

/** A data source, by type name; its attributes have the lineage {@code data.TYPE.NAME.attr}. */
public final class DataSource extends Instanced<DataSource> implements Declaration, Dependable {
    final String type;
    Provider provider;
    Site providerSite;

    DataSource(Stack stack, String type, String name, Site site) {
        super(stack, name, site);
        this.type = type;
    }

    @Override
    DataSource self() {
        return this;
    }

    @Override
    String root() {
        return "data." + type + "." + name;
    }

    @Override
    Declaration declaration() {
        return this;
    }

    public String type() {
        return type;
    }

    public AnyValue attr(String name) {
        Site s = Site.capture();
        return new AnyValue(new Expr.Ref(lineage().member(name), s), s);
    }

    public DataSource provider(Provider provider) {
        this.provider = provider;
        this.providerSite = Site.capture();
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
