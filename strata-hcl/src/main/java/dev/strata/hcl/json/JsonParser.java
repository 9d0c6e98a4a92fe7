package dev.strata.hcl.json;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.DidYouMean;
import dev.strata.hcl.Nesting;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Utf8;
import dev.strata.hcl.json.JsonValue.JArray;
import dev.strata.hcl.json.JsonValue.JBool;
import dev.strata.hcl.json.JsonValue.JInvalid;
import dev.strata.hcl.json.JsonValue.JNull;
import dev.strata.hcl.json.JsonValue.JNumber;
import dev.strata.hcl.json.JsonValue.JObject;
import dev.strata.hcl.json.JsonValue.JString;
import dev.strata.hcl.json.JsonValue.OffsetMap;
import dev.strata.hcl.json.JsonValue.Property;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A JSON parser that works on the UTF-8 bytes and knows the position (line, column in code points,
 * byte offset) of everything it reads. It stops at the first structural error, since what follows a
 * broken JSON token has no reliable meaning, and returns the part it understood; lesser problems
 * inside a string (bad escape, bad encoding) are reported and parsing goes on.
 */
final class JsonParser {
    /** As deep as the native syntax may nest (Terraform's JSON parser has no limit short of its stack). */
    static final int MAX_DEPTH = Nesting.MAX_DEPTH;

    private final byte[] src;
    private final String filename;
    private final Diagnostics.Builder diags = Diagnostics.builder();
    /** Index into {@code src}; positions report {@code base + pos}, as {@code src} may be a slice of a file. */
    private int pos;

    private final int base;
    private int line;
    private int col;
    private int depth;
    private boolean failed;

    private JsonParser(byte[] src, String filename, SourcePos start) {
        this.src = src;
        this.filename = filename;
        this.base = start.byteOffset();
        this.line = start.line();
        this.col = start.column();
    }

    /** Parses one JSON value that must make up the whole input (after whitespace). */
    static Parsed parse(byte[] src, String filename, SourcePos start) {
        JsonParser p = new JsonParser(src, filename, start);
        JsonValue v = p.parseDocument();
        return new Parsed(v, p.diags.build());
    }

    record Parsed(JsonValue value, Diagnostics diagnostics) {}

    private JsonValue parseDocument() {
        if (src.length >= 3 && (src[0] & 0xff) == 0xef && (src[1] & 0xff) == 0xbb && (src[2] & 0xff) == 0xbf) {
            // HashiCorp's JSON parser rejects a byte order mark; so do we, but with a useful message.
            fail(
                    "Byte order mark at start of file",
                    "The file starts with a UTF-8 byte order mark, which JSON does not allow. Save the file as "
                            + "UTF-8 without a byte order mark.",
                    rangeOfBytes(3));
            return new JInvalid(emptyHere());
        }
        JsonValue v = parseValue();
        if (!failed) {
            skipWhitespace();
            if (pos < src.length) {
                fail(
                        "Extraneous data after value",
                        "Extra characters appear after the JSON value. A JSON document holds exactly one value; "
                                + "remove what follows it, or combine the values into one object or array.",
                        rangeOfNextChar());
            }
        }
        return v;
    }

    // ---- values -----------------------------------------------------------------------------------

    private JsonValue parseValue() {
        skipWhitespace();
        if (pos >= src.length) {
            fail("Missing value", "The JSON data ends prematurely: a value was expected here.", emptyHere());
            return new JInvalid(emptyHere());
        }
        int b = src[pos] & 0xff;
        switch (b) {
            case '{' -> {
                return nested(true);
            }
            case '[' -> {
                return nested(false);
            }
            case '"' -> {
                return parseString();
            }
            case '}', ']' -> {
                SourceRange r = rangeOfBytes(1);
                fail(
                        b == '}' ? "Missing JSON value" : "Missing array element value",
                        "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.",
                        r);
                return new JInvalid(r);
            }
            default -> {
                if (b == '-' || b == '+' || b == '.' || (b >= '0' && b <= '9')) {
                    return parseNumber();
                }
                if (isAlpha(b)) {
                    return parseKeyword();
                }
                SourceRange r = rangeOfNextChar();
                invalidChar(r, "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.");
                return new JInvalid(r);
            }
        }
    }

