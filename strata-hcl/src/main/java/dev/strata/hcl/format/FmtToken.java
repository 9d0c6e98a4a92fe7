package dev.strata.hcl.format;

import dev.strata.hcl.syntax.TokenType;
import java.nio.charset.StandardCharsets;

/**
 * A token as the formatter sees it: its type and exact bytes. Whitespace between tokens is not
 * kept here; {@link Layout} decides it anew.
 */
record FmtToken(TokenType type, byte[] bytes) {

    static FmtToken of(TokenType type, String text) {
        return new FmtToken(type, text.getBytes(StandardCharsets.UTF_8));
    }

    String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Width in characters, as alignment counts it: one per code point, and one per byte that is not
     * part of a well-formed sequence.
     */
    int columns() {
        int n = 0;
        for (byte b : bytes) {
            if ((b & 0xc0) != 0x80) {
                n++;
            }
        }
        return n;
    }

    /** A token that ends a line: a newline, or a line comment, which owns its newline. */
    boolean endsLine() {
        return type == TokenType.NEWLINE
                || (type == TokenType.COMMENT && bytes.length > 0 && bytes[bytes.length - 1] == '\n');
    }

    /** +1 for a token that opens a bracket pair, -1 for one that closes it, else 0. */
    int bracketChange() {
        return switch (type) {
            case OBRACE, OBRACK, OPAREN, TEMPLATE_INTERP, TEMPLATE_CONTROL -> 1;
            case CBRACE, CBRACK, CPAREN, TEMPLATE_SEQ_END -> -1;
            default -> 0;
        };
    }

    @Override
    public String toString() {
        return type + "(" + text().replace("\n", "\\n") + ")";
    }
}
