package dev.strata.hcl;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Strings quoted as Go's {@code strconv.Quote} and {@code %q} print them, for the lines Terraform prints with
 * them: a local-exec command, a module's subdirectory in an error, values in messages and the console
 * ({@code dev.strata.lang.value.Quote}).
 */
public final class GoQuote {
    private GoQuote() {}

    /** A list as Go prints a {@code []string} with {@code %q}: {@code ["a" "b"]}. */
    public static String list(List<String> items) {
        return items.stream().map(GoQuote::quote).collect(Collectors.joining(" ", "[", "]"));
    }

    /**
     * {@code s} in double quotes with Go's escapes, as {@code strconv.Quote} (and so {@code %q}) writes it:
     * control characters as backslash escapes ({@code a b f n r t v}, else {@code x} and two hex digits),
     * other characters Go does not print as {@code u} with four or {@code U} with eight hex digits.
     */
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
