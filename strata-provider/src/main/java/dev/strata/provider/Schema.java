package dev.strata.provider;

import java.util.Objects;

/**
 * The schema of a provider's configuration, a resource type or a data source: a block and, for
 * resource types, the version of the state layout, which {@code upgradeResourceState} migrates
 * from when a stored object has an older one.
 */
public record Schema(long version, Block block) {

    public Schema {
        Objects.requireNonNull(block, "block");
        if (version < 0) {
            throw new IllegalArgumentException("negative schema version");
        }
    }

    public static Schema of(Block block) {
        return new Schema(0, block);
    }
}
