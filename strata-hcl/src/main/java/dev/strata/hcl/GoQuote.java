package dev.strata.hcl;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Strings quoted as Go's {@code %q} prints them, for the lines Terraform prints with it (a local-exec
 * command, a module's subdirectory in an error).
 */
public final class GoQuote {
    private GoQuote() {}

    /** A list as Go prints a {@code []string} with {@code %q}: {@code ["a" "b"]}. */
    public static String list(List<String> items) {
        return items.stream().map(GoQuote::quote).collect(Collectors.joining(" ", "[", "]"));
    }

    /** {@code s} in double quotes with Go's escapes. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case 7 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case 11 -> b.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", c));
                    } else {
                        b.appendCodePoint(c);
                    }
                }
            }
        });
        return b.append('"').toString();
    }
}
