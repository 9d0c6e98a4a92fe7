package dev.strata.lang.value;

import dev.strata.hcl.GoUnicode;

/** Quotes strings the way Terraform's messages and console do (Go's {@code strconv.Quote}). */
public final class Quote {
    private Quote() {}

    public static String quote(String s) {
        if (plain(s)) {
            // Nothing to escape: one copy, not a builder grown char by char (values reach tens of megabytes).
            return "\"" + s + '"';
        }
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case 0x07 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case 0x0b -> b.append("\\v");
                default -> {
                    if (cp < 0x20 || cp == 0x7f) {
                        b.append(String.format("\\x%02x", cp));
                    } else if (cp >= 0x80 && !GoUnicode.isPrint(cp)) {
                        b.append(cp <= 0xffff ? String.format("\\u%04x", cp) : String.format("\\U%08x", cp));
                    } else {
                        b.appendCodePoint(cp);
                    }
                }
            }
        });
        return b.append('"').toString();
    }

    /** Printable ASCII without quote or backslash: the text quotes as it is. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }
}
