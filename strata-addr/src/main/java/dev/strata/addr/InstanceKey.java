package dev.strata.addr;

import dev.strata.hcl.HclStrings;

/**
 * Which instance of a {@code count} or {@code for_each} object: none (a singular object), an
 * integer index, or a string key. Integer keys sort before string keys, as Terraform orders them
 * (strings in Go's byte order).
 */
public sealed interface InstanceKey extends Comparable<InstanceKey> {

    /** The key of a singular object; renders as nothing. */
    NoKey NONE = new NoKey();

    static InstanceKey of(int index) {
        return new IntKey(index);
    }

    static InstanceKey of(String key) {
        return new StringKey(key);
    }

    record NoKey() implements InstanceKey {
        @Override
        public boolean equals(Object o) {
            return o instanceof NoKey;
        }

        @Override
        public int hashCode() {
            return 0;
        }

        @Override
        public String toString() {
            return "";
        }
    }

    record IntKey(int index) implements InstanceKey {
        public IntKey {
            if (index < 0) {
                throw new IllegalArgumentException("negative instance index " + index);
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IntKey k && index == k.index;
        }

        @Override
        public int hashCode() {
            return index;
        }

        @Override
        public String toString() {
            return "[" + index + "]";
        }
    }

    record StringKey(String key) implements InstanceKey {
        public StringKey {
            java.util.Objects.requireNonNull(key);
        }

        // Written out (as in the other keys): the generated record methods go through method handles that
        // C1 does not inline, and keys are compared in every address lookup.
        @Override
        public boolean equals(Object o) {
            return this == o || o instanceof StringKey k && key.equals(k.key);
        }

        @Override
        public int hashCode() {
            return key.hashCode();
        }

        @Override
        public String toString() {
            return "[" + HclStrings.quote(key) + "]";
        }
    }

    @Override
    default int compareTo(InstanceKey o) {
        if (this == o) {
            return 0;
        }
        int c = Integer.compare(rank(this), rank(o));
        if (c != 0) {
            return c;
        }
        return switch (this) {
            case NoKey n -> 0;
            case IntKey i -> Integer.compare(i.index(), ((IntKey) o).index());
            case StringKey s -> GoOrder.compare(s.key(), ((StringKey) o).key());
        };
    }

    private static int rank(InstanceKey k) {
        return switch (k) {
            case NoKey n -> 0;
            case IntKey i -> 1;
            case StringKey s -> 2;
        };
    }
}
