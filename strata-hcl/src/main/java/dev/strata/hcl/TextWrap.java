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

    /**
     * Wraps a diagnostic's detail as Terraform does: a line that begins with a space is preformatted
     * and kept as it is; any other line is broken between words so that no line is longer than
     * {@code limit} columns (counted in code points) unless a single word is. The spacing between words
     * is kept, except where a line breaks, where it is dropped. A {@code limit} below 1 wraps nothing.
     */
    public static String wrapDetail(String text, int limit) {
        if (limit < 1) {
            return text;
        }
        String[] lines = text.split("\n", -1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                out.append('\n');
            }
            out.append(lines[i].startsWith(" ") ? lines[i] : wrapWords(lines[i], limit));
        }
        return out.toString();
    }

    private static String wrapWords(String line, int limit) {
        StringBuilder out = new StringBuilder();
        StringBuilder spaces = new StringBuilder();
        StringBuilder word = new StringBuilder();
        int lineLen = 0;
        int spacesLen = 0;
        int wordLen = 0;
        for (int i = 0; i < line.length(); ) {
            int cp = line.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isWhitespace(cp)) {
                if (wordLen > 0) {
                    out.append(spaces).append(word);
                    lineLen += spacesLen + wordLen;
                    spaces.setLength(0);
                    spacesLen = 0;
                    word.setLength(0);
                    wordLen = 0;
                }
                spaces.appendCodePoint(cp);
                spacesLen++;
            } else {
                word.appendCodePoint(cp);
                wordLen++;
                // The word no longer fits after the spaces before it: it starts the next line instead,
                // and the spaces go. A word as long as the limit stays where it is.
                if (lineLen + spacesLen + wordLen > limit && wordLen < limit) {
                    out.append('\n');
                    lineLen = 0;
                    spaces.setLength(0);
                    spacesLen = 0;
                }
            }
        }
        if (wordLen > 0) {
            out.append(spaces).append(word);
        } else if (lineLen + spacesLen <= limit) {
            out.append(spaces);
        }
        return out.toString();
    }
}
