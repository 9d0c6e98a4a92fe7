package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;

/**
 * A {@code publish_output "NAME"} block: a value (usually from {@code deployment.NAME.OUTPUT}) that
 * another Stack can read through an {@code upstream_input}.
 *
 * @param type the declared type, or null when not declared
 */
public record PublishOutputBlock(
        String name, StackType type, Expression value, String description, SourceRange declRange) {}
