package dev.strata.lang.funcs;

import dev.strata.hcl.Nesting;

/**
 * Finds the first syntax error in JSON text and describes it in the words of Go's decoder,
 * which Terraform's jsondecode reports ("invalid character ']' looking for beginning of
 * value", "unexpected EOF"). Only used after the real parser has rejected the text.
 */
final class JsonSyntax {
    private final String s;
    private int i;

    private JsonSyntax(String s) {
        this.s = s;
    }

    /** The message for the first error, or null if none is found. */
    static String firstError(String text) {
        // Recurses once per nesting level, up to Json.MAX_DEPTH.
        return Nesting.onDeepStack(() -> firstErrorHere(text));
    }

    private static String firstErrorHere(String text) {
        JsonSyntax j = new JsonSyntax(text);
        try {
            j.ws();
            if (j.i >= j.s.length()) {
                return "EOF";
            }
            j.value(false);
            j.ws();
            return j.i < j.s.length() ? "extraneous data after JSON object" : null;
        } catch (Failure f) {
            return f.getMessage();
        }
    }

    private static final class Failure extends RuntimeException {
        Failure(String m) {
            super(m, null, false, false);
        }
    }

    private Failure invalid(String context) {
        // Callers pass the phrase Go's scanner uses for the position, e.g. "after array element".
        return new Failure("invalid character " + quoteChar(s.codePointAt(i)) + " " + context);
    }

    private static String quoteChar(int c) {
        if (c == '\'') {
            return "'\\''";
        }
        if (c == '"') {
            return "'\"'";
        }
        String q = dev.strata.lang.value.Quote.quote(new String(Character.toChars(c)));
        return "'" + q.substring(1, q.length() - 1) + "'";
    }

    private void ws() {
        while (i < s.length()
                && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r')) {
            i++;
        }
    }

    /** Between tokens, running out of input is plain EOF, as Go's token reader says. */
    private void needMore() {
        if (i >= s.length()) {
            throw new Failure("EOF");
        }
    }

    private int depth;

    /** {@code inArray}: whether the value is an array element, which Go's message mentions. */
    private void value(boolean inArray) {
        needMore();
        char c = s.charAt(i);
        if ((c == '{' || c == '[') && depth == Json.MAX_DEPTH) {
            throw new Failure((inArray ? "failed to read tuple value: " : "") + "invalid character '" + c
                    + "' exceeded max depth");
        }
        switch (c) {
            case '{' -> {
                depth++;
                object();
                depth--;
            }
            case '[' -> {
                depth++;
                array();
                depth--;
            }
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    number();
                } else {
                    throw invalid("looking for beginning of value");
                }
            }
        }
    }

    private void object() {
        i++;
        ws();
        needMore();
        if (s.charAt(i) == '}') {
            i++;
            return;
        }
        while (true) {
            needMore();
            if (s.charAt(i) != '"') {
                // Terraform's decoder reports a bad key with no further context.
                throw new Failure("invalid character " + quoteChar(s.codePointAt(i)));
            }
            string();
            ws();
            needMore();
            if (s.charAt(i) != ':') {
                throw invalid("after object key");
            }
            i++;
            ws();
            value(false);
            ws();
            needMore();
            char c = s.charAt(i);
            if (c == '}') {
                i++;
                return;
            }
            if (c != ',') {
                throw invalid("after object key:value pair");
            }
            i++;
            ws();
        }
    }

    private void array() {
        i++;
        ws();
        needMore();
        if (s.charAt(i) == ']') {
            i++;
            return;
        }
        while (true) {
            value(true);
            ws();
            needMore();
            char c = s.charAt(i);
            if (c == ']') {
                i++;
                return;
            }
            if (c != ',') {
                throw invalid("after array element");
            }
            i++;
            ws();
        }
    }

    private void string() {
        i++;
        while (true) {
            if (i >= s.length()) {
                throw new Failure("unexpected EOF");
            }
            char c = s.charAt(i);
            if (c == '"') {
                i++;
                return;
            }
            if (c < 0x20) {
                throw invalid("in string literal");
            }
            if (c == '\\') {
                i++;
                if (i >= s.length()) {
                    throw new Failure("unexpected EOF");
                }
                char e = s.charAt(i);
                if (e == 'u') {
                    for (int k = 1; k <= 4; k++) {
                        if (i + k >= s.length()) {
                            throw new Failure("unexpected EOF");
                        }
                        if (Character.digit(s.charAt(i + k), 16) < 0) {
                            i += k;
                            throw invalid("in \\u hexadecimal character escape");
                        }
                    }
                    i += 4;
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw invalid("in string escape code");
                }
            }
            i++;
        }
    }

    private void literal(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (i >= s.length()) {
                throw new Failure("unexpected EOF");
            }
            if (s.charAt(i) != word.charAt(k)) {
                throw invalid("in literal " + word + " (expecting " + quoteChar(word.charAt(k)) + ")");
            }
            i++;
        }
    }

    private void number() {
        if (s.charAt(i) == '-') {
            i++;
            if (i >= s.length()) {
                throw new Failure("unexpected EOF");
            }
            if (!Character.isDigit(s.charAt(i))) {
                throw invalid("in numeric literal");
            }
        }
        if (s.charAt(i) == '0') {
            i++;
        } else {
            digits();
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            if (i >= s.length()) {
                throw new Failure("unexpected EOF");
            }
            if (!Character.isDigit(s.charAt(i))) {
                throw invalid("after decimal point in numeric literal");
            }
            digits();
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            if (i >= s.length()) {
                throw new Failure("unexpected EOF");
            }
            if (!Character.isDigit(s.charAt(i))) {
                throw invalid("in exponent of numeric literal");
            }
            digits();
        }
    }

    private void digits() {
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
    }
}
