package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import java.util.List;

/**
 * A {@code variable} block of a stack. The type is required; {@code defaultExpr} is null when the
 * variable has no default (callers must set it).
 */
public record StackVariable(
        String name,
        StackType type,
        Expression typeExpr,
        Expression defaultExpr,
        String description,
        boolean sensitive,
        boolean ephemeral,
        boolean nullable,
        List<ValidationRule> validations,
        SourceRange declRange) {
    public StackVariable {
        validations = List.copyOf(validations);
    }

    public boolean required() {
        return defaultExpr == null;
    }
}
