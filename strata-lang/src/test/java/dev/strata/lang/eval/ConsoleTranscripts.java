package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Transcripts of the real {@code terraform console}: files of {@code ### expression} headers, each
 * followed by what the console printed. Tests replay them through {@link ConsoleSession}.
 */
public final class ConsoleTranscripts {
    private ConsoleTranscripts() {}

    public record Case(String expr, String expected) {}

    /** The cases of a transcript resource next to {@code anchor}; lines starting with # before the first case are comments. */
    public static List<Case> load(Class<?> anchor, String resource) throws IOException {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing test resource " + resource);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Case> out = new ArrayList<>();
            for (String block : text.split("(?m)^### ")) {
                if (block.startsWith("#") || block.isBlank()) {
                    continue;
                }
                int nl = block.indexOf('\n');
                out.add(new Case(block.substring(0, nl), block.substring(nl + 1).stripTrailing()));
            }
            return out;
        }
    }

    /** Errors print as "Error: summary" and a wrapped detail; compare with the wrapping undone. */
    public static String normalize(String text) {
        if (!text.startsWith("Error: ")) {
            return text;
        }
        int nl = text.indexOf('\n');
        return text.substring(0, nl) + "\n"
                + text.substring(nl + 1).replaceAll("\\s*\n\\s*", " ").trim();
    }

    /** What the console shows for one input: the value, or every error as "Error: summary" and detail. */
    public static String run(ConsoleSession session, String expr) {
        Result<String> r = session.evaluate(expr);
        if (!r.hasErrors()) {
            return r.value();
        }
        return String.join(
                "\n",
                r.diagnostics().asList().stream()
                        .filter(Diagnostic::isError)
                        .map(d -> "Error: " + d.summary() + "\n" + d.detail())
                        .toList());
    }
}
