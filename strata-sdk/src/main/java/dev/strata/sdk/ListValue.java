package dev.strata.sdk;

import java.util.Arrays;
import java.util.List;

/** A list or tuple. Elements read from a reference extend its lineage: {@code module.vpc.private_subnets[0]}. */
public record ListValue(Expr expr, Site site) implements Value {
    public ListValue {
        Exprs.require(expr, site);
    }

    public static ListValue of(Value... items) {
        return of(Arrays.asList(items));
    }

    public static ListValue of(List<? extends Value> items) {
        return new ListValue(new Expr.Tuple(items.stream().map(Value::expr).toList()), Site.capture());
    }

    public static ListValue ofStrings(String... items) {
        return new ListValue(
                new Expr.Tuple(Arrays.stream(items).<Expr>map(Expr.Str::new).toList()), Site.capture());
    }

    public AnyValue get(long index) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.Index(index)), Site.capture());
    }

    public AnyValue get(NumberValue index) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.IndexBy(index.expr())), Site.capture());
    }

    /** {@code list[*].name}: the attribute of every element. */
    public ListValue splat(String attribute) {
        Expr all = Exprs.step(expr, new Lineage.Segment.Splat());
        return new ListValue(Exprs.step(all, new Lineage.Segment.Member(attribute)), Site.capture());
    }
}
