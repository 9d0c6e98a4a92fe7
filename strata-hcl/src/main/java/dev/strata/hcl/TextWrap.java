package dev.strata.hcl;

/** Word wrapping for human-readable text: diagnostics' details, help screens. */
public final class TextWrap {
    private TextWrap() {}

    /**
     * Wraps each line of {@code text} to {@code width} columns, every output line prefixed with
     * {@code indent} plus the line's own leading spaces (so indented lists stay indented). Blank
     * lines stay blank; words longer than the room are not broken.
     */
    public static String wrap(String text, int width, String indent) {
        StringBuilder out = new StringBuilder();
        String[] lines = text.split("\n", -1);
        for (int li = 0; li < lines.length; li++) {
            if (li > 0) {
                out.append('\n');
            }
            String line = lines[li];
            if (line.isBlank()) {
                continue;
            }
            int own = 0;
            while (own < line.length() && line.charAt(own) == ' ') {
                own++;
            }
            String pad = indent + line.substring(0, own);
            int room = Math.max(20, width - pad.length());
            int col = 0;
            out.append(pad);
            for (String word : line.substring(own).trim().split(" +")) {
                int len = word.codePointCount(0, word.length());
                if (col > 0 && col + 1 + len > room) {
                    out.append('\n').append(pad);
                    col = 0;
                }
                if (col > 0) {
                    out.append(' ');
                    col++;
                }
                out.append(word);
                col += len;
            }
        }
        return out.toString();
    }
}
