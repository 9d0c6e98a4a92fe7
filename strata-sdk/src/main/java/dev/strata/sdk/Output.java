package dev.strata.sdk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An output value of the stack. */
public final class Output extends Declared implements Declaration {
    final Value value;
    String description;
    boolean sensitive;
    final List<Dependable> dependsOn = new ArrayList<>();

    Output(Stack stack, String name, Value value, Site site) {
        super(stack, name, site);
        this.value = value;
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
    public String toString() {
        return "output." + name;
    }
}
