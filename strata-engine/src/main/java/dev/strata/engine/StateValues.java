package dev.strata.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AttributePath;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import dev.strata.provider.ValueJson;
import dev.strata.state.JsonValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values as the state file holds them: attributes as JSON of the schema's implied type, with
 * sensitivity kept apart in {@code sensitive_attributes} paths. Reading puts the marks back, so a
 * value read from state is as sensitive as the one that was written.
 */
public final class StateValues {
    private StateValues() {}

    /** The state JSON of a wholly known value, without marks. */
    public static JsonValue toJson(Value v, Type type) {
        return fromNode(ValueJson.toNode(v.unmarkDeep(), type));
    }

    /** The value of state JSON, converted to {@code type}, with sensitive marks at {@code sensitivePaths}. */
    public static Value fromJson(JsonValue json, Type type, List<AttributePath> sensitivePaths) {
        return fromNode(toNode(json), type, sensitivePaths);
    }

    /** As {@link #fromJson}, from the attributes already turned into a tree (which callers check first). */
    static Value fromNode(JsonNode node, Type type, List<AttributePath> sensitivePaths) {
        Value v = ValueJson.fromNode(node, type);
        if (sensitivePaths != null) {
            for (AttributePath p : sensitivePaths) {
                v = markAt(v, p.steps(), 0);
            }
        }
        return v;
    }

    /** The paths of every sensitive value inside {@code v}, as the state records them. */
    public static List<AttributePath> sensitivePaths(Value v) {
        List<AttributePath> out = new ArrayList<>();
        collect(v, new ArrayList<>(), out);
        return out;
    }

    private static void collect(Value v, List<AttributePath.Step> at, List<AttributePath> out) {
        if (v.isSensitive()) {
            out.add(new AttributePath(at));
            return;
        }
        if (!v.isKnownAndNotNull()) {
            return;
        }
        switch (v.type()) {
            case ObjectType o ->
                v.attributes().forEach((k, e) -> {
                    at.add(new AttributePath.Attr(k));
                    collect(e, at, out);
                    at.removeLast();
                });
            case MapType m ->
                v.attributes().forEach((k, e) -> {
                    at.add(new AttributePath.IndexString(k));
                    collect(e, at, out);
                    at.removeLast();
                });
            case ListType l -> indexed(v, at, out);
            case TupleType t -> indexed(v, at, out);
            default -> {}
        }
    }

    private static void indexed(Value v, List<AttributePath.Step> at, List<AttributePath> out) {
        List<Value> els = v.elements();
        for (int i = 0; i < els.size(); i++) {
            at.add(new AttributePath.IndexNumber(BigDecimal.valueOf(i)));
            collect(els.get(i), at, out);
            at.removeLast();
        }
    }

    private static Value markAt(Value v, List<AttributePath.Step> steps, int i) {
        if (i == steps.size()) {
            return v.mark(Mark.SENSITIVE);
        }
        if (!v.isKnownAndNotNull()) {
            return v;
        }
        AttributePath.Step s = steps.get(i);
        switch (v.type()) {
            case ObjectType o -> {
                if (s instanceof AttributePath.Attr g && v.attributes().containsKey(g.name())) {
                    Map<String, Value> attrs = new java.util.TreeMap<>(v.attributes());
                    attrs.put(g.name(), markAt(attrs.get(g.name()), steps, i + 1));
                    return Value.object(attrs).withMarks(v.marks());
                }
                return v;
            }
            case MapType m -> {
                String k = keyText(s);
                if (k != null && v.attributes().containsKey(k)) {
                    Map<String, Value> attrs = new java.util.TreeMap<>(v.attributes());
                    attrs.put(k, markAt(attrs.get(k), steps, i + 1));
                    return Value.map(m.elem(), attrs).withMarks(v.marks());
                }
                return v;
            }
            case ListType l -> {
                return indexMark(v, steps, i, els -> Value.list(l.elem(), els));
            }
            case TupleType t -> {
                return indexMark(v, steps, i, Value::tuple);
            }
            case SetType st -> {
                // Set elements have no stable index: the whole set becomes sensitive.
                return v.mark(Mark.SENSITIVE);
            }
            default -> {
                return v;
            }
        }
    }

