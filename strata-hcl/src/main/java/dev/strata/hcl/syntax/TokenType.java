package dev.strata.hcl.syntax;

/** The kinds of token of HCL's native syntax. */
public enum TokenType {
    // Single-character and operator tokens.
    OBRACE("{"),
    CBRACE("}"),
    OBRACK("["),
    CBRACK("]"),
    OPAREN("("),
    CPAREN(")"),
    OQUOTE("\""),
    CQUOTE("\""),
    OHEREDOC("<<"),
    CHEREDOC("heredoc end"),
    STAR("*"),
    SLASH("/"),
    PLUS("+"),
    MINUS("-"),
    PERCENT("%"),
    EQUAL("="),
    EQUAL_OP("=="),
    NOT_EQUAL("!="),
    LESS_THAN("<"),
    LESS_THAN_EQ("<="),
    GREATER_THAN(">"),
    GREATER_THAN_EQ(">="),
    AND("&&"),
    OR("||"),
    BANG("!"),
    DOT("."),
    COMMA(","),
    ELLIPSIS("..."),
    FAT_ARROW("=>"),
    QUESTION("?"),
    COLON(":"),
    DOUBLE_COLON("::"),
    TEMPLATE_INTERP("${"),
    TEMPLATE_CONTROL("%{"),
    TEMPLATE_SEQ_END("}"),
    /** Literal text inside a quoted template, escapes not yet decoded. */
    QUOTED_LIT("literal"),
    /** Literal text inside a heredoc or a bare template. */
    STRING_LIT("literal"),
    NUMBER_LIT("number"),
    IDENT("identifier"),
    COMMENT("comment"),
    NEWLINE("newline"),
    EOF("end of file"),
    // Tokens that are always errors, kept so the parser can say precisely what is wrong.
    BITWISE_AND("&"),
    BITWISE_OR("|"),
    BITWISE_NOT("~"),
    BITWISE_XOR("^"),
    STAR_STAR("**"),
    APOSTROPHE("'"),
    BACKTICK("`"),
    SEMICOLON(";"),
    TABS("tab"),
    INVALID("invalid character"),
    BAD_UTF8("invalid UTF-8"),
    QUOTED_NEWLINE("newline in string");

    private final String display;

    TokenType(String display) {
        this.display = display;
    }

    /** How the token reads in a message. */
    public String display() {
        return display;
    }
}