    private JsonValue nested(boolean object) {
        if (depth >= MAX_DEPTH) {
            SourceRange r = rangeOfBytes(1);
            fail(
                    "Value nested too deeply",
                    "JSON objects and arrays may be nested at most " + MAX_DEPTH + " levels deep here.",
                    r);
            return new JInvalid(r);
        }
        depth++;
        try {
            if (depth == Nesting.HANDOFF_DEPTH) {
                return Nesting.onDeepStack(() -> object ? parseObject() : parseArray());
            }
            return object ? parseObject() : parseArray();
        } finally {
            depth--;
        }
    }

    private JsonValue parseObject() {
        SourceRange open = rangeOfBytes(1);
        advanceAscii(1);
        List<Property> props = new ArrayList<>();
        while (true) {
            skipWhitespace();
            if (pos >= src.length) {
                fail("Unclosed object", "No closing brace was found for this JSON object.", open);
                return partialObject(props, open);
            }
            if (src[pos] == '}') {
                SourceRange close = rangeOfBytes(1);
                advanceAscii(1);
                return new JObject(props, open, SourceRange.between(open, close));
            }
            if (src[pos] != '"') {
                SourceRange r = rangeOfNextChar();
                if (utf8Length(pos) < 0) {
                    invalidChar(r, "");
                    return partialObject(props, open);
                }
                fail(
                        "Invalid object property name",
                        "A JSON object property name must be a string in double quotes.",
                        r);
                return partialObject(props, open);
            }
            JString name = parseString();
            if (failed) {
                return partialObject(props, open);
            }
            skipWhitespace();
            if (pos >= src.length || src[pos] != ':') {
                SourceRange r = pos >= src.length ? emptyHere() : rangeOfNextChar();
                int b = pos >= src.length ? -1 : src[pos];
                if (b == '=') {
                    fail(
                            "Missing property value colon",
                            "JSON uses a colon as its name/value delimiter, not an equals sign.",
                            r);
                } else if (b == '}' || b == ',') {
                    fail("Missing object value", "A JSON object property must have a value, introduced by a colon.", r);
                } else {
                    fail(
                            "Missing property value colon",
                            "A colon must appear between an object property's name and its value.",
                            r);
                }
                return partialObject(props, open);
            }
            advanceAscii(1);
            JsonValue value = parseValue();
            if (!(value instanceof JInvalid)) {
                props.add(new Property(name, value));
            }
            if (failed) {
                return partialObject(props, open);
            }
            skipWhitespace();
            if (pos >= src.length) {
                fail("Unclosed object", "No closing brace was found for this JSON object.", open);
                return partialObject(props, open);
            }
            switch (src[pos]) {
                case ',' -> {
                    SourceRange comma = rangeOfBytes(1);
                    advanceAscii(1);
                    skipWhitespace();
                    if (pos < src.length && src[pos] == '}') {
                        fail(
                                "Trailing comma in object",
                                "JSON does not permit a trailing comma after the final property in an object.",
                                comma);
                        return partialObject(props, open);
                    }
                }
                case '}' -> {}
                case ']' -> {
                    fail(
                            "Mismatched braces",
                            "A JSON object must be closed with a brace, not a bracket.",
                            rangeOfBytes(1));
                    return partialObject(props, open);
                }
                default -> {
                    fail(
                            "Missing property separator comma",
                            "A comma must appear between each property definition in an object.",
                            rangeOfNextChar());
                    return partialObject(props, open);
                }
            }
        }
    }

    private JObject partialObject(List<Property> props, SourceRange open) {
        return new JObject(props, open, new SourceRange(filename, open.start(), here()));
    }

    private JsonValue parseArray() {
        SourceRange open = rangeOfBytes(1);
        advanceAscii(1);
        List<JsonValue> elems = new ArrayList<>();
        while (true) {
            skipWhitespace();
            if (pos < src.length && src[pos] == ']') {
                SourceRange close = rangeOfBytes(1);
                advanceAscii(1);
                return new JArray(elems, open, SourceRange.between(open, close));
            }
            JsonValue v = parseValue();
            if (!(v instanceof JInvalid)) {
                elems.add(v);
            }
            if (failed) {
                return partialArray(elems, open);
            }
            skipWhitespace();
            if (pos >= src.length) {
                fail("Unclosed array", "No closing bracket was found for this JSON array.", open);
                return partialArray(elems, open);
            }
            switch (src[pos]) {
                case ',' -> {
                    SourceRange comma = rangeOfBytes(1);
                    advanceAscii(1);
                    skipWhitespace();
                    if (pos < src.length && src[pos] == ']') {
                        fail(
                                "Trailing comma in array",
                                "JSON does not permit a trailing comma after the final value in an array.",
                                comma);
                        return partialArray(elems, open);
                    }
                }
                case ']' -> {}
                case ':' -> {
                    fail(
                            "Invalid array value",
                            "A colon is not used to introduce values in a JSON array.",
                            rangeOfBytes(1));
                    return partialArray(elems, open);
                }
                case '}' -> {
                    fail(
                            "Mismatched brackets",
                            "A JSON array must be closed with a bracket, not a brace.",
                            rangeOfBytes(1));
                    return partialArray(elems, open);
                }
                default -> {
                    fail(
                            "Missing value separator comma",
                            "A comma must appear between each value in an array.",
                            rangeOfNextChar());
                    return partialArray(elems, open);
                }
            }
        }
    }

