package dev.strata.hcl.syntax;

import dev.strata.hcl.Literal;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the inside of a quoted template, a heredoc, or a bare template. Works in two passes: first
 * a flat list of literal, interpolation and directive items (where strip markers and the flush
 * heredoc rule are applied), then the nesting of {@code %{if}} and {@code %{for}} directives.
 */
final class TemplateParser {
    private final Parser p;

    TemplateParser(Parser p) {
        this.p = p;
    }

    private sealed interface Item {
        SourceRange range();
    }

    private static final class Lit implements Item {
        String text;
        SourceRange range;
        final boolean lineStart;

        Lit(String text, SourceRange range, boolean lineStart) {
            this.text = text;
            this.range = range;
            this.lineStart = lineStart;
        }

        @Override
        public SourceRange range() {
            return range;
        }
    }

    private record Interp(Expr expr, boolean stripBefore, boolean stripAfter, SourceRange range) implements Item {}

    private enum Kind {
        IF,
        ELSE,
        ENDIF,
        FOR,
        ENDFOR
    }

    private record Directive(
            Kind kind,
            Expr expr,
            String keyVar,
            String valVar,
            boolean stripBefore,
            boolean stripAfter,
            SourceRange range)
            implements Item {}

    // ---- entry points ------------------------------------------------------------------------------

    /** After the opening quote has been read. */
    Expr parseQuoted(Token open) {
        List<Item> items = new ArrayList<>();
        SourceRange end;
        while (true) {
            Token t = p.rawToken();
            switch (t.type()) {
                case QUOTED_LIT -> {
                    p.advanceRaw();
                    items.add(new Lit(Escapes.decodeQuoted(t, p.diags(), p.inRecovery()), t.range(), false));
                }
                case TEMPLATE_INTERP, TEMPLATE_CONTROL -> {
                    Item it = parseSequence(t);
                    if (it != null) {
                        items.add(it);
                    }
                }
                case CQUOTE -> {
                    p.advanceRaw();
                    end = t.range();
                    return build(items, SourceRange.between(open.range(), end), end);
                }
                case QUOTED_NEWLINE -> {
                    p.advanceRaw();
                    p.reportInvalid(t);
                    // As HCL: the string is also unterminated, where it was split.
                    p.reportAlso(
                            "Unterminated template string", "No closing marker was found for the string.", t.range());
                    return build(items, SourceRange.between(open.range(), t.range()), t.range());
                }
                case BAD_UTF8 -> {
                    p.advanceRaw();
                    p.reportInvalid(t);
                }
                default -> {
                    p.reportError(
                            "Unterminated template string", "No closing marker was found for the string.", t.range());
                    return build(items, SourceRange.between(open.range(), t.range()), t.range());
                }
            }
        }
    }

    /** After the heredoc opener ({@code <<EOT} plus newline) has been read. */
    Expr parseHeredoc(Token open) {
        boolean flush = open.text().startsWith("<<-");
        List<Item> items = new ArrayList<>();
        boolean lineStart = true;
        while (true) {
            Token t = p.rawToken();
            switch (t.type()) {
                case STRING_LIT -> {
                    p.advanceRaw();
                    items.add(new Lit(Escapes.decodeTemplateLiteral(t.text()), t.range(), lineStart));
                    lineStart = t.text().endsWith("\n");
                }
                case TEMPLATE_INTERP, TEMPLATE_CONTROL -> {
                    Item it = parseSequence(t);
                    if (it != null) {
                        items.add(it);
                    }
                    lineStart = false;
                }
                case CHEREDOC -> {
                    p.advanceRaw();
                    if (flush) {
                        flush(items);
                    }
                    Expr e = build(items, SourceRange.between(open.range(), t.range()), t.range());
                    return e;
                }
                case BAD_UTF8, INVALID -> {
                    p.advanceRaw();
                    p.reportInvalid(t);
                }
                default -> {
                    String marker = open.text().replaceFirst("^<<-?", "").strip();
                    p.reportError(
                            "Unterminated template string",
                            "No closing marker was found for this heredoc: a line containing only \"" + marker
                                    + "\" is expected before the end of the file.",
                            open.range());
                    return build(items, SourceRange.between(open.range(), t.range()), t.range());
                }
            }
        }
    }

