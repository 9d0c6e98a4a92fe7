package dev.strata.state;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.state.JsonValue.NumberValue;
import dev.strata.state.JsonValue.StringValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * Reads JSON bytes into {@link JsonValue} trees with Jackson's streaming parser. A syntax error becomes
 * a diagnostic whose subject is the line and column where parsing stopped, never an exception. One
 * reader reads one document (it keeps scratch space and the short strings it has seen); {@link
 * StateCodec} uses one for the parts of a state it keeps as trees while it streams the rest.
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

    /** Members and items of the objects and arrays being read, nested ones above their parents'. */
    private Object[] stack = new Object[64];

    private int top;
    /** Short strings and numbers seen before, by content: a state repeats them (types, enums, {@code 0}). */
    private StringValue[] strings;

    private NumberValue[] numbers;
    /** Longer strings are mostly unique (ids, names); hashing them would cost more than sharing saves. */
    private static final int SHARED_MAX_LENGTH = 64;

    private static final int CACHE_SIZE = 1 << 12;

    JsonReader() {}

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
            JsonValue v = new JsonReader().value(p, t);
            Object after = end(p);
            return after != null ? after : v;
        } catch (JsonProcessingException e) {
            return syntaxError(e);
        } catch (IOException e) {
            // Parsing from a byte array does no I/O; anything else is a bug.
            throw new UncheckedIOException(e);
        }
    }

    /** Null when the document ends after its value, else the {@link SyntaxError} for what follows. */
    static SyntaxError end(JsonParser p) throws IOException {
        JsonToken after = p.nextToken();
        return after == null
                ? null
                : new SyntaxError(
                        "unexpected content after the end of the JSON document", pos(p.currentTokenLocation()));
    }

    /** The syntax error Jackson reported, where it stopped. */
    static SyntaxError syntaxError(JsonProcessingException e) {
        return new SyntaxError(describe(e), pos(e.getLocation()));
    }

    /** The value that starts with {@code t}, the parser's current token; the parser is left on its last token. */
    JsonValue value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                int base = top;
                JsonToken k;
                while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonValue v = value(p, p.nextToken());
                    push(name);
                    push(v);
                }
                JsonMembers members = JsonMembers.of(stack, base, top);
                release(base);
                yield members.isEmpty() ? JsonValue.EMPTY_OBJECT : new JsonValue.ObjectValue(members);
            }
            case START_ARRAY -> {
                int base = top;
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    push(value(p, e));
                }
                int n = top - base;
                if (n == 0) {
                    yield JsonValue.EMPTY_ARRAY;
                }
                JsonValue[] items = new JsonValue[n];
                System.arraycopy(stack, base, items, 0, n);
                release(base);
                yield new JsonValue.ArrayValue(List.of(items));
            }
            case VALUE_STRING -> string(p);
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number(p);
            case VALUE_TRUE -> JsonValue.TRUE;
            case VALUE_FALSE -> JsonValue.FALSE;
            case VALUE_NULL -> JsonValue.NULL;
            case END_OBJECT, END_ARRAY, FIELD_NAME, NOT_AVAILABLE, VALUE_EMBEDDED_OBJECT ->
                throw new IllegalStateException("unexpected token " + t + " from the JSON parser");
        };
    }

    private void push(Object o) {
        if (top == stack.length) {
            stack = Arrays.copyOf(stack, stack.length * 2);
        }
        stack[top++] = o;
    }

    private void release(int base) {
        Arrays.fill(stack, base, top, null);
        top = base;
    }

    /** The current string token, shared with an earlier one of the same text when it is short. */
    StringValue string(JsonParser p) throws IOException {
        int len = p.getTextLength();
        if (len > SHARED_MAX_LENGTH) {
            return new StringValue(p.getText());
        }
        char[] chars = p.getTextCharacters();
        int off = p.getTextOffset();
        if (strings == null) {
            strings = new StringValue[CACHE_SIZE];
        }
        int slot = slot(chars, off, len);
        StringValue known = strings[slot];
        if (known != null && sameText(known.value(), chars, off, len)) {
            return known;
        }
        StringValue v = new StringValue(new String(chars, off, len));
        strings[slot] = v;
        return v;
    }

    private NumberValue number(JsonParser p) throws IOException {
        int len = p.getTextLength();
        if (len > 8) {
            return new NumberValue(p.getText());
        }
        char[] chars = p.getTextCharacters();
        int off = p.getTextOffset();
        if (numbers == null) {
            numbers = new NumberValue[CACHE_SIZE / 16];
        }
        int slot = slot(chars, off, len) & (numbers.length - 1);
        NumberValue known = numbers[slot];
        if (known != null && sameText(known.text(), chars, off, len)) {
            return known;
        }
        NumberValue v = new NumberValue(new String(chars, off, len));
        numbers[slot] = v;
        return v;
    }

    private static int slot(char[] chars, int off, int len) {
        int h = 0;
        for (int i = off; i < off + len; i++) {
            h = 31 * h + chars[i];
        }
        return (h ^ (h >>> 12)) & (CACHE_SIZE - 1);
    }

    private static boolean sameText(String s, char[] chars, int off, int len) {
        if (s.length() != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != chars[off + i]) {
                return false;
            }
        }
        return true;
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
