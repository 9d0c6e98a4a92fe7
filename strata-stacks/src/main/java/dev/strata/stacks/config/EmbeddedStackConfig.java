package dev.strata.stacks.config;

import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import java.util.List;

/**
 * A {@code stack} block: an embedded stack called with {@code inputs}, possibly many times
 * ({@code for_each}).
 *
 * @param stack the embedded stack's configuration, or null when its source could not be loaded
 */
public record EmbeddedStackConfig(
        String name,
        String source,
        SourceRange sourceRange,
        Expression version,
        Expression inputs,
        Expression forEach,
        List<Traversal> dependsOn,
        StackConfig stack,
        SourceRange declRange) {
    public EmbeddedStackConfig {
        dependsOn = List.copyOf(dependsOn);
    }
}
