package dev.strata.hcl;

import java.util.List;

/**
 * A static path such as {@code aws_instance.web[0].id}: a root name followed by attribute and index
 * steps. Expressions report the traversals they reference through {@link Expression#variables()}.
 */
public record Traversal(List<Traverser> steps) {

    public Traversal {
        steps = List.copyOf(steps);
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("empty traversal");
        }
    }

    /** True when the first step is a root name (an absolute traversal). */
    public boolean isAbsolute() {
        return steps.get(0) instanceof Traverser.Root;
    }

    public String rootName() {
        return steps.get(0) instanceof Traverser.Root r ? r.name() : null;
    }

    public SourceRange range() {
        return SourceRange.between(
                steps.get(0).range(), steps.get(steps.size() - 1).range());
    }

    public SourceRange rootRange() {
        return steps.get(0).range();
    }

    /**
     * The name of step {@code i} when it is an attribute step ({@code .name}): {@code var.x} has "x" at 1;
     * null when there is no step {@code i} or it is an index or splat.
     */
    public String attrName(int i) {
        return i < steps.size() && steps.get(i) instanceof Traverser.Attr a ? a.name() : null;
    }

    /** The range of the root and the steps after it up to step {@code i} (up to the last, when fewer). */
    public SourceRange rangeTo(int i) {
        return SourceRange.between(
                steps.get(0).range(), steps.get(Math.min(i, steps.size() - 1)).range());
    }

    /** Source-like rendering: {@code a.b[0]["k"]}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Traverser t : steps) {
            switch (t) {
                case Traverser.Root r -> sb.append(r.name());
                case Traverser.Attr a -> sb.append('.').append(a.name());
                case Traverser.Index i -> sb.append('[').append(i.key()).append(']');
                case Traverser.Splat s -> sb.append("[*]");
            }
        }
        return sb.toString();
    }
}
