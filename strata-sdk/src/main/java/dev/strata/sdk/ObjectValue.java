package dev.strata.sdk;

import java.util.Map;
import java.util.TreeMap;

/** An object: a resource instance, a nested block's value, a module's outputs. */
public record ObjectValue(Expr expr, Site site) implements Value {
    public ObjectValue {
        Exprs.require(expr, site);
    }

    public static ObjectValue of(Map<String, ? extends Value> attributes) {
        TreeMap<String, Expr> m = new TreeMap<>();
        attributes.forEach((k, v) -> m.put(k, v.expr()));
        return new ObjectValue(new Expr.Obj(m), Site.capture());
    }

    /** {@code .name}. */
    public AnyValue get(String attribute) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.Member(attribute)), Site.capture());
    }
}