    /** A whole bare template, up to the end of the input. */
    Expr parseBare(SourcePos start) {
        List<Item> items = new ArrayList<>();
        Token first = p.rawToken();
        while (true) {
            Token t = p.rawToken();
            switch (t.type()) {
                case STRING_LIT -> {
                    p.advanceRaw();
                    items.add(new Lit(Escapes.decodeTemplateLiteral(t.text()), t.range(), false));
                }
                case TEMPLATE_INTERP, TEMPLATE_CONTROL -> {
                    Item it = parseSequence(t);
                    if (it != null) {
                        items.add(it);
                    }
                }
                case EOF -> {
                    return build(
                            items,
                            new SourceRange(p.filename(), start, t.range().end()),
                            t.range());
                }
                default -> {
                    p.advanceRaw();
                    if (!p.reportInvalid(t)) {
                        p.reportError(
                                "Invalid template", "Unexpected " + t.type().display() + " in template.", t.range());
                    }
                }
            }
        }
    }

    // ---- sequences -----------------------------------------------------------------------------

    private Item parseSequence(Token opener) {
        p.advanceRaw();
        boolean stripBefore = opener.text().endsWith("~");
        if (opener.type() == TokenType.TEMPLATE_INTERP) {
            Expr e = p.parseEmbedded();
            Token close = p.peekEmbedded();
            if (close.type() == TokenType.EOF || close.type() == TokenType.CQUOTE) {
                // As HCL: the end of the text came first, which reads as a sequence never closed.
                p.reportError(
                        "Unclosed template interpolation sequence",
                        "There is no closing brace for this interpolation sequence before the end of the "
                                + (close.type() == TokenType.EOF ? "file" : "quoted template")
                                + ". This might be caused by incorrect nesting inside the given expression.",
                        opener.range());
                p.recoverToSeqEnd();
                return new Interp(e, stripBefore, false, SourceRange.between(opener.range(), close.range()));
            }
            if (close.type() != TokenType.TEMPLATE_SEQ_END) {
                if (!p.reportInvalid(close)) {
                    p.reportError(
                            "Extra characters after interpolation expression",
                            "Expected a closing brace to end the interpolation expression, but found extra characters."
                                    + "\n\nThis can happen when you include interpolation syntax for another language, "
                                    + "such as shell scripting, but forget to escape the interpolation start token. "
                                    + "If this is an embedded sequence for another language, escape it by starting "
                                    + "with \"$${\" instead of just \"${\".",
                            close.range(),
                            SourceRange.between(opener.range(), close.range()));
                }
                p.recoverToSeqEnd();
                return new Interp(e, stripBefore, false, SourceRange.between(opener.range(), close.range()));
            }
            p.readEmbedded();
            return new Interp(
                    e, stripBefore, close.text().startsWith("~"), SourceRange.between(opener.range(), close.range()));
        }
        Token kw = p.peekEmbedded();
        if (kw.type() != TokenType.IDENT) {
            p.reportError(
                    "Invalid template directive",
                    "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ "
                            + "sequence.",
                    kw.range());
            p.recoverToSeqEnd();
            return null;
        }
        p.readEmbedded();
        Kind kind;
        Expr expr = null;
        String keyVar = null;
        String valVar = null;
        switch (kw.text()) {
            case "if" -> {
                kind = Kind.IF;
                expr = p.parseEmbedded();
            }
            case "else" -> kind = Kind.ELSE;
            case "endif" -> kind = Kind.ENDIF;
            case "endfor" -> kind = Kind.ENDFOR;
            case "for" -> {
                kind = Kind.FOR;
                Token first = p.peekEmbedded();
                if (first.type() != TokenType.IDENT) {
                    p.reportError(
                            "Invalid 'for' directive",
                            "For directive requires variable name after 'for'.",
                            first.range());
                    p.recoverToSeqEnd();
                    return null;
                }
                p.readEmbedded();
                valVar = first.text();
                if (p.peekEmbedded().type() == TokenType.COMMA) {
                    p.readEmbedded();
                    Token second = p.peekEmbedded();
                    if (second.type() != TokenType.IDENT) {
                        p.reportError(
                                "Invalid 'for' directive",
                                "For directive requires value variable name after comma.",
                                second.range());
                        p.recoverToSeqEnd();
                        return null;
                    }
                    p.readEmbedded();
                    keyVar = first.text();
                    valVar = second.text();
                }
                Token in = p.peekEmbedded();
                if (in.type() != TokenType.IDENT || !in.text().equals("in")) {
                    p.reportError(
                            "Invalid 'for' directive",
                            "For directive requires the 'in' keyword after its name declarations.",
                            in.range());
                    p.recoverToSeqEnd();
                    return null;
                }
                p.readEmbedded();
                expr = p.parseEmbedded();
            }
            default -> {
                p.reportError(
                        "Invalid template control keyword",
                        "\"" + kw.text() + "\" is not a valid template control keyword. Valid keywords are if, "
                                + "else, endif, for and endfor.",
                        kw.range());
                p.recoverToSeqEnd();
                return null;
            }
        }
        Token close = p.peekEmbedded();
        if (close.type() != TokenType.TEMPLATE_SEQ_END) {
            if (!p.reportInvalid(close)) {
                p.reportError(
                        "Extra characters in " + kw.text() + " marker",
                        "Expected a closing brace to end the sequence, but found extra characters.",
                        close.range());
            }
            p.recoverToSeqEnd();
            // Cut short by the end of the input, the directive ends where the input does.
            SourceRange range = close.type() == TokenType.EOF
                    ? new SourceRange(
                            p.filename(), opener.range().start(), close.range().start())
                    : SourceRange.between(opener.range(), close.range());
            return new Directive(kind, expr, keyVar, valVar, stripBefore, false, range);
        }
        p.readEmbedded();
        return new Directive(
                kind,
                expr,
                keyVar,
                valVar,
                stripBefore,
                close.text().startsWith("~"),
                SourceRange.between(opener.range(), close.range()));
    }

