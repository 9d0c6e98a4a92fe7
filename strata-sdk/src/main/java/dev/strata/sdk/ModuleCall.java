package dev.strata.sdk;

import java.util.TreeMap;

/**
 * A call of an existing Terraform module: {@code stack.module("vpc", "./modules/vpc").input("cidr", cidr)};
 * {@link #output} is a value whose lineage is {@code module.vpc.NAME}.
 */
public final class ModuleCall extends Instanced<ModuleCall> implements Declaration, Dependable {
    final String source;
    String version;
    /** The module's provider local name → the configuration passed to it. */
    final TreeMap<String, Provider> providers = new TreeMap<>();

    ModuleCall(Stack stack, String name, String source, Site site) {
        super(stack, name, site);
        this.source = source;
    }

    @Override
    ModuleCall self() {
        return this;
    }

    @Override
    String root() {
        return "module." + name;
    }

    @Override
    Declaration declaration() {
        return this;
    }

    public String source() {
        return source;
    }

    public ModuleCall version(String constraint) {
        this.version = constraint;
        return this;
    }

    /** An input variable of the module (the same as {@link #arg}). */
    public ModuleCall input(String name, Value value) {
        return arg(name, value);
    }

    /** Passes a provider configuration under the module's local name: {@code providers = { aws = aws.east }}. */
    public ModuleCall provider(String localName, Provider configuration) {
        providers.put(localName, configuration);
        return this;
    }

    /** An output of the module: {@code module.vpc.private_subnets}. */
    public AnyValue output(String name) {
        Site s = Site.capture();
        return new AnyValue(new Expr.Ref(lineage().member(name), s), s);
    }

    @Override
    public Address address() {
        return new Address(root(), java.util.List.of(name), site);
    }

    @Override
    public String toString() {
        return root();
    }
}
