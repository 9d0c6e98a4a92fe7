package dev.strata.sdk;

import java.util.Arrays;
import java.util.List;

/** A set. A literal set is written {@code toset([...])}: JSON has no set, and {@code for_each} needs one. */
public record SetValue(Expr expr, Site site) implements Value {
    public SetValue {
        Exprs.require(expr, site);
    }

    public static SetValue of(Value... items) {
        return of(Arrays.asList(items));
    }

    public static SetValue of(List<? extends Value> items) {
        return new SetValue(
                new Expr.Call(
                        "toset",
                        List.of(new Expr.Tuple(items.stream().map(Value::expr).toList()))),
                Site.capture());
    }

    public static SetValue ofStrings(String... items) {
        return new SetValue(
                new Expr.Call(
                        "toset",
                        List.of(new Expr.Tuple(
                                Arrays.stream(items).<Expr>map(Expr.Str::new).toList()))),
                Site.capture());
    }
}
