package dev.strata.sdk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An output value of the stack. */
public final class Output implements Declaration {
    final Stack stack;
    final String name;
    final Value value;
    final Site site;
    String description;
    boolean sensitive;
    final List<Dependable> dependsOn = new ArrayList<>();

    Output(Stack stack, String name, Value value, Site site) {
        this.stack = stack;
        this.name = name;
        this.value = value;
        this.site = site;
    }

    public Output description(String text) {
        this.description = text;
        return this;
    }

    public Output sensitive(boolean on) {
        this.sensitive = on;
        return this;
    }

    public Output dependsOn(Dependable... others) {
        dependsOn.addAll(Arrays.asList(others));
        return this;
    }

    public Value value() {
        return value;
    }

    @Override
    public Stack stack() {
        return stack;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Site site() {
        return site;
    }
}
