package dev.strata.engine;

import dev.strata.addr.InstanceKey;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/** How one resource or module call expands in one module instance (ARCHITECTURE §3.6). */
sealed interface Expansion {

    /** No count or for_each: one instance without a key. */
    record Single() implements Expansion {}

    record Count(int count) implements Expansion {}

    /** {@code each.value} by {@code each.key}. */
    record ForEach(SortedMap<String, Value> each) implements Expansion {}

    /** Not known until apply; {@code unknownRefs} are what it waits for. */
    record Deferred(String argument, List<String> unknownRefs) implements Expansion {}

    /** The instance keys; empty for a deferred expansion. */
    default List<InstanceKey> keys() {
        return switch (this) {
            case Single s -> List.of(InstanceKey.NONE);
            case Count c -> {
                List<InstanceKey> l = new ArrayList<>(c.count());
                for (int i = 0; i < c.count(); i++) {
                    l.add(InstanceKey.of(i));
                }
                yield l;
            }
            case ForEach f ->
                f.each().keySet().stream()
                        .map(k -> (InstanceKey) InstanceKey.of(k))
                        .toList();
            case Deferred d -> List.of();
        };
    }
}