    private JArray partialArray(List<JsonValue> elems, SourceRange open) {
        return new JArray(elems, open, new SourceRange(filename, open.start(), here()));
    }

    private JString parseString() {
        SourcePos start = here();
        advanceAscii(1);
        ByteBuf out = new ByteBuf();
        while (true) {
            if (pos >= src.length) {
                SourceRange r = new SourceRange(filename, start, here());
                fail("Unterminated string", "The string starting here has no closing double quote.", r);
                return finishString(out, start);
            }
            int b = src[pos] & 0xff;
            if (b == '"') {
                out.mark(line, col, base + pos);
                advanceAscii(1);
                return finishString(out, start);
            }
            if (b < 0x20) {
                SourceRange r = new SourceRange(filename, here(), new SourcePos(line, col + 1, base + pos + 1));
                fail(
                        b == '\n' || b == '\r' ? "Unterminated string" : "Invalid JSON string",
                        b == '\n' || b == '\r'
                                ? "A JSON string cannot span lines; write a line break inside a string as \\n."
                                : "Control characters must be escaped inside JSON strings, for example \\t for a tab "
                                        + "or \\u0001.",
                        r,
                        new SourceRange(filename, start, r.end()));
                return finishString(out, start);
            }
            if (b == '\\') {
                escape(out, start);
                if (failed) {
                    return finishString(out, start);
                }
                continue;
            }
            int n = utf8Length(pos);
            if (n < 0) {
                SourceRange r = badEncodingRange();
                error(
                        "Invalid character encoding",
                        "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your "
                                + "editor.",
                        r,
                        null);
                out.appendCodePoint(0xfffd, line, col, base + pos);
                pos = r.end().byteOffset() - base;
                col++;
                continue;
            }
            for (int k = 0; k < n; k++) {
                out.add(src[pos + k], line, col, base + pos);
            }
            pos += n;
            col++;
        }
    }

