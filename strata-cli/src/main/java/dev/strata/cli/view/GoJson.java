package dev.strata.cli.view;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON text as Go's {@code encoding/json} writes it, which Terraform uses for {@code output -json}:
 * {@code "key": value} with one space, two-space indentation with every array element on its own
 * line, {@code []} and {@code {}} for empty containers, and {@code < > &} escaped (see {@link Json#quote}).
 * Scripts compare these texts byte for byte, so Jackson's own pretty printer does not do.
 */
final class GoJson {
    private GoJson() {}

    /** As {@code json.MarshalIndent(v, "", "  ")}. */
    static String indented(JsonNode n) {
        StringBuilder b = new StringBuilder();
        write(n, b, 0, true);
        return b.toString();
    }

    /** As {@code json.Marshal(v)}. */
    static String compact(JsonNode n) {
        StringBuilder b = new StringBuilder();
        write(n, b, 0, false);
        return b.toString();
    }

    private static void write(JsonNode n, StringBuilder b, int depth, boolean indent) {
        if (n.isObject()) {
            if (n.isEmpty()) {
                b.append("{}");
                return;
            }
            b.append('{');
            Iterator<Map.Entry<String, JsonNode>> it = n.fields();
            boolean first = true;
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!first) {
                    b.append(',');
                }
                first = false;
                newline(b, depth + 1, indent);
                b.append(Json.quote(e.getKey())).append(indent ? ": " : ":");
                write(e.getValue(), b, depth + 1, indent);
            }
            newline(b, depth, indent);
            b.append('}');
        } else if (n.isArray()) {
            if (n.isEmpty()) {
                b.append("[]");
                return;
            }
            b.append('[');
            for (int i = 0; i < n.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                newline(b, depth + 1, indent);
                write(n.get(i), b, depth + 1, indent);
            }
            newline(b, depth, indent);
            b.append(']');
        } else if (n.isTextual()) {
            b.append(Json.quote(n.asText()));
        } else {
            // Numbers, booleans and null: Jackson writes them as Go does.
            b.append(n.toString());
        }
    }

    private static void newline(StringBuilder b, int depth, boolean indent) {
        if (indent) {
            b.append('\n').append("  ".repeat(depth));
        }
    }
}
