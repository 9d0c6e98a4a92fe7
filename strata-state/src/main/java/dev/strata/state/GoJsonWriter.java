package dev.strata.state;

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
 */
final class GoJsonWriter {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private GoJsonWriter() {}

    static void indented(JsonValue v, StringBuilder out, int depth) {
        switch (v) {
            case JsonValue.ObjectValue o -> {
                if (o.members().isEmpty()) {
                    out.append("{}");
                    return;
                }
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    out.append(first ? "\n" : ",\n");
                    first = false;
                    indent(out, depth + 1);
                    string(e.getKey(), out);
                    out.append(": ");
                    indented(e.getValue(), out, depth + 1);
                }
                out.append('\n');
                indent(out, depth);
                out.append('}');
            }
            case JsonValue.ArrayValue a -> {
                List<JsonValue> items = a.items();
                if (items.isEmpty()) {
                    out.append("[]");
                    return;
                }
                out.append('[');
                for (int i = 0; i < items.size(); i++) {
                    out.append(i == 0 ? "\n" : ",\n");
                    indent(out, depth + 1);
                    indented(items.get(i), out, depth + 1);
                }
                out.append('\n');
                indent(out, depth);
                out.append(']');
            }
            case JsonValue.StringValue s -> string(s.value(), out);
            case JsonValue.NumberValue n -> out.append(n.text());
            case JsonValue.BoolValue b -> out.append(b.value());
            case JsonValue.NullValue ignored -> out.append("null");
        }
    }

    static void compact(JsonValue v, StringBuilder out) {
        switch (v) {
            case JsonValue.ObjectValue o -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string(e.getKey(), out);
                    out.append(':');
                    compact(e.getValue(), out);
                }
                out.append('}');
            }
            case JsonValue.ArrayValue a -> {
                out.append('[');
                for (int i = 0; i < a.items().size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    compact(a.items().get(i), out);
                }
                out.append(']');
            }
            case JsonValue.StringValue s -> string(s.value(), out);
            case JsonValue.NumberValue n -> out.append(n.text());
            case JsonValue.BoolValue b -> out.append(b.value());
            case JsonValue.NullValue ignored -> out.append("null");
        }
    }

    static void indent(StringBuilder out, int depth) {
        for (int i = 0; i < depth; i++) {
            out.append("  ");
        }
    }

    static void string(String s, StringBuilder out) {
        out.append('"');
        int n = s.length();
        int start = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            String esc = null;
            if (c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                esc = switch (c) {
                    case '"' -> "\\\"";
                    case '\\' -> "\\\\";
                    case '\n' -> "\\n";
                    case '\r' -> "\\r";
                    case '\t' -> "\\t";
                    case '\b' -> "\\b";
                    case '\f' -> "\\f";
                    default -> unicodeEscape(c);
                };
            } else if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1));
                if (paired) {
                    i++;
                    continue;
                }
                // Go replaces invalid UTF-8 (a lone surrogate has no UTF-8 form) with U+FFFD.
                esc = "\\ufffd";
            }
            if (esc != null) {
                out.append(s, start, i).append(esc);
                start = i + 1;
            }
        }
        out.append(s, start, n).append('"');
    }

    private static String unicodeEscape(char c) {
        return "\\u" + HEX[(c >> 12) & 0xf] + HEX[(c >> 8) & 0xf] + HEX[(c >> 4) & 0xf] + HEX[c & 0xf];
    }
}