    private void escape(ByteBuf out, SourcePos stringStart) {
        SourcePos at = here();
        if (pos + 1 >= src.length) {
            advanceAscii(1);
            fail(
                    "Unterminated string",
                    "The string starting here has no closing double quote.",
                    new SourceRange(filename, stringStart, here()));
            return;
        }
        int c = src[pos + 1] & 0xff;
        int decoded = switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> -2;
            default -> -1;
        };
        if (decoded >= 0) {
            advanceAscii(2);
            out.add((byte) decoded, at.line(), at.column(), at.byteOffset());
            return;
        }
        if (decoded == -1) {
            // Report the bad escape and keep its text, so one typo yields one message.
            advanceAscii(1);
            SourcePos before = here();
            int n = utf8Length(pos);
            advanceChar(n < 0 ? 1 : n);
            error(
                    "Invalid escape sequence",
                    "JSON strings allow the escapes \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX. To write a "
                            + "backslash itself, use \\\\.",
                    new SourceRange(filename, at, here()),
                    null);
            for (int i = before.byteOffset() - base; i < pos; i++) {
                out.add(src[i], at.line(), at.column(), at.byteOffset());
            }
            return;
        }
        int unit = hex4(pos + 2);
        if (unit < 0) {
            advanceAscii(2);
            while (pos < src.length && isHexDigit(src[pos] & 0xff) && pos < at.byteOffset() - base + 6) {
                advanceAscii(1);
            }
            error(
                    "Invalid escape sequence",
                    "A \\u escape needs exactly four hexadecimal digits, as in \\u00e9.",
                    new SourceRange(filename, at, here()),
                    null);
            out.appendCodePoint(0xfffd, at.line(), at.column(), at.byteOffset());
            return;
        }
        advanceAscii(6);
        int cp = unit;
        if (Character.isHighSurrogate((char) unit)) {
            int low = pos + 1 < src.length && src[pos] == '\\' && src[pos + 1] == 'u' ? hex4(pos + 2) : -1;
            if (low >= 0 && Character.isLowSurrogate((char) low)) {
                advanceAscii(6);
                cp = Character.toCodePoint((char) unit, (char) low);
            } else {
                // A lone surrogate cannot be encoded in UTF-8; JSON decoders commonly substitute U+FFFD.
                cp = 0xfffd;
            }
        } else if (Character.isLowSurrogate((char) unit)) {
            cp = 0xfffd;
        }
        out.appendCodePoint(cp, at.line(), at.column(), at.byteOffset());
    }

    private int hex4(int i) {
        if (i + 4 > src.length) {
            return -1;
        }
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int d = Character.digit(src[i + k] & 0xff, 16);
            if (d < 0 || !isHexDigit(src[i + k] & 0xff)) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }

    private static boolean isHexDigit(int b) {
        return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
    }

    private JString finishString(ByteBuf out, SourcePos start) {
        if (!out.closed()) {
            out.mark(line, col, base + pos);
        }
        SourceRange range = new SourceRange(filename, start, here());
        String value = new String(out.bytes(), 0, out.size(), StandardCharsets.UTF_8);
        return new JString(value, range, out.offsets(start.line()));
    }

    private JsonValue parseNumber() {
        SourcePos start = here();
        int i = pos;
        while (i < src.length && isNumberByte(src[i] & 0xff)) {
            i++;
        }
        String text = new String(src, pos, i - pos, StandardCharsets.US_ASCII);
        advanceAscii(i - pos);
        SourceRange r = new SourceRange(filename, start, here());
        if (!isJsonNumber(text)) {
            fail(
                    "Invalid JSON number",
                    "\"" + text + "\" is not a JSON number. JSON numbers are written like 12, -3.5 or 1e10: no "
                            + "leading plus sign or zeros, and digits on both sides of a decimal point.",
                    r);
            return new JInvalid(r);
        }
        try {
            return new JNumber(text, new BigDecimal(text), r);
        } catch (NumberFormatException | ArithmeticException e) {
            fail("Invalid JSON number", "The exponent of this number is too large to be represented.", r);
            return new JInvalid(r);
        }
    }

    private static boolean isNumberByte(int b) {
        return b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E' || (b >= '0' && b <= '9');
    }

    /** RFC 8259: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}. */
    static boolean isJsonNumber(String s) {
        int i = 0;
        int n = s.length();
        if (i < n && s.charAt(i) == '-') {
            i++;
        }
        if (i >= n) {
            return false;
        }
        if (s.charAt(i) == '0') {
            i++;
        } else if (s.charAt(i) >= '1' && s.charAt(i) <= '9') {
            while (i < n && Character.isDigit(s.charAt(i))) {
                i++;
            }
        } else {
            return false;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            int d = i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            if (i == d) {
                return false;
            }
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int d = i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            if (i == d) {
                return false;
            }
        }
        return i == n;
    }

    private JsonValue parseKeyword() {
        SourcePos start = here();
        int i = pos;
        while (i < src.length && (isAlpha(src[i] & 0xff) || src[i] == '_')) {
            i++;
        }
        String word = new String(src, pos, i - pos, StandardCharsets.US_ASCII);
        advanceAscii(i - pos);
        SourceRange r = new SourceRange(filename, start, here());
        switch (word) {
            case "true" -> {
                return new JBool(true, r);
            }
            case "false" -> {
                return new JBool(false, r);
            }
            case "null" -> {
                return new JNull(r);
            }
            case "undefined", "NaN", "Infinity" -> {
                fail("Invalid JSON keyword", "The JavaScript identifier \"" + word + "\" cannot be used in JSON.", r);
                return new JInvalid(r);
            }
            default -> {
                List<String> keywords = List.of("true", "false", "null");
                String lower = word.toLowerCase(Locale.ROOT);
                String dym = keywords.contains(lower)
                        ? " Did you mean \"" + lower + "\"?"
                        : DidYouMean.sentence(word, keywords);
                fail(
                        "Invalid JSON keyword",
                        "\"" + word + "\" is not a valid JSON keyword; strings must be in double quotes." + dym,
                        r);
                return new JInvalid(r);
            }
        }
    }

    // ---- diagnostics ------------------------------------------------------------------------------

    /** Records the first structural error and stops the parse; later ones would only be echoes. */
    private void fail(String summary, String detail, SourceRange subject) {
        fail(summary, detail, subject, null);
    }

    private void fail(String summary, String detail, SourceRange subject, SourceRange context) {
        error(summary, detail, subject, context);
        failed = true;
    }

    private void error(String summary, String detail, SourceRange subject, SourceRange context) {
        if (!failed) {
            diags.add(Diagnostic.error(summary, detail, subject, context));
        }
    }

    private void invalidChar(SourceRange r, String detail) {
        int b = src[pos] & 0xff;
        if (utf8Length(pos) < 0) {
            fail(
                    "Invalid character encoding",
                    "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.",
                    badEncodingRange());
            return;
        }
        String shown = new String(
                src, r.start().byteOffset(), r.end().byteOffset() - r.start().byteOffset(), StandardCharsets.UTF_8);
        String what = b == '\''
                ? "JSON strings must be in double quotes, not single quotes."
                : b == '/' || b == '#'
                        ? "JSON has no comments; use a property named \"//\" to hold a comment."
                        : detail;
        fail("Invalid character", "The character \"" + shown + "\" cannot start a JSON value. " + what, r);
    }

    // ---- positions --------------------------------------------------------------------------------

    private SourcePos here() {
        return new SourcePos(line, col, base + pos);
    }

    private SourceRange emptyHere() {
        return SourceRange.at(filename, here());
    }

    /** The next {@code n} bytes, which the caller knows to be ASCII on one line. */
    private SourceRange rangeOfBytes(int n) {
        int m = Math.min(n, src.length - pos);
        return new SourceRange(filename, here(), new SourcePos(line, col + m, base + pos + m));
    }

    /** The next character (a whole UTF-8 sequence, or one bad byte). */
    private SourceRange rangeOfNextChar() {
        int n = utf8Length(pos);
        return new SourceRange(filename, here(), new SourcePos(line, col + 1, base + pos + (n < 0 ? 1 : n)));
    }

    /** A run of bytes that are not UTF-8, reported as one problem. */
    private SourceRange badEncodingRange() {
        int i = pos;
        while (i < src.length && i < pos + 4 && utf8Length(i) < 0 && (i == pos || (src[i] & 0xc0) == 0x80)) {
            i++;
        }
        return new SourceRange(filename, here(), new SourcePos(line, col + 1, base + i));
    }

    private void skipWhitespace() {
        while (pos < src.length) {
            int b = src[pos];
            if (b == '\n') {
                pos++;
                line++;
                col = 1;
            } else if (b == ' ' || b == '\t' || b == '\r') {
                pos++;
                col++;
            } else {
                return;
            }
        }
    }

    private void advanceAscii(int n) {
        pos += n;
        col += n;
    }

    private void advanceChar(int bytes) {
        pos = Math.min(src.length, pos + bytes);
        col++;
    }

    private static boolean isAlpha(int b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    }

    private int utf8Length(int i) {
        return Utf8.sequenceLength(src, i);
    }

    /** The decoded bytes of a string and, per byte, the source position it came from. */
    private static final class ByteBuf {
        private byte[] bytes = new byte[16];
        private int[] cols = new int[17];
        private int[] offs = new int[17];
        private int size;
        private boolean closed;

        void add(byte b, int line, int col, int off) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, size * 2);
                cols = Arrays.copyOf(cols, size * 2 + 1);
                offs = Arrays.copyOf(offs, size * 2 + 1);
            }
            bytes[size] = b;
            cols[size] = col;
            offs[size] = off;
            size++;
        }

        void appendCodePoint(int cp, int line, int col, int off) {
            for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                add(b, line, col, off);
            }
        }

        /** Records where the string ends (its closing quote). */
        void mark(int line, int col, int off) {
            cols[size] = col;
            offs[size] = off;
            closed = true;
        }

        boolean closed() {
            return closed;
        }

        byte[] bytes() {
            return bytes;
        }

        int size() {
            return size;
        }

        OffsetMap offsets(int line) {
            return new OffsetMap(line, Arrays.copyOf(cols, size + 1), Arrays.copyOf(offs, size + 1));
        }
    }
}
