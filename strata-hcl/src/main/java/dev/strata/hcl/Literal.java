package dev.strata.hcl;

import java.math.BigDecimal;

/**
 * A constant written in the source: what a literal expression or a traversal index key holds. The
 * syntax layer knows no types; strata-lang turns these into typed values.
 */
public sealed interface Literal {
    record NumberLit(BigDecimal value) implements Literal {
        @Override
        public String toString() {
            return value.stripTrailingZeros().toPlainString();
        }
    }

    record StringLit(String value) implements Literal {
        @Override
        public String toString() {
            return '"' + value + '"';
        }
    }

    record BoolLit(boolean value) implements Literal {
        @Override
        public String toString() {
            return Boolean.toString(value);
        }
    }

    record NullLit() implements Literal {
        @Override
        public String toString() {
            return "null";
        }
    }

    NullLit NULL = new NullLit();
    BoolLit TRUE = new BoolLit(true);
    BoolLit FALSE = new BoolLit(false);

    static Literal of(String s) {
        return new StringLit(s);
    }

    static Literal of(BigDecimal n) {
        return new NumberLit(n);
    }

    static Literal of(long n) {
        return new NumberLit(BigDecimal.valueOf(n));
    }
}
