package dev.strata.sdk;

import java.util.ArrayList;
import java.util.List;

/** An input variable; {@link #value()} has the lineage {@code var.NAME}. */
public final class Variable extends Declared implements Declaration {
    record Validation(BoolValue condition, StringValue message, Site site) {}

    String type;
    Value defaultValue;
    String description;
    boolean sensitive;
    Boolean nullable;
    final List<Validation> validations = new ArrayList<>();

    Variable(Stack stack, String name, Site site) {
        super(stack, name, site);
    }

    /** A type constraint in Terraform's syntax: {@code string}, {@code list(string)}, {@code object({a = number})}. */
    public Variable type(String constraint) {
        this.type = constraint;
        return this;
    }

    /** The default; it must be a literal (Terraform evaluates defaults before anything else exists). */
    public Variable defaultValue(Value value) {
        this.defaultValue = value;
        return this;
    }

    public Variable defaultValue(String literal) {
        return defaultValue(new StringValue(new Expr.Str(literal), Site.capture()));
    }

    public Variable description(String text) {
        this.description = text;
        return this;
    }

    public Variable sensitive(boolean on) {
        this.sensitive = on;
        return this;
    }

    public Variable nullable(boolean on) {
        this.nullable = on;
        return this;
    }

    /** A validation rule; the condition should refer to {@link #value()}. */
    public Variable validation(BoolValue condition, String errorMessage) {
        validations.add(
                new Validation(condition, new StringValue(new Expr.Str(errorMessage), Site.capture()), Site.capture()));
        return this;
    }

    public AnyValue value() {
        Site s = Site.capture();
        return new AnyValue(new Expr.Ref(Lineage.of(stack, this, "var", name), s), s);
    }

    @Override
    public String toString() {
        return "var." + name;
    }
}
