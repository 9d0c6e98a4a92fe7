package dev.strata.sdk;

/** A data source, by type name; its attributes have the lineage {@code data.TYPE.NAME.attr}. */
public final class DataSource extends Typed<DataSource> implements Declaration, Dependable {
    DataSource(Stack stack, String type, String name, Site site) {
        super(stack, type, name, site);
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
}
