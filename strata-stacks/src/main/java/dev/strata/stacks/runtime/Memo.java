package dev.strata.stacks.runtime;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The results of one kind of dynamic object, each computed once and shared: the first caller for a
 * key computes it in its own thread, later callers wait for that result (the seed's promises). A
 * computation may ask for other keys; the data flow between objects is what orders the work.
 */
final class Memo<K, V> {
    private final Map<K, CompletableFuture<V>> results = new ConcurrentHashMap<>();

    V get(K key, Supplier<V> compute) {
        CompletableFuture<V> mine = new CompletableFuture<>();
        CompletableFuture<V> existing = results.putIfAbsent(key, mine);
        if (existing != null) {
            return existing.join();
        }
        try {
            V v = compute.get();
            mine.complete(v);
            return v;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** The result for {@code key} if some caller has started computing it, waiting for it; else null. */
    V ifStarted(K key) {
        CompletableFuture<V> f = results.get(key);
        return f == null ? null : f.join();
    }
}
