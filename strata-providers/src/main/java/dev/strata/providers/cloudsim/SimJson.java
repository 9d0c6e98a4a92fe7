package dev.strata.providers.cloudsim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Map;

/**
 * The provider's request and response bodies through Jackson's streaming generator and parser: the same
 * JSON text and the same trees as {@code ObjectMapper.writeValueAsBytes} and {@code readTree}, without
 * databind's per-call serializer and deserializer contexts, which were most of a small body's cost in a
 * short run (interpreted and compiled anew for each of the first requests).
 */
final class SimJson {

    /**
     * Buffers recycled through a shared pool: the default keeps them per thread, and every request runs on a
     * virtual thread of its own, so each would allocate its parser's and generator's buffers anew.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.newConcurrentDequePool())
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SimJson() {}

    /** The JSON text of a tree, as UTF-8. */
    static byte[] write(JsonNode node) throws IOException {
        try (ByteArrayBuilder out = new ByteArrayBuilder(256);
                JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, node);
            g.flush();
            return out.toByteArray();
        }
    }

    private static void write(JsonGenerator g, JsonNode n) throws IOException {
        switch (n.getNodeType()) {
            case OBJECT -> {
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> e : n.properties()) {
                    g.writeFieldName(e.getKey());
                    write(g, e.getValue());
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (JsonNode e : n) {
                    write(g, e);
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(n.textValue());
            case BOOLEAN -> g.writeBoolean(n.booleanValue());
            case NUMBER -> {
                switch (n.numberType()) {
                    case INT -> g.writeNumber(n.intValue());
                    case LONG -> g.writeNumber(n.longValue());
                    case BIG_INTEGER -> g.writeNumber(n.bigIntegerValue());
                    case FLOAT -> g.writeNumber(n.floatValue());
                    case DOUBLE -> g.writeNumber(n.doubleValue());
                    case BIG_DECIMAL -> g.writeNumber(n.decimalValue());
                }
            }
            case NULL, MISSING -> g.writeNull();
            case BINARY, POJO -> throw new IllegalArgumentException("not a JSON value: " + n.getNodeType());
        }
    }

    /** The tree of a JSON text (UTF-8); an empty text is JSON null. */
    static JsonNode read(byte[] json) throws IOException {
        try (JsonParser p = FACTORY.createParser(json)) {
            JsonToken t = p.nextToken();
            return t == null ? NODES.nullNode() : value(p, t);
        }
    }

    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                ObjectNode o = NODES.objectNode();
                for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                    o.set(name, value(p, p.nextToken()));
                }
                yield o;
            }
            case START_ARRAY -> {
                ArrayNode a = NODES.arrayNode();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    a.add(value(p, e));
                }
                yield a;
            }
            case VALUE_STRING -> NODES.textNode(p.getText());
            case VALUE_NUMBER_INT ->
                switch (p.getNumberType()) {
                    case INT -> NODES.numberNode(p.getIntValue());
                    case LONG -> NODES.numberNode(p.getLongValue());
                    default -> NODES.numberNode(p.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> throw new com.fasterxml.jackson.core.JsonParseException(p, "unexpected " + t);
        };
    }
}
