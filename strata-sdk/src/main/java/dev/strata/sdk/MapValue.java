package dev.strata.sdk;

import java.util.Map;
import java.util.TreeMap;

/** A map. Keys read from a reference extend its lineage: {@code local.tags["Environment"]}. */
public record MapValue(Expr expr, Site site) implements Value {
    public MapValue {
        Exprs.require(expr, site);
    }

    public static MapValue of(Map<String, ? extends Value> entries) {
        TreeMap<String, Expr> m = new TreeMap<>();
        entries.forEach((k, v) -> m.put(k, v.expr()));
        return new MapValue(new Expr.Obj(m), Site.capture());
    }

    public static MapValue ofStrings(Map<String, String> entries) {
        TreeMap<String, Expr> m = new TreeMap<>();
        entries.forEach((k, v) -> m.put(k, new Expr.Str(v)));
        return new MapValue(new Expr.Obj(m), Site.capture());
    }

    public AnyValue get(String key) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.Key(key)), Site.capture());
    }

    public AnyValue get(StringValue key) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.IndexBy(key.expr())), Site.capture());
    }
}
