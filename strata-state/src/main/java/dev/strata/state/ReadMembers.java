package dev.strata.state;

import java.util.LinkedHashMap;

/**
 * The members of one object {@link JsonReader} is reading: handed to its {@link JsonValue.ObjectValue},
 * which wraps this map instead of copying it, since nothing else holds it.
 */
final class ReadMembers extends LinkedHashMap<String, JsonValue> {
    private static final long serialVersionUID = 1L;
}
