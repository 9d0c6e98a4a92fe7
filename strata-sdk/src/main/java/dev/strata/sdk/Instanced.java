package dev.strata.sdk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A declaration that may be repeated with {@code count} or {@code for_each} and may depend on others:
 * resources, data sources, module calls.
 */
abstract sealed class Instanced<S extends Instanced<S>> extends Body<S> permits Typed, ModuleCall {
    record Repetition(Value value, Site site) {}

    final String name;
    Repetition count;
    Repetition forEach;
    final List<Dependable> dependsOn = new ArrayList<>();

    Instanced(Stack stack, String name, Site site) {
        super(stack, site);
        this.name = name;
    }

    /** The root of this declaration's lineage: {@code aws_vpc.main}, {@code data.x.y}, {@code module.m}. */
    abstract String root();

    abstract Declaration declaration();

    Lineage lineage() {
        return Lineage.of(stack, declaration(), root());
    }

    public S count(NumberValue count) {
        this.count = new Repetition(count, Site.capture());
        return self();
    }

    public S count(long count) {
        return count(new NumberValue(new Expr.Num(java.math.BigDecimal.valueOf(count)), Site.capture()));
    }

    /** {@code for_each} over a map or a set of strings. */
    public S forEach(Value collection) {
        this.forEach = new Repetition(collection, Site.capture());
        return self();
    }

    public S dependsOn(Dependable... others) {
        dependsOn.addAll(Arrays.asList(others));
        return self();
    }

    /** {@code count.index}, for this declaration's own arguments. */
    public NumberValue countIndex() {
        Site s = Site.capture();
        return new NumberValue(new Expr.Ref(Lineage.of(stack, declaration(), "count", "index"), s), s);
    }

    /** {@code each.key}, for this declaration's own arguments. */
    public StringValue eachKey() {
        Site s = Site.capture();
        return new StringValue(new Expr.Ref(Lineage.of(stack, declaration(), "each", "key"), s), s);
    }

    /** {@code each.value}, for this declaration's own arguments. */
    public AnyValue eachValue() {
        Site s = Site.capture();
        return new AnyValue(new Expr.Ref(Lineage.of(stack, declaration(), "each", "value"), s), s);
    }

    /** The whole object (a list of instances with {@code count}, a map with {@code for_each}). */
    public AnyValue all() {
        Site s = Site.capture();
        return new AnyValue(new Expr.Ref(lineage(), s), s);
    }

    /** One instance of a counted declaration: {@code aws_subnet.a[0]}. */
    public ObjectValue instance(long index) {
        Site s = Site.capture();
        return new ObjectValue(new Expr.Ref(lineage().index(index), s), s);
    }

    /** One instance of a declaration with {@code for_each}: {@code aws_subnet.a["x"]}. */
    public ObjectValue instance(String key) {
        Site s = Site.capture();
        return new ObjectValue(new Expr.Ref(lineage().key(key), s), s);
    }

    /** The instance an expression selects: {@code aws_subnet.a[count.index]}, {@code aws_subnet.a[each.key]}. */
    public ObjectValue instance(Value key) {
        Site s = Site.capture();
        return new ObjectValue(new Expr.Ref(lineage().indexBy(key.expr()), s), s);
    }

    /** {@code aws_subnet.a[*].id}: an attribute of every instance of a counted declaration. */
    public ListValue splat(String attribute) {
        Site s = Site.capture();
        return new ListValue(new Expr.Ref(lineage().splat().member(attribute), s), s);
    }

    public String name() {
        return name;
    }

    public Stack stack() {
        return stack;
    }

    public Site site() {
        return site;
    }
}
