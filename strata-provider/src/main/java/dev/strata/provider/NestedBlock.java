package dev.strata.provider;

import java.util.Objects;

/**
 * A block type nested in a block schema: its nesting mode, its own schema and, for list and set
 * nesting, the number of blocks allowed ({@code maxItems} 0 means no limit).
 */
public record NestedBlock(NestingMode nesting, Block block, int minItems, int maxItems) {

    public NestedBlock {
        Objects.requireNonNull(nesting, "nesting");
        Objects.requireNonNull(block, "block");
        if (minItems < 0 || maxItems < 0 || (maxItems > 0 && minItems > maxItems)) {
            throw new IllegalArgumentException("bad item limits " + minItems + ".." + maxItems);
        }
    }

    public static NestedBlock of(NestingMode nesting, Block block) {
        return new NestedBlock(nesting, block, 0, 0);
    }
}
