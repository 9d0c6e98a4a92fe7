package dev.strata.lang.funcs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import dev.strata.hcl.Nesting;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON encoding and decoding of values with Terraform's conventions. */
final class Json {
    private Json() {}

    /**
     * The deepest nesting jsondecode accepts, as Terraform's (Go's decoder) does: measured with
     * terraform console, 10,001 nested arrays decode and 10,002 fail with "exceeded max depth".
     */
    static final int MAX_DEPTH = 10_001;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    /**
     * Encodes a wholly known value. Keys are sorted; {@code <}, {@code >}, {@code &}, U+2028 and
     * U+2029 are escaped as Go's encoder does.
     */
    static String encode(Value v) {
        StringBuilder b = new StringBuilder();
        encode(v, b);
        return b.toString();
    }

    private static void encode(Value v, StringBuilder b) {
        if (v.isNull()) {
            b.append("null");
            return;
        }
        Type t = v.type();
        if (t.equals(Type.STRING)) {
            string(v.asString(), b);
        } else if (t.equals(Type.NUMBER)) {
            if (v.isInfinite()) {
                throw FunctionError.call("JSON cannot represent an infinite number");
            }
            b.append(v.numberText());
        } else if (t.equals(Type.BOOL)) {
            b.append(v.asBool());
        } else if (t instanceof dev.strata.lang.types.MapType || t instanceof dev.strata.lang.types.ObjectType) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<String, Value> e : v.attributes().entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                string(e.getKey(), b);
                b.append(':');
                encode(e.getValue(), b);
            }
            b.append('}');
        } else {
            b.append('[');
            boolean first = true;
            for (Value e : v.elements()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                encode(e, b);
            }
            b.append(']');
        }
    }

    static void string(String s, StringBuilder b) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> b.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /** Decodes JSON text: objects become objects, arrays tuples, numbers exact. */
    static Value decode(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw FunctionError.call("EOF");
            }
            Value v = read(p, first, 0);
            if (p.nextToken() != null) {
                throw FunctionError.call("extraneous data after JSON object");
            }
            return v;
        } catch (UncheckedIOException | IOException e) {
            // Jackson found the problem; describe it as Go's decoder would.
            String m = JsonSyntax.firstError(text);
            throw FunctionError.callRevealing(m != null ? m : "invalid JSON");
        }
    }

    private static Value read(JsonParser p, JsonToken t, int depth) throws IOException {
        if (depth != Nesting.HANDOFF_DEPTH) {
            return readHere(p, t, depth);
        }
        // Deep documents continue on a stack that holds MAX_DEPTH levels (see Nesting).
        return Nesting.onDeepStack(() -> {
            try {
                return readHere(p, t, depth);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static Value readHere(JsonParser p, JsonToken t, int depth) throws IOException {
        if (t == null) {
            throw new JsonEOFException(p, null, "EOF");
        }
        return switch (t) {
            case START_OBJECT -> {
                Map<String, Value> m = new LinkedHashMap<>();
                for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                    if (k == null) {
                        throw new JsonEOFException(p, null, "EOF");
                    }
                    String name = p.currentName();
                    m.put(name, read(p, p.nextToken(), depth + 1));
                }
                yield Value.object(m);
            }
            case START_ARRAY -> {
                List<Value> l = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    if (e == null) {
                        throw new JsonEOFException(p, null, "EOF");
                    }
                    l.add(read(p, e, depth + 1));
                }
                yield Value.tuple(l);
            }
            case VALUE_STRING -> Value.string(p.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                java.math.BigDecimal n = new java.math.BigDecimal(p.getText());
                yield n.signum() == 0 && p.getText().startsWith("-") ? Value.NEGATIVE_ZERO : Value.number(n);
            }
            case VALUE_TRUE -> Value.TRUE;
            case VALUE_FALSE -> Value.FALSE;
            case VALUE_NULL -> Value.NULL;
            default -> throw FunctionError.call("unexpected JSON token " + t);
        };
    }
}
