package dev.strata.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/** A {@code validation}, {@code precondition}, {@code postcondition} or {@code assert} block. */
public record CheckRule(Expression condition, Expression errorMessage, SourceRange declRange) {}
