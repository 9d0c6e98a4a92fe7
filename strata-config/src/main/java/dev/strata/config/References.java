package dev.strata.config;

import dev.strata.addr.Reference;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What each configuration object refers to, from its expressions' {@code variables()} and its
 * {@code depends_on}, as typed references with source ranges: the input the graph builder needs.
 * Names bound inside an object ({@code dynamic} block iterators, {@code for} variables) are not
 * references; malformed references are skipped here because static validation reports them.
 */
public final class References {
    private References() {}

    public static List<Reference> of(ResourceConfig r) {
        Collector c = new Collector();
        c.expr(r.count());
        c.expr(r.forEach());
        BodyWalk.expressions(r.config(), Set.of(), s -> c.expr(s.expr(), s.bound()));
        if (r.provider() != null) {
            c.expr(r.provider().key());
        }
        Lifecycle lc = r.lifecycle();
        lc.replaceTriggeredBy().forEach(c::expr);
        lc.preconditions().forEach(c::rule);
        lc.postconditions().forEach(c::rule);
        c.traversals(r.dependsOn());
        // Creation-time provisioners run with the values their expressions name, so those come first;
        // destroy-time ones may name only the resource itself (the validator makes sure).
        for (Provisioner p : r.provisioners(Provisioner.When.CREATE)) {
            BodyWalk.expressions(p.config(), Set.of(), s -> c.expr(s.expr(), s.bound()));
            if (p.connection() != null) {
                BodyWalk.expressions(p.connection().config(), Set.of(), s -> c.expr(s.expr(), s.bound()));
            }
        }
        if (r.connection() != null && !r.provisioners(Provisioner.When.CREATE).isEmpty()) {
            BodyWalk.expressions(r.connection().config(), Set.of(), s -> c.expr(s.expr(), s.bound()));
        }
        return c.out;
    }

    /**
     * The references of a resource's own arguments and nested blocks only (no {@code count}, {@code for_each},
     * {@code depends_on}, lifecycle or provisioners), after override files are merged: what makes up the
     * resource's object, as Terraform follows it to work out the attributes relevant to a plan.
     */
    public static List<Reference> ofArguments(ResourceConfig r) {
        Collector c = new Collector();
        BodyWalk.arguments(r.config(), name -> true, s -> c.expr(s.expr(), s.bound()));
        return c.out;
    }

    /**
     * The references of the argument (or nested blocks) named {@code name} in a resource's configuration,
     * after override files are merged, in native and JSON syntax alike: none when the configuration does
     * not set it (an attribute the provider computes).
     */
    public static List<Reference> ofArgument(ResourceConfig r, String name) {
        Collector c = new Collector();
        BodyWalk.arguments(r.config(), name::equals, s -> c.expr(s.expr(), s.bound()));
        return c.out;
    }

    /**
     * Whether a resource's configuration writes {@code name} as nested blocks (after override files are
     * merged; in JSON only a {@code dynamic} one is known to be a block).
     */
    public static boolean writesBlocks(ResourceConfig r, String name) {
        return BodyWalk.writtenAsBlocks(r.config(), name);
    }

    public static List<Reference> of(ModuleCallConfig m) {
        Collector c = new Collector();
        c.expr(m.count());
        c.expr(m.forEach());
        for (Attribute a : m.inputs().values()) {
            c.expr(a.expr());
        }
        m.providers().forEach(p -> c.expr(p.inParent().key()));
        c.traversals(m.dependsOn());
        return c.out;
    }

    /**
     * What decides a module call's instances and ordering ({@code count}, {@code for_each},
     * {@code depends_on}, provider keys), without its input arguments: validation gives each input
     * variable its own vertex, so a failed argument skips only what uses that variable.
     */
    public static List<Reference> ofExpansion(ModuleCallConfig m) {
        Collector c = new Collector();
        c.expr(m.count());
        c.expr(m.forEach());
        m.providers().forEach(p -> c.expr(p.inParent().key()));
        c.traversals(m.dependsOn());
        return c.out;
    }

    /** The references of one expression (a module call's input argument, for instance). */
    public static List<Reference> of(Expression e) {
        Collector c = new Collector();
        c.expr(e);
        return c.out;
    }

    public static List<Reference> of(OutputConfig o) {
        Collector c = new Collector();
        c.expr(o.value());
        o.preconditions().forEach(c::rule);
        c.traversals(o.dependsOn());
        return c.out;
    }

    public static List<Reference> of(LocalConfig l) {
        Collector c = new Collector();
        c.expr(l.expr());
        return c.out;
    }

    public static List<Reference> of(ProviderConfig p) {
        Collector c = new Collector();
        c.expr(p.forEach());
        BodyWalk.expressions(p.config(), Set.of(), s -> c.expr(s.expr(), s.bound()));
        return c.out;
    }

    /** A variable's validation rules may refer to other variables (Terraform 1.9+). */
    public static List<Reference> of(VariableConfig v) {
        Collector c = new Collector();
        v.validations().forEach(c::rule);
        return c.out;
    }

    private static final class Collector {
        final List<Reference> out = new ArrayList<>();

        void expr(Expression e) {
            expr(e, Set.of());
        }

        void expr(Expression e, Set<String> bound) {
            if (e == null) {
                return;
            }
            for (Traversal t : e.variables()) {
                if (!bound.contains(t.rootName())) {
                    traversal(t);
                }
            }
        }

        void rule(CheckRule r) {
            expr(r.condition());
            expr(r.errorMessage());
        }

        void traversals(List<Traversal> ts) {
            ts.forEach(this::traversal);
        }

        void traversal(Traversal t) {
            Result<Reference> r = Reference.parse(t);
            if (r.value() != null) {
                out.add(r.value());
            }
        }
    }
}
