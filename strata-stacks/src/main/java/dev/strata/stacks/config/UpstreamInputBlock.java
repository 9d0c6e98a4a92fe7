package dev.strata.stacks.config;

import dev.strata.hcl.SourceRange;

/**
 * An {@code upstream_input "NAME"} block: the published outputs of another Stack
 * ({@code type = "stack"}), read as {@code upstream_input.NAME.OUTPUT}. Locally, {@code source} is
 * the other Stack's directory, relative to this one.
 */
public record UpstreamInputBlock(
        String name, String type, String source, SourceRange sourceRange, SourceRange declRange) {}
