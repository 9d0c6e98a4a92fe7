package dev.strata.stacks.config;

import dev.strata.config.ModuleConfig;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import java.nio.file.Path;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@code removed} block: a component or embedded stack no longer in the configuration, destroyed
 * ({@code lifecycle { destroy = true }}, the default) or forgotten, with the source and providers
 * needed to do so.
 *
 * @param moduleDir for a removed component, the directory its source resolved to (or null)
 * @param module    for a removed component, its root module (or null)
 * @param stack     for a removed embedded stack, its configuration (or null)
 * @param inputs    for a removed embedded stack, the {@code inputs} it is destroyed with (or null)
 */
public record RemovedBlock(
        RemovedTarget from,
        Expression fromExpr,
        Expression forEach,
        String source,
        SourceRange sourceRange,
        Expression version,
        Expression providers,
        SortedMap<String, ProviderArgument> providerArgs,
        boolean destroy,
        Path moduleDir,
        ModuleConfig module,
        StackConfig stack,
        SourceRange declRange,
        Expression inputs) {
    public RemovedBlock {
        providerArgs = Collections.unmodifiableSortedMap(new TreeMap<>(providerArgs));
    }
}
