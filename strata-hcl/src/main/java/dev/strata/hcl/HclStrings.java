package dev.strata.hcl;

/**
 * Strings written as HCL quoted literals, as Terraform writes them (instance keys in addresses, labels
 * {@code terraform fmt} rewrites): the escapes HCL needs and no others, so that the literal parses back to
 * the same string.
 */
public final class HclStrings {
    private HclStrings() {}

    /** {@code s} as a quoted literal, quotes included. */
    public static String quote(String s) {
        return '"' + escape(s) + '"';
    }

    /**
     * {@code s} as the body of a quoted literal: newline, return, tab, quote and backslash escaped, a {@code $}
     * or {@code %} before a brace doubled (so that it starts no template sequence), and what Go does not
     * count as printable written as {@code \\uXXXX} or {@code \\UXXXXXXXX}.
     */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '$', '%' -> {
                    sb.appendCodePoint(cp);
                    if (i < s.length() && s.charAt(i) == '{') {
                        sb.appendCodePoint(cp);
                    }
                }
                default -> {
                    // Keys are nearly always printable ASCII: no character-type look-up for those.
                    if ((cp >= 0x20 && cp < 0x7f) || GoUnicode.isPrint(cp)) {
                        sb.appendCodePoint(cp);
                    } else if (cp < 0x10000) {
                        sb.append(String.format("\\u%04x", cp));
                    } else {
                        sb.append(String.format("\\U%08x", cp));
                    }
                }
            }
        }
        return sb.toString();
    }
}
