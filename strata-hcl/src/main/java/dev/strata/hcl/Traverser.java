package dev.strata.hcl;

/** One step of a {@link Traversal}. */
public sealed interface Traverser {
    SourceRange range();

    /** The first step: a variable name such as {@code var}, {@code aws_instance}, {@code each}. */
    record Root(String name, SourceRange range) implements Traverser {}

    /** {@code .name} */
    record Attr(String name, SourceRange range) implements Traverser {}

    /** {@code [key]} with a literal key, or the legacy {@code .0} form. */
    record Index(Literal key, SourceRange range) implements Traverser {}

    /** {@code .*} or {@code [*]} in a static traversal such as {@code ignore_changes}. */
    record Splat(SourceRange range) implements Traverser {}
}
