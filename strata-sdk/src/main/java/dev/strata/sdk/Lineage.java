package dev.strata.sdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a value came from: the reference path from a declaration of a {@link Stack} (its root) through
 * attributes, indexes, keys and splats, e.g. {@code aws_vpc.main} → {@code .id}. Immutable: extending
 * a lineage makes a new one. {@link #text()} is the Terraform reference expression.
 *
 * @param stack    the stack every lineage starts from
 * @param origin   the declaration the root names (for {@code count.*} and {@code each.*} the repeated
 *                 declaration they belong to); null for a {@code for} expression's iteration variable
 * @param segments a root first, then the steps
 */
public record Lineage(Stack stack, Declaration origin, List<Segment> segments) {
    public Lineage {
        Objects.requireNonNull(stack, "stack");
        segments = List.copyOf(segments);
        if (segments.isEmpty() || !(segments.get(0) instanceof Segment.Root)) {
            throw new IllegalArgumentException("a lineage starts with a root segment");
        }
        for (int i = 1; i < segments.size(); i++) {
            if (segments.get(i) instanceof Segment.Root) {
                throw new IllegalArgumentException("only the first segment of a lineage is a root");
            }
        }
    }

    static Lineage of(Stack stack, Declaration origin, String root, String... members) {
        List<Segment> s = new ArrayList<>();
        s.add(new Segment.Root(root));
        for (String m : members) {
            s.add(new Segment.Member(m));
        }
        return new Lineage(stack, origin, s);
    }

    /** One step of a lineage. */
    public sealed interface Segment {
        /** The first segment: {@code aws_vpc.main}, {@code data.aws_ami.x}, {@code module.vpc}, {@code var}. */
        record Root(String identifier) implements Segment {
            public Root {
                Objects.requireNonNull(identifier, "identifier");
            }
        }

        /** Attribute access: {@code .id}. */
        record Member(String name) implements Segment {
            public Member {
                Objects.requireNonNull(name, "name");
            }
        }

        /** A numeric index: {@code [0]}. */
        record Index(long index) implements Segment {
            public Index {
                if (index < 0) {
                    throw new IllegalArgumentException("a negative index: " + index);
                }
            }
        }

        /** A string key: {@code ["us-west-2"]}. */
        record Key(String key) implements Segment {
            public Key {
                Objects.requireNonNull(key, "key");
            }
        }

        /** An index computed by an expression: {@code [count.index]}. */
        record IndexBy(Expr index) implements Segment {
            public IndexBy {
                Objects.requireNonNull(index, "index");
            }
        }

        /** The full splat {@code [*]}: the following steps apply to every element. */
        record Splat() implements Segment {}
    }

    public Lineage member(String name) {
        return with(new Segment.Member(name));
    }

    public Lineage index(long index) {
        return with(new Segment.Index(index));
    }

    public Lineage key(String key) {
        return with(new Segment.Key(key));
    }

    public Lineage indexBy(Expr index) {
        return with(new Segment.IndexBy(index));
    }

    public Lineage splat() {
        return with(new Segment.Splat());
    }

    Lineage with(Segment segment) {
        List<Segment> s = new ArrayList<>(segments);
        s.add(segment);
        return new Lineage(stack, origin, s);
    }

    Segment.Root root() {
        return (Segment.Root) segments.get(0);
    }

    /** The reference expression: {@code aws_instance.web.ebs_block_device[0].volume_id}. */
    public String text() {
        StringBuilder b = new StringBuilder();
        for (Segment s : segments) {
            Render.segment(b, s);
        }
        return b.toString();
    }

    // The stack is identity, and printing it would recurse through its declarations.
    @Override
    public String toString() {
        return text();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Lineage l && l.stack == stack && l.origin == origin && l.segments.equals(segments);
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(stack) * 31 + segments.hashCode();
    }
}
