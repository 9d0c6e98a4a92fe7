package dev.strata.stacks.config;

import dev.strata.config.ModuleConfig;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@code component} block: a module called with {@code inputs} and {@code providers}, possibly
 * many times ({@code for_each}). The expressions stay unevaluated for the runtime.
 *
 * @param source       the {@code source} argument as written
 * @param version      the {@code version} argument (registry sources), or null
 * @param inputs       the {@code inputs} object expression, or null
 * @param providers    the {@code providers} map expression, or null
 * @param providerArgs the static entries of {@code providers}, by slot name
 * @param moduleDir    the directory the source resolved to, or null when it did not resolve
 * @param module       the root module of the component, or null when it could not be loaded
 */
public record ComponentConfig(
        String name,
        String source,
        SourceRange sourceRange,
        Expression version,
        Expression inputs,
        Expression providers,
        SortedMap<String, ProviderArgument> providerArgs,
        Expression forEach,
        List<Traversal> dependsOn,
        Path moduleDir,
        ModuleConfig module,
        SourceRange declRange) {
    public ComponentConfig {
        providerArgs = Collections.unmodifiableSortedMap(new TreeMap<>(providerArgs));
        dependsOn = List.copyOf(dependsOn);
    }
}
