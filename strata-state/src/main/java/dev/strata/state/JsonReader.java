package dev.strata.state;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads JSON bytes into {@link JsonValue} trees with Jackson's streaming parser. A syntax error becomes
 * a diagnostic whose subject is the line and column where parsing stopped, never an exception.
 */
final class JsonReader {
    // States hold provider data of any size: lift Jackson's default caps on string and number length.
    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNestingDepth(10_000)
                    .build())
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .build();

    private JsonReader() {}

    /** A syntax problem, with where it happened. */
    record SyntaxError(String message, SourcePos pos) {}

    /** Parses exactly one JSON document from {@code src}. */
    static Result<JsonValue> parseDocument(byte[] src, String filename) {
        Object r = parse(src);
        if (r instanceof SyntaxError e) {
            return Result.of(
                    JsonValue.NULL,
                    Diagnostics.of(Diagnostic.error(
                            "Invalid JSON",
                            "The file is not valid JSON: " + e.message() + ".",
                            SourceRange.at(filename, e.pos()))));
        }
        return Result.of((JsonValue) r);
    }

    /** The parsed value, or a {@link SyntaxError}. */
    static Object parse(byte[] src) {
        try (JsonParser p = FACTORY.createParser(src)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return new SyntaxError("the file is empty", SourcePos.START);
            }
            JsonValue v = value(p, t);
            JsonToken after = p.nextToken();
            if (after != null) {
                return new SyntaxError(
                        "unexpected content after the end of the JSON document", pos(p.currentTokenLocation()));
            }
            return v;
        } catch (StreamReadException e) {
            return new SyntaxError(describe(e), pos(e.getLocation()));
        } catch (JsonProcessingException e) {
            return new SyntaxError(describe(e), pos(e.getLocation()));
        } catch (IOException e) {
            // Parsing from a byte array does no I/O; anything else is a bug.
            throw new UncheckedIOException(e);
        }
    }

    private static JsonValue value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                ReadMembers members = new ReadMembers();
                JsonToken k;
                while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    members.put(name, value(p, p.nextToken()));
                }
                yield members.isEmpty() ? JsonValue.EMPTY_OBJECT : new JsonValue.ObjectValue(members);
            }
            case START_ARRAY -> {
                List<JsonValue> items = new ArrayList<>();
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    items.add(value(p, e));
                }
                yield items.isEmpty() ? JsonValue.EMPTY_ARRAY : new JsonValue.ArrayValue(items);
            }
            case VALUE_STRING -> new JsonValue.StringValue(p.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> new JsonValue.NumberValue(p.getText());
            case VALUE_TRUE -> JsonValue.TRUE;
            case VALUE_FALSE -> JsonValue.FALSE;
            case VALUE_NULL -> JsonValue.NULL;
            case END_OBJECT, END_ARRAY, FIELD_NAME, NOT_AVAILABLE, VALUE_EMBEDDED_OBJECT ->
                throw new IllegalStateException("unexpected token " + t + " from the JSON parser");
        };
    }

    static SourcePos pos(JsonLocation loc) {
        if (loc == null) {
            return SourcePos.START;
        }
        long offset = Math.max(0, loc.getByteOffset());
        return new SourcePos(Math.max(1, loc.getLineNr()), Math.max(1, loc.getColumnNr()), (int)
                Math.min(offset, Integer.MAX_VALUE));
    }

    /** Jackson's message, without its location suffix (we report the position ourselves). */
    private static String describe(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return "unreadable JSON";
        }
        if (m.startsWith("Unexpected end-of-input")) {
            return "the file ends in the middle of a JSON value, so it looks truncated";
        }
        int cut = m.indexOf("\n");
        if (cut >= 0) {
            m = m.substring(0, cut);
        }
        int marker = m.indexOf(" (start marker at");
        if (marker >= 0) {
            m = m.substring(0, marker);
        }
        return m.strip();
    }
}