    // ---- flush heredocs and strip markers --------------------------------------------------------

    /**
     * The {@code <<-} rule: find the smallest indentation of any line that starts with literal text
     * (lines that are only whitespace do not count; a line that starts with an interpolation counts
     * as zero) and remove that many leading whitespace characters from every counted line.
     */
    private static void flush(List<Item> items) {
        int min = Integer.MAX_VALUE;
        List<Lit> adjust = new ArrayList<>();
        boolean lineStart = true;
        for (Item it : items) {
            if (lineStart) {
                int spaces;
                if (it instanceof Lit l) {
                    int lead = leadingSpaceChars(l.text);
                    boolean blank = lead == l.text.codePointCount(0, l.text.length()) && l.text.endsWith("\n");
                    if (blank) {
                        spaces = Integer.MAX_VALUE;
                    } else {
                        spaces = lead;
                        adjust.add(l);
                    }
                } else {
                    spaces = 0;
                }
                min = Math.min(min, spaces);
            }
            lineStart = it instanceof Lit l && l.text.endsWith("\n");
        }
        if (min == Integer.MAX_VALUE || min == 0) {
            return;
        }
        for (Lit l : adjust) {
            int cut = l.text.offsetByCodePoints(0, Math.min(min, l.text.codePointCount(0, l.text.length())));
            String removed = l.text.substring(0, cut);
            l.text = l.text.substring(cut);
            SourcePos s = l.range.start();
            int bytes = removed.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            l.range = new SourceRange(
                    l.range.filename(),
                    new SourcePos(s.line(), s.column() + min, s.byteOffset() + bytes),
                    l.range.end());
        }
    }

