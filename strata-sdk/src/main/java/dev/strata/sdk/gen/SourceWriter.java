package dev.strata.sdk.gen;

import java.util.List;

/** Lines of Java source with four-space indentation. */
final class SourceWriter {
    private final StringBuilder out = new StringBuilder(4096);
    private int depth;

    SourceWriter line(String text) {
        if (!text.isEmpty()) {
            out.repeat("    ", depth);
            out.append(text);
        }
        out.append('\n');
        return this;
    }

    SourceWriter blank() {
        return line("");
    }

    /** A line that opens a brace and indents what follows. */
    SourceWriter open(String text) {
        line(text);
        depth++;
        return this;
    }

    SourceWriter close() {
        depth--;
        return line("}");
    }

    /** A doc comment of the given lines; nothing when there are none. */
    SourceWriter doc(List<String> lines) {
        if (lines.isEmpty()) {
            return this;
        }
        if (lines.size() == 1 && lines.get(0).length() < 90) {
            return line("/** " + lines.get(0) + " */");
        }
        line("/**");
        for (String l : lines) {
            line(l.isEmpty() ? " *" : " * " + l);
        }
        return line(" */");
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
