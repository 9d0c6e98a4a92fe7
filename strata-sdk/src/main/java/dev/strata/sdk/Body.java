package dev.strata.sdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/** Arguments and nested blocks: what a resource, data source, provider, module call and nested block share. */
abstract sealed class Body<S extends Body<S>> permits Block, Provider, Instanced {
    record Arg(Value value, Site site) {}

    final Stack stack;
    final Site site;
    final TreeMap<String, Arg> args = new TreeMap<>();
    final List<Block> blocks = new ArrayList<>();

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

    Map<String, Arg> args() {
        return args;
    }
}