    private static Value indexMark(
            Value v, List<AttributePath.Step> steps, int i, java.util.function.Function<List<Value>, Value> rebuild) {
        String k = keyText(steps.get(i));
        if (k == null) {
            return v;
        }
        int idx;
        try {
            idx = new BigDecimal(k).intValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            return v;
        }
        List<Value> els = new ArrayList<>(v.elements());
        if (idx < 0 || idx >= els.size()) {
            return v;
        }
        els.set(idx, markAt(els.get(idx), steps, i + 1));
        return rebuild.apply(els).withMarks(v.marks());
    }

    private static String keyText(AttributePath.Step s) {
        return switch (s) {
            case AttributePath.IndexString k -> k.key();
            case AttributePath.IndexNumber n -> n.index().toPlainString();
            case AttributePath.Attr a -> null;
        };
    }

    static JsonValue fromNode(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return new JsonValue.NullValue();
        }
        if (n.isBoolean()) {
            return new JsonValue.BoolValue(n.booleanValue());
        }
        if (n.isNumber()) {
            return new JsonValue.NumberValue(
                    n.decimalValue().toPlainString().contains(".")
                            ? n.decimalValue().stripTrailingZeros().toPlainString()
                            : n.decimalValue().toPlainString());
        }
        if (n.isTextual()) {
            return new JsonValue.StringValue(n.textValue());
        }
        if (n.isArray()) {
            List<JsonValue> items = new ArrayList<>();
            n.forEach(e -> items.add(fromNode(e)));
            return new JsonValue.ArrayValue(items);
        }
        Map<String, JsonValue> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            m.put(e.getKey(), fromNode(e.getValue()));
        }
        return new JsonValue.ObjectValue(m);
    }

    public static JsonNode toNode(JsonValue v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (v) {
            case JsonValue.NullValue n -> f.nullNode();
            case JsonValue.BoolValue b -> f.booleanNode(b.value());
            case JsonValue.NumberValue n -> f.numberNode(new BigDecimal(n.text()));
            case JsonValue.StringValue s -> f.textNode(s.value());
            case JsonValue.ArrayValue a -> {
                var arr = f.arrayNode();
                a.items().forEach(e -> arr.add(toNode(e)));
                yield arr;
            }
            case JsonValue.ObjectValue o -> {
                ObjectNode on = f.objectNode();
                o.members().forEach((k, e) -> on.set(k, toNode(e)));
                yield on;
            }
        };
    }

    /** A root output's value as recorded in state (without its sensitive mark; see {@code OutputValue#sensitive}). */
    public static Value outputValue(dev.strata.state.OutputValue o) {
        Type t = ValueJson.parseType(toNode(o.type()));
        return fromJson(o.value(), t, null);
    }

    /** State JSON as a Jackson tree, for commands that print it. */
    public static JsonNode jsonNode(JsonValue v) {
        return toNode(v);
    }

    /**
     * {@code to} with a sensitive mark wherever {@code from} has one (at the same path): providers
     * return unmarked values, so the marks that came from the configuration are carried over to what
     * they plan and apply, as Terraform does.
     */
    public static Value copyMarks(Value from, Value to) {
        if (from == null || to == null) {
            return to;
        }
        Value out = to;
        for (AttributePath p : sensitivePaths(from)) {
            out = markAt(out, p.steps(), 0);
        }
        return out;
    }

    /** Untyped JSON as a value: objects, tuples, strings, numbers and booleans (for display without a schema). */
    public static Value infer(JsonValue json) {
        return switch (json) {
            case JsonValue.NullValue n -> Value.NULL;
            case JsonValue.BoolValue b -> Value.bool(b.value());
            case JsonValue.NumberValue n -> Value.number(new BigDecimal(n.text()));
            case JsonValue.StringValue sv -> Value.string(sv.value());
            case JsonValue.ArrayValue a ->
                Value.tuple(a.items().stream().map(StateValues::infer).toList());
            case JsonValue.ObjectValue o -> {
                Map<String, Value> m = new java.util.TreeMap<>();
                o.members().forEach((k, v) -> m.put(k, infer(v)));
                yield Value.object(m);
            }
        };
    }
}
