package dev.strata.sdk.gen;

import java.util.ArrayList;
import java.util.List;

/** Schema descriptions as Javadoc text that can neither end the comment nor break the source. */
final class Javadoc {
    private Javadoc() {}

    /**
     * The lines of a doc comment for {@code text}, HTML-escaped; {@code @} cannot start a tag and
     * a backslash cannot start a Unicode escape (javac reads those even in comments). Blank lines
     * become paragraph breaks.
     */
    static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        boolean blank = false;
        for (String line : text.strip().split("\r\n|\r|\n")) {
            if (line.isBlank()) {
                blank = true;
                continue;
            }
            if (blank && !out.isEmpty()) {
                out.add("<p>");
            }
            blank = false;
            out.add(escape(line.stripTrailing()));
        }
        return out;
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '@' -> b.append("&#64;");
                case '\\' -> b.append("&#92;");
                case '*' -> b.append(i + 1 < s.length() && s.charAt(i + 1) == '/' ? "&#42;" : "*");
                default -> {
                    if (c >= ' ' || c == '\t') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /** A Java string literal for {@code s}: quotes, backslashes, control characters and non-ASCII escaped. */
    static String literal(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else if (c < 0x20) {
                // Octal, not a Unicode escape: javac reads those before it sees the literal, so a line feed would break
                // it.
                b.append(String.format("\\%03o", (int) c));
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.append('"').toString();
    }
}
