package dev.strata.state;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The members of a {@link JsonValue.ObjectValue} in their source order, immutable, in two arrays of
 * exactly their size. A state holds hundreds of thousands of small objects (every instance's attributes,
 * every {@code {"value": ..., "type": ...}}): a linked hash map spent a 40-byte entry per member, a table
 * and a wrapper on each, several times what the members themselves take, and the garbage collector
 * traced all of it for the whole run. Small objects are searched linearly (the reader's member names are
 * Jackson's canonical strings, so the identity check usually decides); larger ones get an index.
 */
final class JsonMembers extends AbstractMap<String, JsonValue> {
    static final JsonMembers EMPTY = new JsonMembers(new String[0], new JsonValue[0]);

    /** Up to this many members a linear search beats hashing. */
    private static final int LINEAR = 8;

    private final String[] keys;
    private final JsonValue[] values;
    /** Open addressing: index + 1 of the member whose key hashes there, 0 for free; null for small objects. */
    private final int[] index;

    private JsonMembers(String[] keys, JsonValue[] values) {
        this.keys = keys;
        this.values = values;
        this.index = keys.length > LINEAR ? buildIndex(keys) : null;
    }

    /** An immutable copy of {@code m} in its iteration order (itself when it is one already). */
    static JsonMembers copyOf(Map<String, ? extends JsonValue> m) {
        if (m instanceof JsonMembers j) {
            return j;
        }
        if (m.isEmpty()) {
            return EMPTY;
        }
        String[] k = new String[m.size()];
        JsonValue[] v = new JsonValue[m.size()];
        int i = 0;
        for (Map.Entry<String, ? extends JsonValue> e : m.entrySet()) {
            k[i] = Objects.requireNonNull(e.getKey(), "member name");
            v[i] = e.getValue();
            i++;
        }
        return new JsonMembers(k, v);
    }

    /**
     * The members held in {@code pairs[from..to)} as name, value, name, value..., as an object read from
     * source has them: a name given twice keeps its first place and its last value, as JSON decoders do.
     */
    static JsonMembers of(Object[] pairs, int from, int to) {
        int n = (to - from) / 2;
        if (n == 0) {
            return EMPTY;
        }
        String[] k = new String[n];
        JsonValue[] v = new JsonValue[n];
        for (int i = 0; i < n; i++) {
            k[i] = (String) pairs[from + 2 * i];
            v[i] = (JsonValue) pairs[from + 2 * i + 1];
        }
        if (hasDuplicates(k)) {
            Map<String, JsonValue> m = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                m.put(k[i], v[i]);
            }
            return copyOf(m);
        }
        return new JsonMembers(k, v);
    }

    private static boolean hasDuplicates(String[] k) {
        if (k.length <= LINEAR) {
            for (int i = 1; i < k.length; i++) {
                for (int j = 0; j < i; j++) {
                    if (k[i].equals(k[j])) {
                        return true;
                    }
                }
            }
            return false;
        }
        return buildIndex(k) == null;
    }

    /** The index of {@code keys}, or null when a key repeats. */
    private static int[] buildIndex(String[] keys) {
        int[] table = new int[Integer.highestOneBit(keys.length * 2 - 1) << 1];
        int mask = table.length - 1;
        for (int i = 0; i < keys.length; i++) {
            int slot = spread(keys[i].hashCode()) & mask;
            while (table[slot] != 0) {
                if (keys[table[slot] - 1].equals(keys[i])) {
                    return null;
                }
                slot = (slot + 1) & mask;
            }
            table[slot] = i + 1;
        }
        return table;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    private int find(Object key) {
        if (!(key instanceof String s)) {
            return -1;
        }
        if (index == null) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] == s) {
                    return i;
                }
            }
            for (int i = 0; i < keys.length; i++) {
                if (keys[i].equals(s)) {
                    return i;
                }
            }
            return -1;
        }
        int mask = index.length - 1;
        int slot = spread(s.hashCode()) & mask;
        while (index[slot] != 0) {
            int i = index[slot] - 1;
            if (keys[i].equals(s)) {
                return i;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    @Override
    public JsonValue get(Object key) {
        int i = find(key);
        return i < 0 ? null : values[i];
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) >= 0;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public boolean isEmpty() {
        return keys.length == 0;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super JsonValue> action) {
        for (int i = 0; i < keys.length; i++) {
            action.accept(keys[i], values[i]);
        }
    }

    @Override
    public Set<Map.Entry<String, JsonValue>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, JsonValue>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < keys.length;
                    }

                    @Override
                    public Map.Entry<String, JsonValue> next() {
                        if (next >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(keys[i], values[i]);
                    }
                };
            }

            @Override
            public int size() {
                return keys.length;
            }
        };
    }

    @Override
    public int hashCode() {
        int h = 0;
        for (int i = 0; i < keys.length; i++) {
            h += keys[i].hashCode() ^ Objects.hashCode(values[i]);
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < keys.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(keys[i]).append('=').append(values[i]);
        }
        return sb.append('}').toString();
    }
}
