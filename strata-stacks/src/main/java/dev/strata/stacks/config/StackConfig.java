package dev.strata.stacks.config;

import dev.strata.stacks.addr.ProviderConfigAddr;
import dev.strata.stacks.addr.StackPath;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One stack's configuration: everything the {@code .tfcomponent.hcl} (formerly
 * {@code .tfstack.hcl}) and {@code .tfcomponent.json} files of its directory declare, with embedded
 * stacks and component modules loaded. Maps are sorted by name so walks are deterministic.
 *
 * @param dir       the stack's directory
 * @param path      where this stack sits in the configuration tree
 * @param files     display names of the files read for this stack, in load order
 * @param language  the {@code language} edition keyword, or null when not set
 * @param sources   the bytes of every file read for this stack, its embedded stacks and its
 *                  components' modules, by display name (for rendering diagnostics)
 */
public record StackConfig(
        Path dir,
        StackPath path,
        List<String> files,
        String language,
        SortedMap<String, StackRequiredProvider> requiredProviders,
        SortedMap<String, StackVariable> variables,
        SortedMap<String, StackOutput> outputs,
        SortedMap<String, StackLocal> locals,
        SortedMap<String, ComponentConfig> components,
        SortedMap<String, EmbeddedStackConfig> embeddedStacks,
        SortedMap<ProviderConfigAddr, ProviderBlock> providers,
        List<RemovedBlock> removed,
        Map<String, byte[]> sources) {
    public StackConfig {
        files = List.copyOf(files);
        requiredProviders = sorted(requiredProviders);
        variables = sorted(variables);
        outputs = sorted(outputs);
        locals = sorted(locals);
        components = sorted(components);
        embeddedStacks = sorted(embeddedStacks);
        providers = sorted(providers);
        removed = List.copyOf(removed);
        sources = Collections.unmodifiableMap(new TreeMap<>(sources));
    }

    private static <K, V> SortedMap<K, V> sorted(Map<K, V> m) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }

    /** The embedded stack at {@code path} below this one, or null when there is none. */
    public StackConfig descendant(StackPath sub) {
        StackConfig s = this;
        for (String n : sub.names()) {
            EmbeddedStackConfig e = s.embeddedStacks.get(n);
            if (e == null || e.stack() == null) {
                return null;
            }
            s = e.stack();
        }
        return s;
    }
}
