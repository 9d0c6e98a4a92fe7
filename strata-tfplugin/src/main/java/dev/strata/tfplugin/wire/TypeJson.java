package dev.strata.tfplugin.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * cty's JSON encoding of types, in which schemas carry attribute types and dynamic values carry
 * their concrete type: {@code "string"}, {@code ["list","number"]},
 * {@code ["object",{"a":"bool"},["a"]]} (the third element lists optional attributes).
 */
public final class TypeJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private TypeJson() {}

    public static Type parse(byte[] json) {
        JsonNode node;
        try {
            node = MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new WireFormatException("type is not JSON: " + new String(json, StandardCharsets.UTF_8), e);
        }
        if (node == null) {
            throw new WireFormatException("empty type JSON");
        }
        return parse(node);
    }

    public static Type parse(JsonNode node) {
        if (node.isTextual()) {
            return switch (node.asText()) {
                case "string" -> Type.STRING;
                case "number" -> Type.NUMBER;
                case "bool" -> Type.BOOL;
                case "dynamic" -> Type.DYNAMIC;
                default -> throw new WireFormatException("unknown primitive type \"" + node.asText() + "\"");
            };
        }
        if (!node.isArray() || node.size() < 2 || !node.get(0).isTextual()) {
            throw new WireFormatException("invalid type JSON: " + node);
        }
        String kind = node.get(0).asText();
        JsonNode arg = node.get(1);
        return switch (kind) {
            case "list" -> Type.list(parse(arg));
            case "set" -> Type.set(parse(arg));
            case "map" -> Type.map(parse(arg));
            case "tuple" -> {
                if (!arg.isArray()) {
                    throw new WireFormatException("tuple element types must be an array: " + node);
                }
                List<Type> elems = new ArrayList<>();
                arg.forEach(e -> elems.add(parse(e)));
                yield Type.tuple(elems);
            }
            case "object" -> {
                if (!arg.isObject()) {
                    throw new WireFormatException("object attribute types must be an object: " + node);
                }
                TreeMap<String, Type> attrs = new TreeMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = arg.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    attrs.put(e.getKey(), parse(e.getValue()));
                }
                Set<String> optional = new HashSet<>();
                if (node.size() > 2) {
                    node.get(2).forEach(n -> optional.add(n.asText()));
                }
                yield new ObjectType(attrs, optional);
            }
            default -> throw new WireFormatException("unknown type kind \"" + kind + "\"");
        };
    }

    public static byte[] toBytes(Type type) {
        try {
            return MAPPER.writeValueAsBytes(toJson(type));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    public static JsonNode toJson(Type type) {
        return switch (type) {
            case PrimitiveType p -> NODES.textNode(p.keyword());
            case DynamicType d -> NODES.textNode("dynamic");
            case ListType l -> NODES.arrayNode().add("list").add(toJson(l.elem()));
            case SetType s -> NODES.arrayNode().add("set").add(toJson(s.elem()));
            case MapType m -> NODES.arrayNode().add("map").add(toJson(m.elem()));
            case TupleType t -> {
                ArrayNode elems = NODES.arrayNode();
                t.elems().forEach(e -> elems.add(toJson(e)));
                yield NODES.arrayNode().add("tuple").add(elems);
            }
            case ObjectType o -> {
                ObjectNode attrs = NODES.objectNode();
                o.attrs().forEach((k, v) -> attrs.set(k, toJson(v)));
                ArrayNode out = NODES.arrayNode().add("object").add(attrs);
                if (!o.optionalAttrs().isEmpty()) {
                    ArrayNode opt = NODES.arrayNode();
                    o.optionalAttrs().forEach(opt::add);
                    out.add(opt);
                }
                yield out;
            }
        };
    }
}
