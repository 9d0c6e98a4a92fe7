package dev.strata.hcl;

import java.util.List;
import java.util.Map;

/**
 * A body decoded against a schema: attributes by name (sorted), blocks in source order, and the
 * range where a missing item would go (for "Missing required argument").
 */
public record BodyContent(Map<String, Attribute> attributes, List<Block> blocks, SourceRange missingItemRange) {
    public BodyContent {
        attributes = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(attributes));
        blocks = List.copyOf(blocks);
    }

    public List<Block> blocksOfType(String type) {
        return blocks.stream().filter(b -> b.type().equals(type)).toList();
    }
}
