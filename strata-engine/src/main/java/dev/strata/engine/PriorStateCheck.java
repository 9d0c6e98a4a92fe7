package dev.strata.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostic;
import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.provider.ValueJson;
import dev.strata.state.ResourceInstanceObject;
import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

/**
 * Strict reading of a recorded object: its attributes must have the type its resource's schema
 * implies (after any schema-version upgrade), as Terraform requires. A mismatch means the state was
 * edited by hand or damaged; planning on a guess would write the damage back, so it is an error
 * naming the instance and the place in the state document.
 *
 * <p>The rules are those of Terraform's JSON value decoding: attributes missing from the recorded
 * object are null and attributes the schema no longer has are ignored (providers drop attributes
 * without a schema-version bump); strings accept numbers and booleans; a dynamic value is
 * {@code {"value": ..., "type": ...}}.
 */
final class PriorStateCheck {
    private PriorStateCheck() {}

    /** Where inside the attributes ({@code .tags["a"]}, empty for the whole) and why a recorded value does not fit. */
    record Mismatch(String path, String why) {}

    /** How {@code n} does not fit {@code type}; null when it fits. */
    static Mismatch mismatch(JsonNode n, Type type) {
        StringBuilder at = new StringBuilder();
        String why = check(n, type, at);
        return why == null ? null : new Mismatch(at.toString(), why);
    }

    private static String check(JsonNode n, Type type, StringBuilder at) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        int mark = at.length();
        String why = switch (type) {
            case DynamicType d -> {
                if (!n.isObject() || !n.has("type") || !n.has("value")) {
                    yield "a dynamic value must be an object with \"value\" and \"type\", but it is " + kind(n);
                }
                Type inner;
                try {
                    inner = ValueJson.parseType(n.get("type"));
                } catch (RuntimeException e) {
                    yield "the \"type\" of a dynamic value is not a valid type";
                }
                at.append(".value");
                String w = check(n.get("value"), inner, at);
                if (w == null) {
                    at.setLength(mark);
                }
                yield w;
            }
            case PrimitiveType p ->
                switch (p) {
                    case STRING ->
                        n.isTextual() || n.isNumber() || n.isBoolean() ? null : "string required, but it is " + kind(n);
                    case NUMBER ->
                        n.isNumber() || n.isTextual() && isNumber(n.textValue())
                                ? null
                                : "number required, but it is " + kind(n);
                    case BOOL ->
                        n.isBoolean()
                                        || n.isTextual()
                                                && (n.textValue().equals("true")
                                                        || n.textValue().equals("false"))
                                ? null
                                : "bool required, but it is " + kind(n);
                };
            case ListType l -> elements(n, l.elem(), "list", at);
            case SetType s -> elements(n, s.elem(), "set", at);
            case TupleType t -> {
                if (!n.isArray() || n.size() != t.elems().size()) {
                    yield "tuple of " + t.elems().size() + " elements required, but it is " + kind(n);
                }
                for (int i = 0; i < n.size(); i++) {
                    String w = index(n.get(i), t.elems().get(i), "[" + i + "]", at);
                    if (w != null) {
                        yield w;
                    }
                }
                yield null;
            }
            case MapType m -> {
                if (!n.isObject()) {
                    yield "map required, but it is " + kind(n);
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    String w = index(e.getValue(), m.elem(), "[\"" + e.getKey() + "\"]", at);
                    if (w != null) {
                        yield w;
                    }
                }
                yield null;
            }
            case ObjectType o -> {
                if (!n.isObject()) {
                    yield "object required, but it is " + kind(n);
                }
                for (Map.Entry<String, Type> a : o.attrs().entrySet()) {
                    String w = index(n.get(a.getKey()), a.getValue(), "." + a.getKey(), at);
                    if (w != null) {
                        yield w;
                    }
                }
                yield null;
            }
        };
        return why;
    }

    private static String elements(JsonNode n, Type elem, String what, StringBuilder at) {
        if (!n.isArray()) {
            return what + " required, but it is " + kind(n);
        }
        for (int i = 0; i < n.size(); i++) {
            String w = index(n.get(i), elem, "[" + i + "]", at);
            if (w != null) {
                return w;
            }
        }
        return null;
    }

    private static String index(JsonNode n, Type t, String step, StringBuilder at) {
        int mark = at.length();
        at.append(step);
        String w = check(n, t, at);
        if (w == null) {
            at.setLength(mark);
        }
        return w;
    }

    private static boolean isNumber(String s) {
        try {
            new BigDecimal(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String kind(JsonNode n) {
        if (n.isTextual()) {
            return "a string";
        }
        if (n.isNumber()) {
            return "a number";
        }
        if (n.isBoolean()) {
            return "a boolean";
        }
        if (n.isArray()) {
            return "an array";
        }
        return n.isObject() ? "an object" : "null";
    }

    /** The error for a recorded object that does not fit its schema. */
    static Diagnostic invalid(
            StateSnapshot state,
            AbsResourceInstance addr,
            ResourceInstanceObject o,
            String type,
            long schemaVersion,
            Mismatch mismatch) {
        return Diagnostic.error(
                "Invalid resource instance data in state",
                "The attributes recorded for "
                        + addr + (o.deposed() == null ? "" : " (deposed object " + o.deposed() + ")")
                        + " do not match the schema "
                        + "of resource type \"" + type + "\" (schema version " + schemaVersion + "): at "
                        + jsonPath(state, o) + ".attributes" + mismatch.path() + " in the state, " + mismatch.why()
                        + ". The state file was edited by hand or damaged. Restore it from its "
                        + "backup (for the local backend, terraform.tfstate.backup beside it: \"strata state push "
                        + "terraform.tfstate.backup\") or from your own backups; or remove the object with \"strata state rm "
                        + addr + "\" and import it again. Nothing was changed.",
                null);
    }

    /** The error for an object recorded by a newer provider than the one selected, as Terraform reports it. */
    static Diagnostic newerSchema(
            StateSnapshot state, AbsResourceInstance addr, ResourceInstanceObject o, String provider) {
        return Diagnostic.error(
                "Resource instance managed by newer provider version",
                "The current state of " + addr
                        + " (" + jsonPath(state, o) + ".schema_version = " + o.schemaVersion()
                        + ") was created by a newer "
                        + "provider version than is currently selected. Upgrade the " + provider
                        + " provider to work with this "
                        + "state.",
                null);
    }

    /**
     * The object's place in the state document, e.g. {@code resources[0].instances[1]}. Resources and
     * instances are kept in the order Terraform and Strata write them, so this is the place in any
     * file either wrote.
     */
    static String jsonPath(StateSnapshot state, ResourceInstanceObject o) {
        for (int i = 0; i < state.resources().size(); i++) {
            ResourceState rs = state.resources().get(i);
            for (int j = 0; j < rs.instances().size(); j++) {
                if (rs.instances().get(j) == o) {
                    return "resources[" + i + "].instances[" + j + "]";
                }
            }
        }
        return "resources[?]";
    }
}
