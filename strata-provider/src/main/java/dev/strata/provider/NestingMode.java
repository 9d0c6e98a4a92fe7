package dev.strata.provider;

/** How a nested block may appear in its parent, as in the protocol's {@code NestedBlock.NestingMode}. */
public enum NestingMode {
    /** At most one block; its value is an object, null when absent. */
    SINGLE,
    /** A sequence of blocks; the value is a list of objects. */
    LIST,
    /** An unordered collection of distinct blocks; the value is a set of objects. */
    SET,
    /** Blocks with one label each; the value is a map of objects keyed by label. */
    MAP
}
