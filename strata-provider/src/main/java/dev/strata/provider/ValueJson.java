package dev.strata.provider;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
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
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Values as JSON against a known type, the encoding Terraform uses for state attributes
 * ({@code cty/json}): objects and maps as JSON objects, lists, sets and tuples as arrays. Where
 * the type is dynamic, the value is wrapped as {@code {"value": ..., "type": ...}} so it can be
 * read back with its type. Types are written as cty's JSON type notation ({@code "string"},
 * {@code ["list","string"]}, {@code ["object",{...}]}, {@code "dynamic"}). Marks are not encoded:
 * the state records sensitive paths separately.
 */
public final class ValueJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * The mappers for JSON text, made when text is first read or written: most callers only convert
     * between values and trees, and two ObjectMappers cost a cold JVM tens of milliseconds to build.
     */
    private static final class Mappers {
        // Plain decimals (0.000001, not 1E-6), as Terraform writes numbers in state.
        static final ObjectMapper PLAIN =
                new ObjectMapper().enable(com.fasterxml.jackson.core.JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        // Provider answers keep every digit: no number passes through a double.
        static final ObjectMapper EXACT = new ObjectMapper()
                .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);
    }

    private ValueJson() {}

    /** The JSON text of a wholly known value of type {@code type}; unknown values cannot be encoded. */
    public static String encode(Value v, Type type) {
        try {
            return Mappers.PLAIN.writeValueAsString(toNode(v, type));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode toNode(Value v, Type type) {
        if (!v.isKnown()) {
            throw new IllegalArgumentException("an unknown value cannot be encoded as JSON");
        }
        if (type instanceof DynamicType) {
            if (v.isNull() && v.type() instanceof DynamicType) {
                return NODES.nullNode();
            }
            ObjectNode o = NODES.objectNode();
            o.set("value", toNode(v, v.type()));
            o.set("type", typeNode(v.type()));
            return o;
        }
        if (v.isNull()) {
            return NODES.nullNode();
        }
        return switch (type) {
            case PrimitiveType p ->
                switch (p) {
                    case STRING -> NODES.textNode(v.asString());
                    case NUMBER -> NODES.numberNode(v.asNumber());
                    case BOOL -> NODES.booleanNode(v.asBool());
                };
            case ListType l -> array(v.elements(), i -> l.elem());
            case SetType s -> array(v.elements(), i -> s.elem());
            case TupleType t -> array(v.elements(), i -> t.elems().get(i));
            case MapType m -> {
                ObjectNode o = NODES.objectNode();
                v.attributes().forEach((k, e) -> o.set(k, toNode(e, m.elem())));
                yield o;
            }
            case ObjectType ot -> {
                ObjectNode o = NODES.objectNode();
                Map<String, Value> attrs = v.attributes();
                ot.attrs().forEach((k, t) -> {
                    Value e = attrs.get(k);
                    o.set(k, e == null ? NODES.nullNode() : toNode(e, t));
                });
                yield o;
            }
            case DynamicType d -> throw new IllegalStateException("handled above");
        };
    }

    private static ArrayNode array(List<Value> els, java.util.function.IntFunction<Type> elemType) {
        ArrayNode a = NODES.arrayNode();
        for (int i = 0; i < els.size(); i++) {
            a.add(toNode(els.get(i), elemType.apply(i)));
        }
        return a;
    }

    /** Reads JSON text as a value of {@code type}. */
    public static Value decode(String json, Type type) {
        try {
            return fromNode(Mappers.PLAIN.readTree(json), type);
        } catch (IOException e) {
            throw new IllegalArgumentException("invalid JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a value a provider sent as JSON (a plugin's DynamicValue), as cty does: numbers exactly,
     * booleans only as JSON booleans, an attribute the type does not have is an error, and a
     * collection whose declared element type is dynamic gets its elements' type when they share one.
     *
     * @throws IllegalArgumentException when the text is not a value of {@code type}
     */
    public static Value decodeExact(byte[] json, Type type) {
        try {
            JsonNode n = Mappers.EXACT.readTree(json);
            return read(n == null ? NODES.nullNode() : n, type, true);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed JSON value: " + e.getMessage(), e);
        }
    }

    public static Value fromNode(JsonNode n, Type type) {
        return read(n, type, false);
    }

    private static Value read(JsonNode n, Type type, boolean exact) {
        if (type instanceof DynamicType) {
            if (n == null || n.isNull()) {
                return Value.NULL;
            }
            if (!n.isObject() || !n.has("type") || !n.has("value")) {
                throw new IllegalArgumentException("a dynamic value needs \"value\" and \"type\"");
            }
            return read(n.get("value"), parseType(n.get("type")), exact);
        }
        if (n == null || n.isNull()) {
            return Value.nullValue(type);
        }
        return switch (type) {
            case PrimitiveType p ->
                switch (p) {
                    case STRING -> {
                        if (n.isTextual()) {
                            yield Value.string(n.textValue());
                        }
                        if (n.isNumber() || n.isBoolean()) {
                            yield Value.string(n.asText());
                        }
                        throw new IllegalArgumentException("string required");
                    }
                    case NUMBER -> {
                        if (n.isNumber()) {
                            yield Value.number(n.decimalValue());
                        }
                        if (n.isTextual()) {
                            yield Value.number(new BigDecimal(n.textValue()));
                        }
                        throw new IllegalArgumentException("number required");
                    }
                    case BOOL -> {
                        if (n.isBoolean()) {
                            yield Value.bool(n.booleanValue());
                        }
                        if (!exact
                                && n.isTextual()
                                && (n.textValue().equals("true")
                                        || n.textValue().equals("false"))) {
                            yield Value.bool(Boolean.parseBoolean(n.textValue()));
                        }
                        throw new IllegalArgumentException("bool required");
                    }
                };
            case ListType l -> {
                List<Value> els = elements(n, l.elem(), exact);
                yield Value.list(exact ? concreteElementType(l.elem(), els) : l.elem(), els);
            }
            case SetType s -> {
                List<Value> els = elements(n, s.elem(), exact);
                yield Value.set(exact ? concreteElementType(s.elem(), els) : s.elem(), els);
            }
            case TupleType t -> {
                if (!n.isArray() || n.size() != t.elems().size()) {
                    throw new IllegalArgumentException("tuple of " + t.elems().size() + " elements required");
                }
                List<Value> out = new ArrayList<>();
                for (int i = 0; i < n.size(); i++) {
                    out.add(read(n.get(i), t.elems().get(i), exact));
                }
                yield Value.tuple(out);
            }
            case MapType m -> {
                if (!n.isObject()) {
                    throw new IllegalArgumentException("map required");
                }
                Map<String, Value> out = new TreeMap<>();
                n.properties().forEach(e -> out.put(e.getKey(), read(e.getValue(), m.elem(), exact)));
                yield Value.map(exact ? concreteElementType(m.elem(), List.copyOf(out.values())) : m.elem(), out);
            }
            case ObjectType ot -> {
                if (!n.isObject()) {
                    throw new IllegalArgumentException("object required");
                }
                if (exact) {
                    n.properties().forEach(e -> {
                        if (ot.attrType(e.getKey()) == null) {
                            throw new IllegalArgumentException("unsupported attribute \"" + e.getKey() + "\"");
                        }
                    });
                }
                Map<String, Value> out = new TreeMap<>();
                ot.attrs().forEach((k, t) -> out.put(k, read(n.get(k), t, exact)));
                yield Value.object(out);
            }
            case DynamicType d -> throw new IllegalStateException("handled above");
        };
    }

    private static List<Value> elements(JsonNode n, Type elem, boolean exact) {
        if (!n.isArray()) {
            throw new IllegalArgumentException("array required");
        }
        List<Value> out = new ArrayList<>();
        for (JsonNode e : n) {
            out.add(read(e, elem, exact));
        }
        return out;
    }

    /**
     * The element type of a decoded collection: where the declared one is (or holds) dynamic, the
     * type all elements share, as cty gives it; else the declared one.
     */
    public static Type concreteElementType(Type declared, List<Value> elems) {
        if (!declared.hasDynamic() || elems.isEmpty()) {
            return declared;
        }
        Type first = elems.get(0).type();
        for (Value e : elems) {
            if (!e.type().equals(first)) {
                return declared;
            }
        }
        return first;
    }

    /** A type in cty's JSON notation. */
    public static JsonNode typeNode(Type t) {
        return switch (t) {
            case PrimitiveType p -> NODES.textNode(p.keyword());
            case DynamicType d -> NODES.textNode("dynamic");
            case ListType l -> NODES.arrayNode().add("list").add(typeNode(l.elem()));
            case SetType s -> NODES.arrayNode().add("set").add(typeNode(s.elem()));
            case MapType m -> NODES.arrayNode().add("map").add(typeNode(m.elem()));
            case TupleType tt -> {
                ArrayNode els = NODES.arrayNode();
                tt.elems().forEach(e -> els.add(typeNode(e)));
                yield NODES.arrayNode().add("tuple").add(els);
            }
            case ObjectType o -> {
                ObjectNode attrs = NODES.objectNode();
                o.attrs().forEach((k, v) -> attrs.set(k, typeNode(v)));
                yield NODES.arrayNode().add("object").add(attrs);
            }
        };
    }

    public static String typeJson(Type t) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            Mappers.PLAIN.writeTree(g, typeNode(t));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    public static Type parseType(JsonNode n) {
        if (n.isTextual()) {
            return switch (n.textValue()) {
                case "string" -> Type.STRING;
                case "number" -> Type.NUMBER;
                case "bool" -> Type.BOOL;
                case "dynamic" -> Type.DYNAMIC;
                default -> throw new IllegalArgumentException("unknown type " + n.textValue());
            };
        }
        if (!n.isArray() || n.size() != 2 || !n.get(0).isTextual()) {
            throw new IllegalArgumentException("invalid type notation");
        }
        JsonNode arg = n.get(1);
        return switch (n.get(0).textValue()) {
            case "list" -> Type.list(parseType(arg));
            case "set" -> Type.set(parseType(arg));
            case "map" -> Type.map(parseType(arg));
            case "tuple" -> {
                List<Type> els = new ArrayList<>();
                for (JsonNode e : arg) {
                    els.add(parseType(e));
                }
                yield Type.tuple(els);
            }
            case "object" -> {
                Map<String, Type> attrs = new TreeMap<>();
                for (Map.Entry<String, JsonNode> e : arg.properties()) {
                    attrs.put(e.getKey(), parseType(e.getValue()));
                }
                yield Type.object(attrs);
            }
            default ->
                throw new IllegalArgumentException(
                        "unknown type kind " + n.get(0).textValue());
        };
    }
}
