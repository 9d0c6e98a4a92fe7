package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/** One entry of a {@code locals} block (stack or deployment configuration). */
public record StackLocal(String name, Expression expr, SourceRange declRange) {}
