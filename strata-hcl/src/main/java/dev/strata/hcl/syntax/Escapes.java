package dev.strata.hcl.syntax;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.nio.charset.StandardCharsets;

/** Decoding of the literal parts of templates. */
final class Escapes {
    private Escapes() {}

    /**
     * Decodes a quoted-template literal: backslash escapes plus {@code $${} and {@code %%{}. Problems
     * are added to {@code diags} unless the parser is already recovering from an error.
     */
    static String decodeQuoted(Token t, Diagnostics.Builder diags, boolean quiet) {
        String s = t.text();
        if (s.indexOf('\\') < 0 && s.indexOf("{") < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\') {
                if (i + 1 >= s.length()) {
                    sb.append(c);
                    i++;
                    continue;
                }
                char sel = s.charAt(i + 1);
                switch (sel) {
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case 'u', 'U' -> {
                        int n = sel == 'u' ? 4 : 8;
                        int j = i + 2;
                        while (j < s.length() && j < i + 2 + n && isHex(s.charAt(j))) {
                            j++;
                        }
                        if (j - (i + 2) != n) {
                            if (!quiet) {
                                diags.add(Diagnostic.error(
                                        "Invalid escape sequence",
                                        "The \\" + sel + " escape sequence must be followed by "
                                                + (n == 4 ? "four" : "eight") + " hexadecimal digits.",
                                        rangeWithin(t, i, j)));
                            }
                            i = j;
                            continue;
                        }
                        int cp = Integer.parseUnsignedInt(s.substring(i + 2, j), 16);
                        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                            if (!quiet) {
                                diags.add(Diagnostic.error(
                                        "Invalid escape sequence",
                                        "The escape sequence \\" + s.substring(i + 1, j)
                                                + " does not name a valid Unicode character.",
                                        rangeWithin(t, i, j)));
                            }
                        } else {
                            sb.appendCodePoint(cp);
                        }
                        i = j;
                        continue;
                    }
                    default -> {
                        if (!quiet) {
                            int end = i + 1 + Character.charCount(s.codePointAt(i + 1));
                            diags.add(Diagnostic.error(
                                    "Invalid escape sequence",
                                    "The symbol \"" + s.substring(i + 1, end)
                                            + "\" is not a valid escape sequence selector.",
                                    rangeWithin(t, i, end)));
                        }
                        sb.append(sel);
                    }
                }
                i += 2;
                continue;
            }
            if ((c == '$' || c == '%') && i + 2 < s.length() && s.charAt(i + 1) == c && s.charAt(i + 2) == '{') {
                sb.append(c).append('{');
                i += 3;
                continue;
            }
            sb.append(c);
            i++;
        }
        return sb.toString();
    }

    /** Heredoc and bare-template literals: only {@code $${} and {@code %%{} are escapes. */
    static String decodeTemplateLiteral(String s) {
        if (s.indexOf("${") < 0 && s.indexOf("%{") < 0) {
            return s;
        }
        return s.replace("$${", "${").replace("%%{", "%{");
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** The range of characters [from, to) of a token's text (which never spans lines here). */
    static SourceRange rangeWithin(Token t, int from, int to) {
        return new SourceRange(t.range().filename(), posWithin(t, from), posWithin(t, to));
    }

    static SourcePos posWithin(Token t, int charIndex) {
        String s = t.text();
        SourcePos p = t.range().start();
        int line = p.line();
        int col = p.column();
        int bytes = p.byteOffset();
        int i = 0;
        while (i < charIndex && i < s.length()) {
            int cp = s.codePointAt(i);
            int n = Character.charCount(cp);
            bytes += new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (cp == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
            i += n;
        }
        return new SourcePos(line, col, bytes);
    }
}
