package dev.strata.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan JSON's values as the language's values, so that policy conditions read them as they read
 * any object: JSON objects become objects, arrays tuples; where the {@code *_unknown} structure says
 * {@code true} the value is unknown, where the {@code *_sensitive} structure says {@code true} it is
 * marked sensitive (so a policy's message cannot reveal it).
 */
final class ChangeValues {
    private ChangeValues() {}

    /**
     * Terraform's {@code actions} list as one word: {@code ["delete","create"]} and
     * {@code ["create","delete"]} are {@code replace}.
     */
    static String action(List<String> actions) {
        if (actions.size() == 2 && actions.contains("delete") && actions.contains("create")) {
            return "replace";
        }
        return actions.isEmpty() ? "no-op" : actions.getFirst();
    }

    static Value of(JsonNode value, JsonNode unknown, JsonNode sensitive) {
        if (unknown != null && unknown.isBoolean() && unknown.asBoolean()) {
            return marked(Value.DYNAMIC_UNKNOWN, sensitive);
        }
        Value v;
        if (value == null || value.isNull() || value.isMissingNode()) {
            v = Value.NULL;
        } else if (value.isObject()) {
            Map<String, Value> attrs = new TreeMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = value.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                attrs.put(e.getKey(), of(e.getValue(), child(unknown, e.getKey()), child(sensitive, e.getKey())));
            }
            // attributes unknown in full appear only in the unknown structure
            if (unknown != null && unknown.isObject()) {
                Iterator<Map.Entry<String, JsonNode>> u = unknown.fields();
                while (u.hasNext()) {
                    Map.Entry<String, JsonNode> e = u.next();
                    if (!attrs.containsKey(e.getKey())
                            && e.getValue().isBoolean()
                            && e.getValue().asBoolean()) {
                        attrs.put(e.getKey(), marked(Value.DYNAMIC_UNKNOWN, child(sensitive, e.getKey())));
                    }
                }
            }
            v = Value.object(attrs);
        } else if (value.isArray()) {
            List<Value> elems = new ArrayList<>(value.size());
            for (int i = 0; i < value.size(); i++) {
                elems.add(of(value.get(i), child(unknown, i), child(sensitive, i)));
            }
            v = Value.tuple(elems);
        } else if (value.isBoolean()) {
            v = Value.bool(value.asBoolean());
        } else if (value.isNumber()) {
            v = Value.number(value.decimalValue());
        } else {
            v = Value.string(value.asText());
        }
        return marked(v, sensitive);
    }

    private static Value marked(Value v, JsonNode sensitive) {
        return sensitive != null && sensitive.isBoolean() && sensitive.asBoolean() ? v.mark(Mark.SENSITIVE) : v;
    }

    private static JsonNode child(JsonNode n, String name) {
        return n != null && n.isObject() ? n.get(name) : null;
    }

    private static JsonNode child(JsonNode n, int i) {
        return n != null && n.isArray() ? n.get(i) : null;
    }
}
