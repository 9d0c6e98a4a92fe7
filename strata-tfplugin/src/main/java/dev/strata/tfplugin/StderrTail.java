package dev.strata.tfplugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The last lines a plugin wrote to stderr, kept so a crash can be explained with them. Only what
 * Terraform would show without {@code TF_LOG} is kept: plain output (a Go panic and its goroutine
 * dump) and warnings or errors. Providers log every call at trace level to stderr, as JSON lines
 * (go-plugin's hclog format) or with a {@code [DEBUG]}-style prefix; the host is expected to filter
 * them, and such lines are in Strata's debug log instead.
 */
final class StderrTail {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> QUIET = Set.of("trace", "debug", "info");
    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();

    StderrTail(int capacity) {
        this.capacity = capacity;
    }

    synchronized void add(String line) {
        String kept = shown(line);
        if (kept == null) {
            return;
        }
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(kept);
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** The line as a crash report shows it, or null when it is routine logging. */
    static String shown(String line) {
        String t = line.strip();
        if (t.startsWith("{\"@")) {
            try {
                JsonNode n = JSON.readTree(t);
                String level = n.path("@level").asText("").toLowerCase(Locale.ROOT);
                if (QUIET.contains(level)) {
                    return null;
                }
                return "[" + level.toUpperCase(Locale.ROOT) + "] "
                        + n.path("@message").asText(t);
            } catch (java.io.IOException e) {
                return line;
            }
        }
        for (String q : QUIET) {
            if (t.startsWith("[" + q.toUpperCase(Locale.ROOT) + "]")) {
                return null;
            }
        }
        return line;
    }
}
