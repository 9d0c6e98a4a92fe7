package dev.strata.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LazySortedMapTest {
    @Test
    void valuesAreComputedOnceAndOnlyWhenAskedFor() {
        AtomicInteger calls = new AtomicInteger();
        LazySortedMap<String> m = LazySortedMap.of(List.of("c", "a", "b"), k -> {
            calls.incrementAndGet();
            return k.toUpperCase();
        });
        assertThat(m.keySet()).containsExactly("a", "b", "c");
        assertThat(m.containsKey("b")).isTrue();
        assertThat(m.containsKey("z")).isFalse();
        assertThat(m.size()).isEqualTo(3);
        assertThat(m.firstKey()).isEqualTo("a");
        assertThat(m.lastKey()).isEqualTo("c");
        assertThat(calls).hasValue(0);
        assertThat(m.get("b")).isEqualTo("B");
        assertThat(m.get("b")).isEqualTo("B");
        assertThat(m.get("z")).isNull();
        assertThat(calls).hasValue(1);
        assertThat(m.computedCount()).isEqualTo(1);
        // Iterating entries computes the rest, and the map equals its eager copy.
        assertThat(m).isEqualTo(new TreeMap<>(Map.of("a", "A", "b", "B", "c", "C")));
        assertThat(calls).hasValue(3);
    }

    @Test
    void mappedValuesAndRangesShareTheLaziness() {
        AtomicInteger calls = new AtomicInteger();
        LazySortedMap<Integer> m = LazySortedMap.of(List.of("a", "bb", "ccc"), k -> {
            calls.incrementAndGet();
            return k.length();
        });
        LazySortedMap<String> mapped = m.mapValues(n -> "#" + n);
        assertThat(mapped.get("bb")).isEqualTo("#2");
        assertThat(calls).hasValue(1);
        assertThat(m.tailMap("b").keySet()).containsExactly("bb", "ccc");
        assertThat(m.headMap("bb")).containsExactly(Map.entry("a", 1));
        assertThat(m.subMap("a", "ccc").get("bb")).isEqualTo(2);
        assertThat(calls).hasValue(2);
        assertThatThrownBy(() -> m.put("d", 4)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> m.remove("a")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aProviderSchemaKeepsALazyMapAsItIs() {
        AtomicInteger calls = new AtomicInteger();
        Schema s = new Schema(0, Block.builder().build());
        LazySortedMap<Schema> types = LazySortedMap.of(List.of("acme_a", "acme_b"), k -> {
            calls.incrementAndGet();
            return s;
        });
        ProviderSchema p = new ProviderSchema(s, types, types, Optional.empty(), new TreeMap<>());
        assertThat(calls).hasValue(0);
        assertThat(p.resourceType("acme_a")).isSameAs(s);
        assertThat(calls).hasValue(1);
    }
}
