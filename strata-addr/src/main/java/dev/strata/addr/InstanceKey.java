package dev.strata.addr;

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
            return "[" + quote(key) + "]";
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

    /**
     * A string as an HCL quoted literal, escaping what the native scanner would otherwise read as an
     * escape or a template sequence, so that the rendering parses back to the same key.
     */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '$', '%' -> {
                    sb.append(c);
                    if (i + 1 < s.length() && s.charAt(i + 1) == '{') {
                        sb.append(c);
                    }
                }
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
