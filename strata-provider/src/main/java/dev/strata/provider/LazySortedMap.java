package dev.strata.provider;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * An immutable sorted map whose keys are known up front and whose values are computed on first
 * access, once. A provider schema is built on it when it comes from a cache: the AWS provider has
 * about 2,000 resource types and data sources (13.6 MB of schema), a configuration uses a few dozen,
 * and decoding only those is most of the cost of a cold {@code plan}. Looking up a key ({@link #get},
 * {@link #containsKey}, {@link #keySet}) decodes at most that key's value; iterating entries or
 * values decodes all of them. Safe for concurrent use; the value function must not return null.
 * {@link ProviderSchema} keeps such a map as it is instead of copying it.
 */
public final class LazySortedMap<V> extends AbstractMap<String, V> implements SortedMap<String, V> {
    private final NavigableSet<String> keys;
    private final Function<String, V> compute;
    private final ConcurrentHashMap<String, V> computed;

    private LazySortedMap(
            NavigableSet<String> keys, Function<String, V> compute, ConcurrentHashMap<String, V> computed) {
        this.keys = keys;
        this.compute = compute;
        this.computed = computed;
    }

    /** A map of {@code keys} whose value for a key is {@code compute.apply(key)}, computed when first asked for. */
    public static <V> LazySortedMap<V> of(Collection<String> keys, Function<String, V> compute) {
        return new LazySortedMap<>(
                Collections.unmodifiableNavigableSet(new TreeSet<>(keys)),
                Objects.requireNonNull(compute, "compute"),
                new ConcurrentHashMap<>());
    }

    /** The same keys with {@code f} applied to each value, also on first access. */
    public <W> LazySortedMap<W> mapValues(Function<? super V, ? extends W> f) {
        Objects.requireNonNull(f, "f");
        return new LazySortedMap<>(keys, k -> f.apply(get(k)), new ConcurrentHashMap<>());
    }

    /** How many values have been computed so far (for tests and diagnostics). */
    public int computedCount() {
        int n = 0;
        for (String k : computed.keySet()) {
            if (keys.contains(k)) {
                n++;
            }
        }
        return n;
    }

    @Override
    public V get(Object key) {
        if (!(key instanceof String k) || !keys.contains(k)) {
            return null;
        }
        V v = computed.get(k);
        if (v != null) {
            return v;
        }
        return computed.computeIfAbsent(k, x -> Objects.requireNonNull(compute.apply(x), "computed value"));
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof String k && keys.contains(k);
    }

    @Override
    public int size() {
        return keys.size();
    }

    @Override
    public boolean isEmpty() {
        return keys.isEmpty();
    }

    @Override
    public Set<String> keySet() {
        return keys;
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, V>> iterator() {
                Iterator<String> it = keys.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Entry<String, V> next() {
                        String k = it.next();
                        return new SimpleImmutableEntry<>(k, get(k));
                    }
                };
            }

            @Override
            public int size() {
                return keys.size();
            }
        };
    }

    @Override
    public V put(String key, V value) {
        throw new UnsupportedOperationException("immutable");
    }

    @Override
    public V remove(Object key) {
        throw new UnsupportedOperationException("immutable");
    }

    @Override
    public void putAll(Map<? extends String, ? extends V> m) {
        throw new UnsupportedOperationException("immutable");
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException("immutable");
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public SortedMap<String, V> subMap(String fromKey, String toKey) {
        return view(keys.subSet(fromKey, true, toKey, false));
    }

    @Override
    public SortedMap<String, V> headMap(String toKey) {
        return view(keys.headSet(toKey, false));
    }

    @Override
    public SortedMap<String, V> tailMap(String fromKey) {
        return view(keys.tailSet(fromKey, true));
    }

    /** A range of this map sharing its computed values. */
    private LazySortedMap<V> view(NavigableSet<String> range) {
        return new LazySortedMap<>(range, compute, computed);
    }

    @Override
    public String firstKey() {
        return keys.first();
    }

    @Override
    public String lastKey() {
        return keys.last();
    }
}
