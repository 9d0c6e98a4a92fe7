package dev.strata.tfplugin.wire;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * cty's JSON encoding of values, the DynamicValue fallback some providers use and the form in which
 * raw state is handed to UpgradeResourceState. JSON has no unknowns, so only known values encode;
 * where the schema says {@code dynamic} the value is wrapped as {@code {"value": ..., "type": ...}}.
 */
public final class JsonValues {
    private static final ObjectMapper MAPPER = new ObjectMapper()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);
    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private JsonValues() {}

    public static Value decode(byte[] json, Type schemaType) {
        try {
            JsonNode node = MAPPER.readTree(json);
            return read(node == null ? NODES.nullNode() : node, schemaType);
        } catch (IOException e) {
            throw new WireFormatException("malformed JSON value: " + e.getMessage(), e);
        }
    }

    public static byte[] encode(Value value, Type schemaType) {
        try {
            return MAPPER.writeValueAsBytes(write(value.unmarkDeep(), schemaType));
        } catch (IOException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    static JsonNode write(Value v, Type ty) {
        if (!v.isWhollyKnown()) {
            throw new IllegalArgumentException("JSON cannot carry unknown values");
        }
        if (ty instanceof DynamicType && !(v.type() instanceof DynamicType)) {
            ObjectNode o = NODES.objectNode();
            o.set("value", write(v, v.type()));
            o.set("type", TypeJson.toJson(v.type()));
            return o;
        }
        if (v.isNull()) {
            return NODES.nullNode();
        }
        return switch (ty) {
            case PrimitiveType p -> switch (p) {
                case STRING -> NODES.textNode(v.asString());
                case BOOL -> NODES.booleanNode(v.asBool());
                case NUMBER -> {
                    if (v.isInfinite() || v.equals(Value.NEGATIVE_ZERO)) {
                        throw new IllegalArgumentException("JSON cannot carry " + v.numberText());
                    }
                    yield NODES.numberNode(v.asNumber());
                }
            };
            case ListType l -> sequence(v.elements(), l.elem());
            case SetType s -> sequence(v.elements(), s.elem());
            case TupleType t -> {
                ArrayNode a = NODES.arrayNode();
                for (int i = 0; i < t.elems().size(); i++) {
                    a.add(write(v.elements().get(i), t.elems().get(i)));
                }
                yield a;
            }
            case MapType m -> {
                ObjectNode o = NODES.objectNode();
                v.attributes().forEach((k, e) -> o.set(k, write(e, m.elem())));
                yield o;
            }
            case ObjectType ot -> {
                ObjectNode o = NODES.objectNode();
                ot.attrs().forEach((k, at) -> {
                    Value av = v.attributes().get(k);
                    o.set(k, write(av == null ? Value.nullValue(at) : av, at));
                });
                yield o;
            }
            case DynamicType d -> throw new IllegalStateException("handled above");
        };
    }

    private static ArrayNode sequence(List<Value> elems, Type elemType) {
        ArrayNode a = NODES.arrayNode();
        elems.forEach(e -> a.add(write(e, elemType)));
        return a;
    }

    static Value read(JsonNode n, Type ty) {
        if (n.isNull()) {
            return Value.nullValue(ty);
        }
        return switch (ty) {
            case DynamicType d -> {
                if (!n.isObject() || !n.has("type") || !n.has("value")) {
                    throw new WireFormatException("dynamic value must be an object with \"value\" and \"type\"");
                }
                yield read(n.get("value"), TypeJson.parse(n.get("type")));
            }
            case PrimitiveType p -> switch (p) {
                case STRING -> {
                    if (!n.isValueNode() || n.isContainerNode()) {
                        throw new WireFormatException("expected a string, found " + n.getNodeType());
                    }
                    yield Value.string(n.asText());
                }
                case BOOL -> {
                    if (!n.isBoolean()) {
                        throw new WireFormatException("expected a bool, found " + n.getNodeType());
                    }
                    yield Value.bool(n.booleanValue());
                }
                case NUMBER -> {
                    if (n.isNumber()) {
                        yield Value.number(n.decimalValue());
                    }
                    if (n.isTextual()) {
                        try {
                            yield Value.number(new BigDecimal(n.asText()));
                        } catch (NumberFormatException e) {
                            throw new WireFormatException("not a number: " + n.asText(), e);
                        }
                    }
                    throw new WireFormatException("expected a number, found " + n.getNodeType());
                }
            };
            case ListType l -> {
                List<Value> elems = elements(n, l.elem());
                yield Value.list(MsgpackValues.concreteElementType(l.elem(), elems), elems);
            }
            case SetType s -> {
                List<Value> elems = elements(n, s.elem());
                yield Value.set(MsgpackValues.concreteElementType(s.elem(), elems), elems);
            }
            case TupleType t -> {
                if (!n.isArray() || n.size() != t.elems().size()) {
                    throw new WireFormatException("expected a tuple of " + t.elems().size() + " elements");
                }
                List<Value> elems = new ArrayList<>();
                for (int i = 0; i < n.size(); i++) {
                    elems.add(read(n.get(i), t.elems().get(i)));
                }
                yield Value.tuple(elems);
            }
            case MapType m -> {
                Map<String, Value> entries = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = fields(n); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    entries.put(e.getKey(), read(e.getValue(), m.elem()));
                }
                yield Value.map(MsgpackValues.concreteElementType(m.elem(), List.copyOf(entries.values())), entries);
            }
            case ObjectType o -> {
                Map<String, Value> attrs = new TreeMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = fields(n); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    Type at = o.attrType(e.getKey());
                    if (at == null) {
                        throw new WireFormatException("unsupported attribute \"" + e.getKey() + "\"");
                    }
                    attrs.put(e.getKey(), read(e.getValue(), at));
                }
                o.attrs().forEach((k, at) -> attrs.putIfAbsent(k, Value.nullValue(at)));
                yield Value.object(attrs);
            }
        };
    }

    private static Iterator<Map.Entry<String, JsonNode>> fields(JsonNode n) {
        if (!n.isObject()) {
            throw new WireFormatException("expected an object, found " + n.getNodeType());
        }
        return n.fields();
    }

    private static List<Value> elements(JsonNode n, Type elemType) {
        if (!n.isArray()) {
            throw new WireFormatException("expected an array, found " + n.getNodeType());
        }
        List<Value> out = new ArrayList<>(n.size());
        n.forEach(e -> out.add(read(e, elemType)));
        return out;
    }
}
