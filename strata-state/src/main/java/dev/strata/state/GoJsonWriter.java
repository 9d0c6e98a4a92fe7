package dev.strata.state;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON the way Go's {@code encoding/json} does, because Terraform writes state with
 * {@code json.MarshalIndent(v, "", "  ")} and users diff, grep and commit those files: a state Strata
 * writes should be byte-identical to the one Terraform would write for the same content.
 *
 * <p>Go's rules, checked against the {@code terraform} binary: {@code "key": value} with one space,
 * empty containers as {@code {}} and {@code []}, HTML-significant characters {@code < > &} and the line
 * separators U+2028/U+2029 escaped as {@code \\u003c}-style lowercase escapes, {@code \b \f \n \r \t}
 * short escapes, other control characters as {@code \\u00XX}, DEL and non-ASCII written raw.
 *
 * <p>Output goes straight to UTF-8 bytes: states reach hundreds of megabytes, and building a String
 * first would double the copying.
 */
final class GoJsonWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    /** Chars escaped per capacity check in {@link #string}. */
    private static final int STRING_SLICE = 8192;

    private byte[] buf;
    private int len;

    GoJsonWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** The buffer's size, for tests of how far it grows. */
    int capacity() {
        return buf.length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            long want = Math.max((long) buf.length * 2, (long) len + more);
            if (want > Integer.MAX_VALUE - 16) {
                throw new OutOfMemoryError("JSON output larger than 2 GB");
            }
            buf = Arrays.copyOf(buf, (int) want);
        }
    }

    void raw(byte b) {
        ensure(1);
        buf[len++] = b;
    }

    private void raw(byte[] bs) {
        ensure(bs.length);
        System.arraycopy(bs, 0, buf, len, bs.length);
        len += bs.length;
    }

    /** Writes {@code s}, which must be ASCII that JSON needs no escape for (keys, punctuation, numbers), as is. */
    void ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
    }

    private void newlineIndent(int depth) {
        ensure(1 + 2 * depth);
        buf[len++] = '\n';
        for (int i = 0; i < depth; i++) {
            buf[len++] = ' ';
            buf[len++] = ' ';
        }
    }

    void indented(JsonValue v, int depth) {
        switch (v) {
            case JsonValue.ObjectValue o -> {
                if (o.members().isEmpty()) {
                    ascii("{}");
                    return;
                }
                raw((byte) '{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    if (!first) {
                        raw((byte) ',');
                    }
                    first = false;
                    newlineIndent(depth + 1);
                    string(e.getKey());
                    ascii(": ");
                    indented(e.getValue(), depth + 1);
                }
                newlineIndent(depth);
                raw((byte) '}');
            }
            case JsonValue.ArrayValue a -> {
                List<JsonValue> items = a.items();
                if (items.isEmpty()) {
                    ascii("[]");
                    return;
                }
                raw((byte) '[');
                for (int i = 0; i < items.size(); i++) {
                    if (i > 0) {
                        raw((byte) ',');
                    }
                    newlineIndent(depth + 1);
                    indented(items.get(i), depth + 1);
                }
                newlineIndent(depth);
                raw((byte) ']');
            }
            case JsonValue.StringValue s -> string(s.value());
            case JsonValue.NumberValue n -> ascii(n.text());
            case JsonValue.BoolValue b -> raw(b.value() ? TRUE : FALSE);
            case JsonValue.NullValue ignored -> raw(NULL);
        }
    }

    void compact(JsonValue v) {
        switch (v) {
            case JsonValue.ObjectValue o -> {
                raw((byte) '{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    if (!first) {
                        raw((byte) ',');
                    }
                    first = false;
                    string(e.getKey());
                    raw((byte) ':');
                    compact(e.getValue());
                }
                raw((byte) '}');
            }
            case JsonValue.ArrayValue a -> {
                raw((byte) '[');
                for (int i = 0; i < a.items().size(); i++) {
                    if (i > 0) {
                        raw((byte) ',');
                    }
                    compact(a.items().get(i));
                }
                raw((byte) ']');
            }
            case JsonValue.StringValue s -> string(s.value());
            case JsonValue.NumberValue n -> ascii(n.text());
            case JsonValue.BoolValue b -> raw(b.value() ? TRUE : FALSE);
            case JsonValue.NullValue ignored -> raw(NULL);
        }
    }

    void string(String s) {
        int n = s.length();
        ensure(1);
        buf[len++] = '"';
        // Worst case per char: a 6-byte escape. Reserved per slice rather than for the whole string: a
        // 50 MB value reserved whole would grow the buffer to six times its size (and double it again).
        for (int from = 0; from < n; ) {
            int to = Math.min(n, from + STRING_SLICE);
            from = slice(s, from, to, n);
        }
        ensure(1);
        buf[len++] = '"';
    }

    /** Writes chars {@code from} until {@code to} (one more to finish a surrogate pair); returns where it stopped. */
    private int slice(String s, int from, int to, int n) {
        ensure(6 * (to - from) + 6);
        byte[] b = buf;
        int p = len;
        int i = from;
        for (; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&') {
                    b[p++] = (byte) c;
                    continue;
                }
                b[p++] = '\\';
                switch (c) {
                    case '"' -> b[p++] = '"';
                    case '\\' -> b[p++] = '\\';
                    case '\n' -> b[p++] = 'n';
                    case '\r' -> b[p++] = 'r';
                    case '\t' -> b[p++] = 't';
                    case '\b' -> b[p++] = 'b';
                    case '\f' -> b[p++] = 'f';
                    default -> p = unicodeEscape(b, p, c);
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (c == '\u2028' || c == '\u2029') {
                b[p++] = '\\';
                p = unicodeEscape(b, p, c);
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, s.charAt(++i));
                    b[p++] = (byte) (0xF0 | (cp >> 18));
                    b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[p++] = (byte) (0x80 | (cp & 0x3F));
                } else {
                    // Go replaces invalid UTF-8 (a lone surrogate has no UTF-8 form) with an escaped U+FFFD.
                    b[p++] = '\\';
                    p = unicodeEscape(b, p, '\ufffd');
                }
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        len = p;
        return i;
    }

    /** Writes {@code uXXXX} (the backslash is already written). */
    private static int unicodeEscape(byte[] b, int p, char c) {
        b[p++] = 'u';
        b[p++] = HEX[(c >> 12) & 0xf];
        b[p++] = HEX[(c >> 8) & 0xf];
        b[p++] = HEX[(c >> 4) & 0xf];
        b[p++] = HEX[c & 0xf];
        return p;
    }
}
