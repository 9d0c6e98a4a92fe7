package dev.strata.sdk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Expressions composing values: function calls, conditionals, string templates and {@code for}
 * expressions. The results carry the lineages of their operands inside their expression.
 */
public final class Fn {
    private Fn() {}

    /** Any of Terraform's functions by name; the result's type is the caller's to state with the views of {@link AnyValue}. */
    public static AnyValue call(String function, Value... args) {
        return new AnyValue(
                new Expr.Call(function, Arrays.stream(args).map(Value::expr).toList()), Site.capture());
    }

    public static StringValue cidrsubnet(StringValue prefix, long newbits, NumberValue netnum) {
        return new StringValue(
                new Expr.Call("cidrsubnet", List.of(prefix.expr(), num(newbits), netnum.expr())), Site.capture());
    }

    public static StringValue cidrsubnet(StringValue prefix, long newbits, long netnum) {
        return new StringValue(
                new Expr.Call("cidrsubnet", List.of(prefix.expr(), num(newbits), num(netnum))), Site.capture());
    }

    public static NumberValue length(Value collection) {
        return new NumberValue(new Expr.Call("length", List.of(collection.expr())), Site.capture());
    }

    public static StringValue join(String separator, ListValue list) {
        return new StringValue(new Expr.Call("join", List.of(new Expr.Str(separator), list.expr())), Site.capture());
    }

    public static SetValue toset(Value collection) {
        return new SetValue(new Expr.Call("toset", List.of(collection.expr())), Site.capture());
    }

    public static StringValue upper(StringValue s) {
        return new StringValue(new Expr.Call("upper", List.of(s.expr())), Site.capture());
    }

    /** {@code condition ? whenTrue : whenFalse}, typed as {@code whenTrue}. */
    public static <V extends Value> V cond(BoolValue condition, V whenTrue, Value whenFalse) {
        return Exprs.like(
                whenTrue, new Expr.Conditional(condition.expr(), whenTrue.expr(), whenFalse.expr()), Site.capture());
    }

    /**
     * A string template: {@link String} parts are literal text ({@code ${} and {@code %{} in them stay
     * literal), {@link Value} parts are interpolated.
     */
    public static StringValue template(Object... parts) {
        List<Expr> out = new ArrayList<>();
        for (Object p : parts) {
            Expr e = switch (p) {
                case String s -> new Expr.Str(s);
                case Value v -> v.expr();
                case null -> throw new IllegalArgumentException("a template part is null");
                default ->
                    throw new IllegalArgumentException("a template part is a String or a Value, not a "
                            + p.getClass().getSimpleName());
            };
            // Adjacent literal text merges, so equal templates render equally.
            if (e instanceof Expr.Str s && !out.isEmpty() && out.get(out.size() - 1) instanceof Expr.Str prev) {
                out.set(out.size() - 1, new Expr.Str(prev.value() + s.value()));
            } else {
                out.add(e);
            }
        }
        if (out.size() == 1 && out.get(0) instanceof Expr.Str s) {
            return new StringValue(s, Site.capture());
        }
        return new StringValue(new Expr.Template(out), Site.capture());
    }

    /** {@code [for var in collection : body(var)]}. */
    public static ListValue forList(String var, Value collection, Function<AnyValue, ? extends Value> body) {
        AnyValue v = iterator(var, collection);
        return new ListValue(
                new Expr.For(null, var, collection.expr(), null, body.apply(v).expr(), null), Site.capture());
    }

    /** {@code [for keyVar, valueVar in collection : body(k, v)]}: with the index of a list or the key of a map. */
    public static ListValue forList(
            String keyVar,
            String valueVar,
            Value collection,
            java.util.function.BiFunction<AnyValue, AnyValue, ? extends Value> body) {
        AnyValue k = iterator(keyVar, collection);
        AnyValue v = iterator(valueVar, collection);
        return new ListValue(
                new Expr.For(
                        keyVar,
                        valueVar,
                        collection.expr(),
                        null,
                        body.apply(k, v).expr(),
                        null),
                Site.capture());
    }

    /** {@code [for var in collection : body(var) if where(var)]}. */
    public static ListValue forList(
            String var,
            Value collection,
            Function<AnyValue, ? extends Value> body,
            Function<AnyValue, BoolValue> where) {
        AnyValue v = iterator(var, collection);
        return new ListValue(
                new Expr.For(
                        null,
                        var,
                        collection.expr(),
                        null,
                        body.apply(v).expr(),
                        where.apply(v).expr()),
                Site.capture());
    }

    /** {@code {for var in collection : key(var) => value(var)}}. */
    public static MapValue forMap(
            String var,
            Value collection,
            Function<AnyValue, StringValue> key,
            Function<AnyValue, ? extends Value> value) {
        AnyValue v = iterator(var, collection);
        return new MapValue(
                new Expr.For(
                        null,
                        var,
                        collection.expr(),
                        key.apply(v).expr(),
                        value.apply(v).expr(),
                        null),
                Site.capture());
    }

    /** {@code {for keyVar, valueVar in collection : key(k, v) => value(k, v)}}: over a map's keys or a list's indexes. */
    public static MapValue forMap(
            String keyVar,
            String valueVar,
            Value collection,
            java.util.function.BiFunction<AnyValue, AnyValue, StringValue> key,
            java.util.function.BiFunction<AnyValue, AnyValue, ? extends Value> value) {
        AnyValue k = iterator(keyVar, collection);
        AnyValue v = iterator(valueVar, collection);
        return new MapValue(
                new Expr.For(
                        keyVar,
                        valueVar,
                        collection.expr(),
                        key.apply(k, v).expr(),
                        value.apply(k, v).expr(),
                        null),
                Site.capture());
    }

    private static AnyValue iterator(String var, Value collection) {
        Stack stack = Exprs.refs(collection.expr()).stream()
                .map(r -> r.lineage().stack())
                .findFirst()
                .orElse(Stack.LOOSE);
        Site site = Site.capture();
        return new AnyValue(new Expr.Ref(Lineage.of(stack, null, var), site), site);
    }

    private static Expr num(long n) {
        return new Expr.Num(java.math.BigDecimal.valueOf(n));
    }
}
