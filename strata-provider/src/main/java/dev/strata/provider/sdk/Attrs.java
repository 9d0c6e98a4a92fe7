package dev.strata.provider.sdk;

import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reading and replacing attributes of object values, for provider code. */
public final class Attrs {

    private Attrs() {}

    /** The attribute's value; throws if the object has no such attribute (a schema bug). */
    public static Value get(Value object, String name) {
        Value v = object.attributes().get(name);
        if (v == null) {
            throw new IllegalArgumentException("no attribute " + name);
        }
        return v;
    }

    /** The object with {@code name} set to {@code value}, keeping every other attribute. */
    public static Value with(Value object, String name, Value value) {
        Map<String, Value> m = new TreeMap<>(object.attributes());
        m.put(name, value);
        return Value.object(m).withMarks(object.marks());
    }

    /** The object with several attributes replaced: alternating names and values. */
    public static Value with(Value object, Object... namesAndValues) {
        Map<String, Value> m = new TreeMap<>(object.attributes());
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], (Value) namesAndValues[i + 1]);
        }
        return Value.object(m).withMarks(object.marks());
    }

    /**
     * A string attribute, or null when it is null or unknown: during apply an unknown is a value
     * the provider decides, so provider code treats both as "not given".
     */
    public static String string(Value object, String name) {
        Value v = get(object, name).unmarkDeep();
        return v.isKnownAndNotNull() ? v.asString() : null;
    }

    public static String string(Value object, String name, String ifNull) {
        String s = string(object, name);
        return s == null ? ifNull : s;
    }

    /** A bool attribute, or null when it is null or unknown. */
    public static Boolean bool(Value object, String name) {
        Value v = get(object, name).unmarkDeep();
        return v.isKnownAndNotNull() ? v.asBool() : null;
    }

    /** A number attribute, or null when it is null or unknown. */
    public static BigDecimal number(Value object, String name) {
        Value v = get(object, name).unmarkDeep();
        return v.isKnownAndNotNull() ? v.asNumber() : null;
    }

    /** A known map of strings, or an empty map when null. */
    public static Map<String, String> stringMap(Value object, String name) {
        Value v = get(object, name).unmarkDeep();
        Map<String, String> out = new LinkedHashMap<>();
        if (!v.isNull()) {
            v.attributes().forEach((k, e) -> out.put(k, e.isNull() ? null : e.asString()));
        }
        return out;
    }

    /** A known list of strings, or an empty list when null. */
    public static List<String> stringList(Value object, String name) {
        Value v = get(object, name).unmarkDeep();
        return v.isNull()
                ? List.of()
                : v.elements().stream()
                        .map(e -> e.isNull() ? null : e.asString())
                        .toList();
    }
}