    private static int leadingSpaceChars(String s) {
        int n = 0;
        int i = 0;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            if (!isSpace(cp)) {
                break;
            }
            n++;
            i += Character.charCount(cp);
        }
        return n;
    }

    /** Whitespace as Go's unicode.IsSpace defines it, which is what the flush and strip rules use. */
    static boolean isSpace(int cp) {
        return cp == ' '
                || cp == '\t'
                || cp == '\n'
                || cp == 0x0b
                || cp == '\f'
                || cp == '\r'
                || cp == 0x85
                || cp == 0xa0
                || Character.getType(cp) == Character.SPACE_SEPARATOR
                || cp == 0x2028
                || cp == 0x2029;
    }

    private static void applyStrip(List<Item> items) {
        for (int i = 0; i < items.size(); i++) {
            Item it = items.get(i);
            boolean before;
            boolean after;
            if (it instanceof Interp in) {
                before = in.stripBefore();
                after = in.stripAfter();
            } else if (it instanceof Directive d) {
                before = d.stripBefore();
                after = d.stripAfter();
            } else {
                continue;
            }
            if (before && i > 0 && items.get(i - 1) instanceof Lit l) {
                l.text = stripTrailing(l.text);
            }
            if (after && i + 1 < items.size() && items.get(i + 1) instanceof Lit l) {
                l.text = stripLeading(l.text);
            }
        }
    }

    private static String stripLeading(String s) {
        int i = 0;
        while (i < s.length() && isSpace(s.codePointAt(i))) {
            i += Character.charCount(s.codePointAt(i));
        }
        return s.substring(i);
    }

    private static String stripTrailing(String s) {
        int i = s.length();
        while (i > 0 && isSpace(s.codePointBefore(i))) {
            i -= Character.charCount(s.codePointBefore(i));
        }
        return s.substring(0, i);
    }

    // ---- building the tree ----------------------------------------------------------------------

    private int cursor;

    /** Where the template being built ends (its closing quote or marker, or the end of the input). */
    private SourceRange templateEnd;

    /** Whether the directives were given up on (nested too deeply): their ends were never matched up. */
    private boolean abandoned;

    private Expr build(List<Item> items, SourceRange range, SourceRange end) {
        templateEnd = end;
        abandoned = false;
        applyStrip(items);
        if (items.size() == 1 && items.get(0) instanceof Interp in) {
            // "${expr}" alone yields the expression's own value and type, not a string.
            return new Expr.TemplateWrap(in.expr(), range);
        }
        cursor = 0;
        List<Expr> parts = parts(items);
        while (cursor < items.size()) {
            // A stray else/endif/endfor at the top level.
            Directive d = (Directive) items.get(cursor++);
            p.reportAlso(
                    "Unexpected " + d.kind().name().toLowerCase() + " directive",
                    "The control directives within this template are unbalanced.",
                    d.range());
            parts.addAll(parts(items));
        }
        return new Expr.Template(mergeLiterals(parts), range);
    }

    /** Parts until an else/endif/endfor directive (not consumed), or the end. */
    private List<Expr> parts(List<Item> items) {
        List<Expr> out = new ArrayList<>();
        while (cursor < items.size()) {
            Item it = items.get(cursor);
            switch (it) {
                case Lit l -> {
                    cursor++;
                    if (!l.text.isEmpty()) {
                        out.add(new Expr.LiteralValue(new Literal.StringLit(l.text), l.range));
                    }
                }
                case Interp in -> {
                    cursor++;
                    out.add(in.expr());
                }
                case Directive d -> {
                    switch (d.kind()) {
                        case IF, FOR -> {
                            cursor++;
                            if (p.tooDeep()) {
                                // Nothing after this directive can be matched up any more; drop it all.
                                p.reportTooDeep("Template directive", d.range());
                                cursor = items.size();
                                abandoned = true;
                                return out;
                            }
                            out.add(p.nested(
                                    () -> d.kind() == Kind.IF ? ifDirective(items, d) : forDirective(items, d)));
                        }
                        case ELSE, ENDIF, ENDFOR -> {
                            // Ends these parts; the directive that opened them (or build, at the top
                            // level) decides whether it is the right closer and reports it if not.
                            return out;
                        }
                    }
                }
            }
        }
        return out;
    }

    private Expr ifDirective(List<Item> items, Directive open) {
        List<Expr> trueParts = parts(items);
        List<Expr> falseParts = List.of();
        SourceRange end = open.range();
        Directive next = cursor < items.size() ? (Directive) items.get(cursor) : null;
        if (next != null && next.kind() == Kind.ELSE) {
            cursor++;
            falseParts = parts(items);
            next = cursor < items.size() ? (Directive) items.get(cursor) : null;
        }
        if (next != null && next.kind() == Kind.ENDIF) {
            cursor++;
            end = next.range();
        } else {
            unbalanced("if", open, next);
        }
        SourceRange whole = SourceRange.between(open.range(), end);
        return new Expr.Conditional(
                open.expr(),
                new Expr.Template(mergeLiterals(trueParts), whole),
                new Expr.Template(mergeLiterals(falseParts), whole),
                whole);
    }

    /**
     * An if or for directive ({@code keyword}) closed by {@code next} (null: the template ended first), in
     * HCL's words; reported whatever went before, as HCL checks the directives' nesting apart from parsing.
     */
    private void unbalanced(String keyword, Directive open, Directive next) {
        if (abandoned) {
            return;
        }
        if (next == null) {
            p.reportAlso(
                    "Unexpected end of template",
                    "The " + keyword + " directive at " + open.range() + " is missing its corresponding end" + keyword
                            + " directive.",
                    templateEnd);
            return;
        }
        cursor++;
        p.reportAlso(
                "Unexpected " + next.kind().name().toLowerCase() + " directive",
                "Expecting an end" + keyword + " directive for the " + keyword + " started at " + open.range() + ".",
                next.range());
    }

    private Expr forDirective(List<Item> items, Directive open) {
        List<Expr> body = parts(items);
        SourceRange end = open.range();
        Directive next = cursor < items.size() ? (Directive) items.get(cursor) : null;
        if (next != null && next.kind() == Kind.ENDFOR) {
            cursor++;
            end = next.range();
        } else if (next != null && next.kind() == Kind.ELSE) {
            cursor++;
            p.reportAlso(
                    "Unexpected else directive", "An else clause is not expected for a for directive.", next.range());
        } else {
            unbalanced("for", open, next);
        }
        SourceRange whole = SourceRange.between(open.range(), end);
        Expr.ForExpr f = new Expr.ForExpr(
                open.keyVar(),
                open.valVar(),
                open.expr(),
                null,
                new Expr.Template(mergeLiterals(body), whole),
                null,
                false,
                open.range(),
                end,
                whole);
        return new Expr.TemplateJoin(f, whole);
    }

    /** Adjacent literal parts (a heredoc's lines) become one, so the tree does not depend on line splits. */
    private static List<Expr> mergeLiterals(List<Expr> parts) {
        List<Expr> out = new ArrayList<>(parts.size());
        for (Expr e : parts) {
            if (e instanceof Expr.LiteralValue l
                    && l.value() instanceof Literal.StringLit s
                    && !out.isEmpty()
                    && out.get(out.size() - 1) instanceof Expr.LiteralValue pl
                    && pl.value() instanceof Literal.StringLit ps) {
                out.set(
                        out.size() - 1,
                        new Expr.LiteralValue(
                                new Literal.StringLit(ps.value() + s.value()),
                                SourceRange.between(pl.range(), l.range())));
            } else {
                out.add(e);
            }
        }
        return out;
    }
}
