package dev.strata.state;

import java.util.LinkedHashMap;

/**
 * The members of one object {@link JsonReader} is reading: handed to its {@link JsonValue.ObjectValue},
 * which wraps this map instead of copying it, since nothing else holds it.
 */
final class ReadMembers extends LinkedHashMap<String, JsonValue> {
    private static final long serialVersionUID = 1L;

    // Most objects of a state are small ({"value": ..., "type": ...}, an instance's few attributes): a table of
    // 4 holds up to 3 members, where the default 16 would keep about 50 bytes more per object for the run.
    ReadMembers() {
        super(4);
    }
}
