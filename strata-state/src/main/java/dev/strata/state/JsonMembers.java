package dev.strata.state;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The read-only members of a {@link JsonValue.ObjectValue}, in their order. An object built from
 * another map copies it into one of these; the JSON reader hands over the map it built, which nothing
 * else refers to, so a state read does not copy every object of the file a second time.
 */
final class JsonMembers extends AbstractMap<String, JsonValue> {
    private final LinkedHashMap<String, JsonValue> map;
    private final Set<Entry<String, JsonValue>> entries;

    /** Takes {@code map} over: the caller must not change it (or let anything else) afterwards. */
    JsonMembers(LinkedHashMap<String, JsonValue> map) {
        this.map = map;
        this.entries = Collections.unmodifiableMap(map).entrySet();
    }

    @Override
    public JsonValue get(Object key) {
        return map.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return map.containsKey(key);
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public boolean isEmpty() {
        return map.isEmpty();
    }

    @Override
    public Set<Entry<String, JsonValue>> entrySet() {
        return entries;
    }

    @Override
    public Set<String> keySet() {
        return Collections.unmodifiableSet(map.keySet());
    }

    @Override
    public Collection<JsonValue> values() {
        return Collections.unmodifiableCollection(map.values());
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super JsonValue> action) {
        map.forEach(action);
    }
}
