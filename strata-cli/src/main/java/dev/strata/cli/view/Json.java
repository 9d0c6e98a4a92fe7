package dev.strata.cli.view;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * JSON text as Terraform's Go encoder writes it: string literals for the small fixed-shape documents the CLI
 * writes without a JSON library, and indented documents as {@code json.MarshalIndent} lays them out.
 */
public final class Json {
    private Json() {}

    /**
     * Appends {@code n} as Go's {@code json.MarshalIndent} with two spaces writes it, its first line already
     * indented by the caller and its later lines by {@code indent}: {@code "key": value}, empty objects and
     * arrays as {@code {}} and {@code []}, strings escaped as {@link #quote} escapes them.
     */
    public static void indented(StringBuilder sb, JsonNode n, String indent) {
        switch (n.getNodeType()) {
            case OBJECT -> {
                if (n.isEmpty()) {
                    sb.append("{}");
                    return;
                }
                sb.append("{\n");
                var fields = n.properties().iterator();
                while (fields.hasNext()) {
                    var f = fields.next();
                    sb.append(indent).append("  ").append(quote(f.getKey())).append(": ");
                    indented(sb, f.getValue(), indent + "  ");
                    sb.append(fields.hasNext() ? ",\n" : "\n");
                }
                sb.append(indent).append('}');
            }
            case ARRAY -> {
                if (n.isEmpty()) {
                    sb.append("[]");
                    return;
                }
                sb.append("[\n");
                for (int i = 0; i < n.size(); i++) {
                    sb.append(indent).append("  ");
                    indented(sb, n.get(i), indent + "  ");
                    sb.append(i + 1 < n.size() ? ",\n" : "\n");
                }
                sb.append(indent).append(']');
            }
            case STRING -> sb.append(quote(n.textValue()));
            default -> sb.append(n); // numbers, booleans and null as JSON writes them
        }
    }

    /** {@code s} as a JSON string literal, quotes included. */
    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    // Also escape the HTML-sensitive and line-separator characters, as Go's encoder does.
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
