package dev.strata.hcl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Reads a generated file's source map: {@code {"sites": [{"from": 12, "to": 20, "file": "Infra.java",
 * "line": 14, "method": "Infra.build"}]}}, line spans of the generated file and the program line that
 * produced each. Spans nest; the smallest one containing a line is its origin.
 */
final class SourceMapOrigin {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SourceMapOrigin() {}

    /** {@code Infra.java:14 (Infra.build)} for {@code line}, or null without a map or a span covering it. */
    static String find(byte[] map, int line) {
        if (map == null) {
            return null;
        }
        JsonNode sites;
        try {
            sites = JSON.readTree(map).path("sites");
        } catch (IOException e) {
            return null; // a damaged map only costs the hint
        }
        JsonNode best = null;
        for (JsonNode s : sites) {
            int from = s.path("from").asInt(-1);
            int to = s.path("to").asInt(-1);
            if (from <= line && line <= to && (best == null || to - from < span(best))) {
                best = s;
            }
        }
        if (best == null || !best.path("file").isTextual()) {
            return null;
        }
        String method = best.path("method").asText("");
        return best.path("file").asText() + ":" + best.path("line").asInt()
                + (method.isEmpty() ? "" : " (" + method + ")");
    }

    private static int span(JsonNode s) {
        return s.path("to").asInt() - s.path("from").asInt();
    }
}
