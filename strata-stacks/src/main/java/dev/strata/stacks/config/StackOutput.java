package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/** An {@code output} block of a stack: the type is required. */
public record StackOutput(
        String name,
        StackType type,
        Expression value,
        String description,
        boolean sensitive,
        boolean ephemeral,
        SourceRange declRange) {}
