package dev.strata.cli.view;

/** Word wrapping for help and diagnostic text. */
final class Text {
    private Text() {}

    /**
     * Wraps each paragraph (lines separated by blank lines stay separate; single newlines are kept)
     * to {@code width} columns, prefixing every line with {@code indent}. Words longer than a line are
     * not broken.
     */
    static String wrap(String text, int width, String indent) {
        int room = Math.max(20, width - indent.length());
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
            int col = 0;
            out.append(indent);
            for (String word : line.trim().split(" +")) {
                if (col > 0 && col + 1 + word.length() > room) {
                    out.append('\n').append(indent);
                    col = 0;
                }
                if (col > 0) {
                    out.append(' ');
                    col++;
                }
                out.append(word);
                col += word.length();
            }
        }
        return out.toString();
    }
}
