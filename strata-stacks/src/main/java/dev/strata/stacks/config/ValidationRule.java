package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/** A {@code validation} block of a stack variable. */
public record ValidationRule(Expression condition, Expression errorMessage, SourceRange declRange) {}
