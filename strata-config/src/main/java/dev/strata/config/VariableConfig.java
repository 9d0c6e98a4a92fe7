package dev.strata.config;

import dev.strata.addr.InputVariable;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.value.TypeConstraint;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * A {@code variable} block. {@code defaultValue} is the default converted to the type constraint
 * (with optional attributes filled), or null when there is no default (the variable is required).
 * {@code defaultExpr} keeps the written expression for error ranges.
 */
public record VariableConfig(
        String name,
        String description,
        TypeConstraint type,
        boolean typeDeclared,
        Value defaultValue,
        Expression defaultExpr,
        boolean sensitive,
        boolean nullable,
        boolean ephemeral,
        List<CheckRule> validations,
        SourceRange declRange) {
    public VariableConfig {
        validations = List.copyOf(validations);
    }

    public InputVariable addr() {
        return new InputVariable(name);
    }

    public boolean required() {
        return defaultValue == null;
    }
}
