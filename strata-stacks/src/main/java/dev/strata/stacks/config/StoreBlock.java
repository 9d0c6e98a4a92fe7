package dev.strata.stacks.config;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.SourceRange;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@code store "TYPE" "NAME"} block: where deployment inputs read secrets from
 * ({@code store.TYPE.NAME.KEY}). Strata runs the {@code env} and {@code file} stores locally; any
 * other type (HCP Terraform's {@code varset}) loads, and is an error only when referenced.
 */
public record StoreBlock(
        String type, String name, Kind kind, SortedMap<String, Attribute> arguments, SourceRange declRange) {
    public StoreBlock {
        arguments = Collections.unmodifiableSortedMap(new TreeMap<>(arguments));
    }

    /** What a store type means to Strata. */
    public enum Kind {
        /** Values from environment variables: {@code KEY}, or {@code prefix + KEY} when set. */
        ENV,
        /** Values from a JSON object file ({@code path}). */
        FILE,
        /** A store that only HCP Terraform can read. */
        HCP_ONLY
    }
}
