package dev.strata.config;

import dev.strata.addr.OutputValue;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import java.util.List;

/** An {@code output} block. */
public record OutputConfig(
        String name,
        Expression value,
        String description,
        boolean sensitive,
        boolean ephemeral,
        List<Traversal> dependsOn,
        List<CheckRule> preconditions,
        SourceRange declRange) {
    public OutputConfig {
        dependsOn = List.copyOf(dependsOn);
        preconditions = List.copyOf(preconditions);
    }

    public OutputValue addr() {
        return new OutputValue(name);
    }
}
