package dev.strata.sdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** Arguments and nested blocks: what a resource, data source, provider, module call and nested block share. */
abstract sealed class Body<S extends Body<S>> permits Block, Provider, Instanced {
    record Arg(Value value, Site site) {}

    /** A {@code dynamic "type"} block: {@code content} once per element of {@code forEach}, under {@code iterator}. */
    record Dynamic(String type, String iterator, Value forEach, Block content, Site site) {}

    final Stack stack;
    final Site site;
    final TreeMap<String, Arg> args = new TreeMap<>();
    final List<Block> blocks = new ArrayList<>();
    final List<Dynamic> dynamics = new ArrayList<>();

    Body(Stack stack, Site site) {
        this.stack = stack;
        this.site = site;
    }

    abstract S self();

    /** Sets an argument (again: the last value wins). */
    public S arg(String name, Value value) {
        Objects.requireNonNull(value, "value");
        args.put(Objects.requireNonNull(name, "name"), new Arg(value, Site.capture()));
        return self();
    }

    public S arg(String name, String literal) {
        return arg(name, new StringValue(new Expr.Str(literal), Site.capture()));
    }

    public S arg(String name, long literal) {
        return arg(name, new NumberValue(new Expr.Num(java.math.BigDecimal.valueOf(literal)), Site.capture()));
    }

    public S arg(String name, boolean literal) {
        return arg(name, new BoolValue(new Expr.Bool(literal), Site.capture()));
    }

    /** Adds a nested block of the given type; repeated blocks keep their program order. */
    public S block(String type, Consumer<Block> body) {
        Block b = new Block(stack, type, Site.capture());
        body.accept(b);
        blocks.add(b);
        return self();
    }

    /**
     * A dynamic block: one {@code type} block per element of {@code forEach} (a map, set or list).
     * {@code content} writes the block's body with the iterator, which is named like the block:
     * {@code it.get("key")} and {@code it.get("value")} are {@code TYPE.key} and {@code TYPE.value}.
     */
    public S dynamic(String type, Value forEach, BiConsumer<Block, AnyValue> content) {
        return dynamic(type, type, forEach, content);
    }

    /** As {@link #dynamic(String, Value, BiConsumer)}, with the iterator named {@code iterator}. */
    public S dynamic(String type, String iterator, Value forEach, BiConsumer<Block, AnyValue> content) {
        Objects.requireNonNull(forEach, "forEach");
        Site s = Site.capture();
        Block b = new Block(stack, type, s);
        content.accept(b, new AnyValue(new Expr.Ref(Lineage.of(stack, null, iterator), s), s));
        dynamics.add(new Dynamic(type, iterator, forEach, b, s));
        return self();
    }

    Map<String, Arg> args() {
        return args;
    }
}
