package dev.strata.state;

import java.util.Objects;

/**
 * A root module output in the state.
 *
 * @param value     the value as cty's JSON encoding
 * @param type      the value's type as cty's JSON type encoding, e.g. {@code "string"} or
 *                  {@code ["object",{"n":"number"}]}
 * @param sensitive whether the output was declared sensitive
 * @param extra     members of the output object this version does not know, written back unchanged
 */
public record OutputValue(JsonValue value, JsonValue type, boolean sensitive, JsonValue.ObjectValue extra) {
    public OutputValue {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(type, "type");
        extra = extra == null ? JsonValue.EMPTY_OBJECT : extra;
    }

    public OutputValue(JsonValue value, JsonValue type, boolean sensitive) {
        this(value, type, sensitive, JsonValue.EMPTY_OBJECT);
    }
}
