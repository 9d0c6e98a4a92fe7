package dev.strata.hcl;

/** {@code name = expr} in a body. */
public record Attribute(String name, Expression expr, SourceRange range, SourceRange nameRange) {}
