package dev.strata.hcl;

import java.util.List;

/** A block type a body may contain, with the names of its labels (for messages). */
public record BlockHeaderSchema(String type, List<String> labelNames) {
    public BlockHeaderSchema {
        labelNames = List.copyOf(labelNames);
    }

    public static BlockHeaderSchema of(String type, String... labelNames) {
        return new BlockHeaderSchema(type, List.of(labelNames));
    }
}
