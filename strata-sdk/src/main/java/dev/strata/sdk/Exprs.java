package dev.strata.sdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Building and walking expressions. */
final class Exprs {
    private Exprs() {}

    static void require(Expr expr, Site site) {
        Objects.requireNonNull(expr, "expr");
        Objects.requireNonNull(site, "site");
    }

    /**
     * One traversal step. A reference grows its lineage; a literal tuple or object gives the element
     * itself (a literal stays a literal); anything else gets the step applied to the expression.
     */
    static Expr step(Expr source, Lineage.Segment segment) {
        return switch (source) {
            case Expr.Ref r -> new Expr.Ref(r.lineage().with(segment), Site.capture());
            case Expr.Tuple t
            when segment instanceof Lineage.Segment.Index i
                    && i.index() < t.items().size() -> t.items().get((int) i.index());
            case Expr.Obj o
            when segment instanceof Lineage.Segment.Member m && o.attributes().containsKey(m.name()) ->
                o.attributes().get(m.name());
            case Expr.Obj o
            when segment instanceof Lineage.Segment.Key k && o.attributes().containsKey(k.key()) ->
                o.attributes().get(k.key());
            default -> new Expr.Step(source, segment);
        };
    }

    /** Every reference inside an expression, in order. */
    static List<Expr.Ref> refs(Expr e) {
        List<Expr.Ref> out = new ArrayList<>();
        collect(e, out);
        return out;
    }

    private static void collect(Expr e, List<Expr.Ref> out) {
        switch (e) {
            case Expr.Str s -> {}
            case Expr.Num n -> {}
            case Expr.Bool b -> {}
            case Expr.Null n -> {}
            case Expr.Tuple t -> t.items().forEach(i -> collect(i, out));
            case Expr.Obj o -> o.attributes().values().forEach(v -> collect(v, out));
            case Expr.Ref r -> {
                out.add(r);
                for (Lineage.Segment s : r.lineage().segments()) {
                    if (s instanceof Lineage.Segment.IndexBy by) {
                        collect(by.index(), out);
                    }
                }
            }
            case Expr.Step s -> {
                collect(s.source(), out);
                if (s.segment() instanceof Lineage.Segment.IndexBy by) {
                    collect(by.index(), out);
                }
            }
            case Expr.Call c -> c.args().forEach(a -> collect(a, out));
            case Expr.Conditional c -> {
                collect(c.condition(), out);
                collect(c.whenTrue(), out);
                collect(c.whenFalse(), out);
            }
            case Expr.Binary b -> {
                collect(b.left(), out);
                collect(b.right(), out);
            }
            case Expr.Unary u -> collect(u.operand(), out);
            case Expr.Template t -> t.parts().forEach(p -> collect(p, out));
            case Expr.For f -> {
                collect(f.collection(), out);
                if (f.key() != null) {
                    collect(f.key(), out);
                }
                collect(f.value(), out);
                if (f.condition() != null) {
                    collect(f.condition(), out);
                }
            }
        }
    }

    /** A value of the same Java type as {@code like}, holding {@code expr}. */
    @SuppressWarnings("unchecked")
    static <V extends Value> V like(V like, Expr expr, Site site) {
        Value v = switch (like) {
            case StringValue s -> new StringValue(expr, site);
            case NumberValue n -> new NumberValue(expr, site);
            case BoolValue b -> new BoolValue(expr, site);
            case ListValue l -> new ListValue(expr, site);
            case SetValue s -> new SetValue(expr, site);
            case MapValue m -> new MapValue(expr, site);
            case ObjectValue o -> new ObjectValue(expr, site);
            case AnyValue a -> new AnyValue(expr, site);
        };
        return (V) v;
    }

    static Expr obj(Map<String, ? extends Value> values) {
        java.util.TreeMap<String, Expr> m = new java.util.TreeMap<>();
        values.forEach((k, v) -> m.put(k, v.expr()));
        return new Expr.Obj(m);
    }
}
