package dev.strata.hcl.format;

import dev.strata.hcl.syntax.TokenType;

/**
 * Whether one space or none goes between two neighbouring tokens of one cell. The rules are
 * ordered: the first that applies decides. They were worked out from the behaviour of HashiCorp's
 * formatter, probe by probe, and are pinned by {@code SpaceRulesTest} and the corpus tests.
 */
final class SpaceRules {
    private SpaceRules() {}

    /**
     * @param before the token before {@code subject} in the same cell, or null at the cell start
     * @param after  the token after {@code subject} in the same cell, or null at the cell end
     */
    static boolean spaceAfter(FmtToken before, FmtToken subject, FmtToken after) {
        if (after == null || after.type() == TokenType.NEWLINE) {
            return false; // never trailing spaces
        }
        TokenType s = subject.type();
        TokenType a = after.type();
        if (s == TokenType.IDENT && a == TokenType.OPAREN) {
            return false; // a call: the name hugs its parenthesis
        }
        if (s == TokenType.DOT || a == TokenType.DOT || s == TokenType.DOUBLE_COLON || a == TokenType.DOUBLE_COLON) {
            return false; // a.b and provider::ns::fn are one name each
        }
        if (a == TokenType.COMMA || a == TokenType.ELLIPSIS) {
            return false;
        }
        if (s == TokenType.COMMA) {
            return true;
        }
        if (s == TokenType.BANG) {
            return false; // logical not is always prefix
        }
        if (isTemplateText(s)
                || s == TokenType.OQUOTE
                || s == TokenType.OHEREDOC
                || isTemplateText(a)
                || a == TokenType.CQUOTE
                || a == TokenType.CHEREDOC) {
            return false; // the literal parts of a template are never touched
        }
        if (s == TokenType.IDENT && subject.text().equals("in") && before != null && before.type() == TokenType.IDENT) {
            // "for x in [y]": "in" is the keyword here, not a name being indexed.
            return true;
        }
        if (a == TokenType.OBRACK
                && (s == TokenType.IDENT || s == TokenType.NUMBER_LIT || subject.bracketChange() < 0)) {
            return false; // an index step
        }
        if (s == TokenType.MINUS) {
            // Negation hugs its operand; subtraction is spaced. A minus is a negation when what
            // precedes it cannot end an operand.
            return before != null && !endsNoOperand(before.type());
        }
        if (s == TokenType.OBRACE || a == TokenType.CBRACE) {
            return !(s == TokenType.OBRACE && a == TokenType.CBRACE); // { a = 1 } but {}
        }
        if ((s == TokenType.TEMPLATE_INTERP || s == TokenType.TEMPLATE_CONTROL) && a == TokenType.OBRACE) {
            return true; // "${ {...} }" keeps the two kinds of brace apart
        }
        if (s == TokenType.CBRACE && a == TokenType.TEMPLATE_SEQ_END) {
            return true;
        }
        if (s == TokenType.TEMPLATE_SEQ_END && (a == TokenType.TEMPLATE_INTERP || a == TokenType.TEMPLATE_CONTROL)) {
            return false;
        }
        if (subject.bracketChange() > 0 || after.bracketChange() < 0) {
            return false; // no padding inside ( ) [ ] ${ }
        }
        return true;
    }

    private static boolean isTemplateText(TokenType t) {
        return t == TokenType.QUOTED_LIT || t == TokenType.STRING_LIT;
    }

    /** Token types after which a minus must be a negation. */
    private static boolean endsNoOperand(TokenType t) {
        return switch (t) {
            case OPAREN,
                    OBRACE,
                    OBRACK,
                    EQUAL,
                    COLON,
                    COMMA,
                    QUESTION,
                    PLUS,
                    STAR,
                    SLASH,
                    PERCENT,
                    MINUS,
                    EQUAL_OP,
                    NOT_EQUAL,
                    GREATER_THAN,
                    GREATER_THAN_EQ,
                    LESS_THAN,
                    LESS_THAN_EQ,
                    AND,
                    OR,
                    BANG -> true;
            default -> false;
        };
    }
}
