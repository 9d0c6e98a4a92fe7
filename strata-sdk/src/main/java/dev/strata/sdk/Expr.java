package dev.strata.sdk;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Terraform expression as the SDK builds it: literals, references (a {@link Lineage}) and what
 * composes them. Synthesis renders it as JSON where it is a literal and as a {@code ${...}} template
 * otherwise.
 */
public sealed interface Expr {
    record Str(String value) implements Expr {
        public Str {
            Objects.requireNonNull(value, "value");
        }
    }

    record Num(BigDecimal value) implements Expr {
        public Num {
            Objects.requireNonNull(value, "value");
        }
    }

    record Bool(boolean value) implements Expr {}

    record Null() implements Expr {}

    /** {@code [a, b]}: a list, tuple or (converted) set. */
    record Tuple(List<Expr> items) implements Expr {
        public Tuple {
            items = List.copyOf(items);
        }
    }

    /** {@code {a = 1}}: an object or map, keys sorted for deterministic output. */
    record Obj(SortedMap<String, Expr> attributes) implements Expr {
        public Obj {
            attributes = Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
        }
    }

    /** A reference, with the site that created the value carrying it. */
    record Ref(Lineage lineage, Site site) implements Expr {
        public Ref {
            Objects.requireNonNull(lineage, "lineage");
            Objects.requireNonNull(site, "site");
        }
    }

    /** A traversal step applied to an expression that is not a reference: {@code split(",", x)[0]}. */
    record Step(Expr source, Lineage.Segment segment) implements Expr {
        public Step {
            Objects.requireNonNull(source, "source");
            if (segment instanceof Lineage.Segment.Root) {
                throw new IllegalArgumentException("a root is no step");
            }
        }
    }

    record Call(String function, List<Expr> args) implements Expr {
        public Call {
            Objects.requireNonNull(function, "function");
            args = List.copyOf(args);
        }
    }

    record Conditional(Expr condition, Expr whenTrue, Expr whenFalse) implements Expr {
        public Conditional {
            Objects.requireNonNull(condition, "condition");
            Objects.requireNonNull(whenTrue, "whenTrue");
            Objects.requireNonNull(whenFalse, "whenFalse");
        }
    }

    enum Op {
        OR("||"),
        AND("&&"),
        EQ("=="),
        NE("!="),
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">="),
        ADD("+"),
        SUB("-"),
        MUL("*"),
        DIV("/"),
        MOD("%");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }
    }

    record Binary(Op op, Expr left, Expr right) implements Expr {
        public Binary {
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }
    }

    /** {@code !x} ({@code negate == false}) or {@code -x}. */
    record Unary(boolean negate, Expr operand) implements Expr {
        public Unary {
            Objects.requireNonNull(operand, "operand");
        }
    }

    /** A string template: {@link Str} parts are literal text, the others interpolated. */
    record Template(List<Expr> parts) implements Expr {
        public Template {
            parts = List.copyOf(parts);
        }
    }

    /**
     * {@code [for v in c : value if cond]}, or with a key {@code {for v in c : key => value}}.
     * {@code keyVar}, {@code key} and {@code condition} may be null.
     */
    record For(String keyVar, String valueVar, Expr collection, Expr key, Expr value, Expr condition) implements Expr {
        public For {
            Objects.requireNonNull(valueVar, "valueVar");
            Objects.requireNonNull(collection, "collection");
            Objects.requireNonNull(value, "value");
        }
    }
}
