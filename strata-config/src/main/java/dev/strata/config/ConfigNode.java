package dev.strata.config;

import dev.strata.addr.Module;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One module in the static configuration tree: its path from the root, its configuration, the call
 * that brought it in (null for the root) and its children by call name. A call whose module could not
 * be loaded has no child node.
 */
public record ConfigNode(
        Module path, ModuleConfig module, ModuleCallConfig call, SortedMap<String, ConfigNode> children) {
    public ConfigNode {
        children = Collections.unmodifiableSortedMap(new TreeMap<>(children));
    }

    public boolean isRoot() {
        return path.isRoot();
    }
}
