package dev.strata.state;

import java.util.Objects;

/**
 * The key of one resource instance: none (a single resource), an integer ({@code count}) or a string
 * ({@code for_each}). Ordered as Terraform orders instances in the state file: no key first, then
 * integers, then strings.
 */
public sealed interface InstanceKey extends Comparable<InstanceKey> {
    NoKey NONE = new NoKey();

    record NoKey() implements InstanceKey {
        @Override
        public String toString() {
            return "";
        }
    }

    record IntKey(long value) implements InstanceKey {
        @Override
        public String toString() {
            return "[" + value + "]";
        }
    }

    record StringKey(String value) implements InstanceKey {
        public StringKey {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return "[" + Addresses.quote(value) + "]";
        }
    }

    static InstanceKey of(long i) {
        return new IntKey(i);
    }

    static InstanceKey of(String s) {
        return new StringKey(s);
    }

    private int rank() {
        return switch (this) {
            case NoKey n -> 0;
            case IntKey i -> 1;
            case StringKey s -> 2;
        };
    }

    @Override
    default int compareTo(InstanceKey o) {
        int c = Integer.compare(rank(), o.rank());
        if (c != 0) {
            return c;
        }
        return switch (this) {
            case NoKey n -> 0;
            case IntKey i -> Long.compare(i.value(), ((IntKey) o).value());
            case StringKey s -> Addresses.compareGo(s.value(), ((StringKey) o).value());
        };
    }
}
