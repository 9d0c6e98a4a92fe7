package dev.strata.config;

import dev.strata.addr.ModuleCall;
import dev.strata.addr.VersionConstraint;
import dev.strata.hcl.Attribute;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import java.util.List;
import java.util.Map;

/**
 * A {@code module} block. {@code inputs} are the remaining arguments, the child's variables.
 * {@code version} is null when not given. {@code missingItemRange} is where a missing argument is
 * reported (the block's opening brace).
 */
public record ModuleCallConfig(
        String name,
        String source,
        SourceRange sourceRange,
        VersionConstraint version,
        Expression count,
        Expression forEach,
        List<Traversal> dependsOn,
        List<PassedProvider> providers,
        Map<String, Attribute> inputs,
        SourceRange declRange,
        SourceRange missingItemRange) {
    public ModuleCallConfig {
        dependsOn = List.copyOf(dependsOn);
        providers = List.copyOf(providers);
        inputs = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(inputs));
    }

    public ModuleCall addr() {
        return new ModuleCall(name);
    }

    public boolean isInstanced() {
        return count != null || forEach != null;
    }

    /** {@code ./x} or {@code ../x}: a directory relative to the calling module. */
    public boolean isLocalSource() {
        return source.startsWith("./")
                || source.startsWith("../")
                || source.startsWith(".\\")
                || source.startsWith("..\\");
    }
}
