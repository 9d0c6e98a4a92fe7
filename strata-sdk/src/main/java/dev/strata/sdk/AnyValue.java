package dev.strata.sdk;

/**
 * A value whose type the program does not state (an attribute of an untyped resource, a module
 * output, {@code each.value}). Navigate it, or view it as the type it has: the views change only the
 * Java type, never the expression.
 */
public record AnyValue(Expr expr, Site site) implements Value {
    public AnyValue {
        Exprs.require(expr, site);
    }

    public static AnyValue nullValue() {
        return new AnyValue(new Expr.Null(), Site.capture());
    }

    public AnyValue get(String attribute) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.Member(attribute)), Site.capture());
    }

    public AnyValue get(long index) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.Index(index)), Site.capture());
    }

    public AnyValue key(String key) {
        return new AnyValue(Exprs.step(expr, new Lineage.Segment.Key(key)), Site.capture());
    }

    public StringValue asString() {
        return new StringValue(expr, site);
    }

    public NumberValue asNumber() {
        return new NumberValue(expr, site);
    }

    public BoolValue asBool() {
        return new BoolValue(expr, site);
    }

    public ListValue asList() {
        return new ListValue(expr, site);
    }

    public SetValue asSet() {
        return new SetValue(expr, site);
    }

    public MapValue asMap() {
        return new MapValue(expr, site);
    }

    public ObjectValue asObject() {
        return new ObjectValue(expr, site);
    }
}
