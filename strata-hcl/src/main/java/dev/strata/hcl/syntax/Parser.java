package dev.strata.hcl.syntax;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Nesting;
import dev.strata.hcl.SchemaMessages;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Recursive-descent parser for HCL's native syntax. Newline sensitivity follows the spec: newlines
 * end body items and object-constructor items, and are ignored inside parentheses, brackets,
 * function arguments, interpolations and for expressions.
 *
 * <p>Error recovery works per body item: after the first error in an item the parser stays quiet
 * until the item ends, then resumes, so one run reports every independent error once.
 */
final class Parser {
    private final List<Token> tokens;
    private final String filename;
    private int pos;
    private final Deque<Boolean> newlines = new ArrayDeque<>();
    private final Diagnostics.Builder diags = Diagnostics.builder();
    /** Set after an error until the current body item ends, to avoid cascades. */
    private boolean recovery;

    Parser(List<Token> tokens, String filename) {
        this.tokens = tokens;
        this.filename = filename;
        newlines.push(true);
    }

    Diagnostics diagnostics() {
        return diags.build();
    }

    // ---- token access ------------------------------------------------------------------------------

    private int nextIndex;

    // peek() is called several times per token; remember its last answer for the same position
    // and newline mode.
    private int cachedPos = -1;
    private boolean cachedNewlines;
    private Token cachedToken;
    private int cachedNext;

    /** The next significant token: comments skipped, newlines skipped where they do not matter. */
    private Token peek() {
        boolean includeNewlines = newlines.peek();
        if (cachedPos == pos && cachedNewlines == includeNewlines) {
            nextIndex = cachedNext;
            return cachedToken;
        }
        Token t = scanPeek(includeNewlines);
        cachedPos = pos;
        cachedNewlines = includeNewlines;
        cachedToken = t;
        cachedNext = nextIndex;
        return t;
    }

    private Token scanPeek(boolean includeNewlines) {
        int i = pos;
        while (true) {
            Token t = tokens.get(i);
            if (t.type() == TokenType.COMMENT) {
                // A line comment owns its newline; where newlines matter it still ends the line.
                if (includeNewlines && t.text().endsWith("\n")) {
                    nextIndex = i + 1;
                    SourcePos end = t.range().end();
                    return new Token(TokenType.NEWLINE, "\n", new SourceRange(filename, newlineStart(t), end));
                }
                i++;
                continue;
            }
            if (t.type() == TokenType.NEWLINE && !includeNewlines) {
                i++;
                continue;
            }
            nextIndex = i + 1;
            return t;
        }
    }

    private static SourcePos newlineStart(Token comment) {
        // The newline is the comment's last character(s); its column is one past the text before it.
        String text = comment.text();
        int nlLen = text.endsWith("\r\n") ? 2 : 1;
        SourcePos s = comment.range().start();
        int cols = text.substring(0, text.length() - nlLen).codePointCount(0, text.length() - nlLen);
        return new SourcePos(s.line(), s.column() + cols, comment.range().end().byteOffset() - nlLen);
    }

    private Token read() {
        Token t = peek();
        if (t.type() != TokenType.EOF) {
            pos = nextIndex;
        }
        return t;
    }

    /** The raw token after the next significant one, ignoring newline settings (for two-token lookahead). */
    private Token peekSecond() {
        peek();
        int i = nextIndex;
        boolean includeNewlines = newlines.peek();
        while (i < tokens.size()) {
            Token t = tokens.get(i);
            if (t.type() == TokenType.COMMENT || (t.type() == TokenType.NEWLINE && !includeNewlines)) {
                i++;
                continue;
            }
            return t;
        }
        return tokens.get(tokens.size() - 1);
    }

    private SourceRange prevRange() {
        for (int i = pos - 1; i >= 0; i--) {
            Token t = tokens.get(i);
            if (t.type() != TokenType.COMMENT && t.type() != TokenType.NEWLINE) {
                return t.range();
            }
        }
        return tokens.get(0).range();
    }

    private void pushNewlines(boolean include) {
        newlines.push(include);
    }

    private void popNewlines() {
        newlines.pop();
    }

    private void error(String summary, String detail, SourceRange subject) {
        error(summary, detail, subject, null);
    }

    private void error(String summary, String detail, SourceRange subject, SourceRange context) {
        if (!recovery) {
            diags.add(Diagnostic.error(summary, detail, subject, context));
        }
        recovery = true;
    }

    private static boolean isKeyword(Token t, String word) {
        return t.type() == TokenType.IDENT && t.text().equals(word);
    }

    // ---- bodies --------------------------------------------------------------------------------------

    /** Parses a whole file. */
    SyntaxBody parseFile() {
        Token first = tokens.get(0);
        SyntaxBody body = parseBody(TokenType.EOF, first.range().start());
        return body;
    }

    /**
     * Parses body items until {@code end} (not consumed). {@code start} is where the body's range
     * begins: the opening brace of a block, or the start of the file.
     */
    private SyntaxBody parseBody(TokenType end, SourcePos start) {
        List<Attribute> attrs = new ArrayList<>();
        List<Block> blocks = new ArrayList<>();
        Map<String, Attribute> seen = new HashMap<>();
        while (true) {
            recovery = false;
            Token t = peek();
            if (t.type() == end || t.type() == TokenType.EOF) {
                break;
            }
            switch (t.type()) {
                case NEWLINE -> read();
                case IDENT -> {
                    Object item = parseBodyItem();
                    if (item instanceof Attribute a) {
                        Attribute prev = seen.get(a.name());
                        if (prev != null) {
                            diags.add(SchemaMessages.duplicateArgument(a.name(), prev.nameRange(), a.nameRange()));
                        } else {
                            seen.put(a.name(), a);
                            attrs.add(a);
                        }
                    } else if (item instanceof Block b) {
                        blocks.add(b);
                    }
                }
                case CBRACE -> {
                    // A stray closing brace where a body item should start.
                    read();
                    error(
                            "Argument or block definition required",
                            "An argument or block definition is required here. This closing brace has no "
                                    + "matching opening brace; check the nesting of the braces above it.",
                            t.range());
                }
                default -> {
                    read();
                    if (t.type() == TokenType.OQUOTE) {
                        error("Invalid argument name", "Argument names must not be quoted.", t.range());
                    } else if (!reportInvalidToken(t)) {
                        error(
                                "Argument or block definition required",
                                "An argument or block definition is required here.",
                                t.range());
                    }
                    recoverAfterBodyItem(t);
                }
            }
        }
        Token endTok = peek();
        SourceRange range = new SourceRange(
                filename,
                start,
                endTok.type() == end && end == TokenType.CBRACE
                        ? endTok.range().end()
                        : endTok.range().start());
        return new SyntaxBody(attrs, blocks, range, endTok.range());
    }

    /** Returns an Attribute, a Block, or null after an error. */
    private Object parseBodyItem() {
        Token ident = read();
        Token next = peek();
        switch (next.type()) {
            case EQUAL -> {
                return finishAttribute(ident, true);
            }
            case IDENT, OQUOTE, OBRACE -> {
                return finishBlock(ident);
            }
            default -> {
                if (!reportInvalidToken(next)) {
                    error(
                            "Argument or block definition required",
                            "An argument or block definition is required here. To set an argument, use the "
                                    + "equals sign \"=\" to introduce the argument value.",
                            ident.range());
                }
                recoverAfterBodyItem(ident);
                return null;
            }
        }
    }

    private Attribute finishAttribute(Token ident, boolean requireNewline) {
        read(); // =
        Expr expr = parseExpression();
        Attribute attr =
                new Attribute(ident.text(), expr, SourceRange.between(ident.range(), expr.range()), ident.range());
        if (!requireNewline) {
            return attr;
        }
        Token end = peek();
        if (end.type() == TokenType.NEWLINE || end.type() == TokenType.EOF) {
            read();
        } else if (end.type() == TokenType.CBRACE) {
            // "a = 1 }" ends the enclosing body on the same line: HCL wants a newline first.
            if (!reportInvalidToken(end)) {
                error(
                        "Missing newline after argument",
                        "An argument definition must end with a newline.",
                        end.range(),
                        SourceRange.between(ident.range(), end.range()));
            }
        } else {
            if (!reportInvalidToken(end)) {
                error(
                        "Missing newline after argument",
                        "An argument definition must end with a newline.",
                        end.range(),
                        SourceRange.between(ident.range(), end.range()));
            }
            recoverAfterBodyItem(end);
        }
        return attr;
    }

    private Block finishBlock(Token typeTok) {
        List<String> labels = new ArrayList<>();
        List<SourceRange> labelRanges = new ArrayList<>();
        while (true) {
            Token t = peek();
            if (t.type() == TokenType.IDENT) {
                read();
                labels.add(t.text());
                labelRanges.add(t.range());
            } else if (t.type() == TokenType.OQUOTE) {
                read();
                Label l = parseQuotedLabel(t);
                labels.add(l.value);
                labelRanges.add(l.range);
            } else {
                break;
            }
        }
        Token open = peek();
        if (open.type() != TokenType.OBRACE) {
            if (!reportInvalidToken(open)) {
                if (open.type() == TokenType.NEWLINE || open.type() == TokenType.EOF) {
                    error(
                            "Invalid block definition",
                            "A block definition must have block content delimited by \"{\" and \"}\", starting on "
                                    + "the same line as the block header.",
                            open.range());
                } else {
                    error(
                            "Invalid block definition",
                            "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                            open.range());
                }
            }
            recoverAfterBodyItem(open);
            return null;
        }
        read();
        SourceRange defRange = SourceRange.between(
                typeTok.range(), labelRanges.isEmpty() ? typeTok.range() : labelRanges.get(labelRanges.size() - 1));
        Token next = peek();
        SyntaxBody body;
        Token close;
        if (next.type() == TokenType.NEWLINE) {
            read();
            if (depth >= Nesting.MAX_DEPTH) {
                diags.add(Nesting.tooDeep("Block", open.range()));
                recovery = true;
                recoverTo(TokenType.CBRACE);
                return null;
            }
            body = nested(() -> parseBody(TokenType.CBRACE, open.range().start()));
            close = peek();
            if (close.type() != TokenType.CBRACE) {
                boolean wasRecovering = recovery;
                recovery = false;
                error(
                        "Unclosed configuration block",
                        "There is no closing brace for this block before the end of the file. This may be caused by "
                                + "incorrect brace nesting elsewhere in this file.",
                        open.range());
                recovery = wasRecovering;
                return new Block(
                        typeTok.text(),
                        labels,
                        body,
                        typeTok.range(),
                        labelRanges,
                        defRange,
                        SourceRange.between(typeTok.range(), close.range()));
            }
            read();
        } else {
            body = parseSingleLineBody(open);
            close = peek();
            if (close.type() != TokenType.CBRACE) {
                // The block's own closing brace may follow on a later line: skip to it, so it is not
                // mistaken for the end of the enclosing body.
                recoverTo(TokenType.CBRACE);
                return new Block(
                        typeTok.text(),
                        labels,
                        body,
                        typeTok.range(),
                        labelRanges,
                        defRange,
                        SourceRange.between(typeTok.range(), prevRange()));
            }
            read();
        }
        Block block = new Block(
                typeTok.text(),
                labels,
                body,
                typeTok.range(),
                labelRanges,
                defRange,
                SourceRange.between(typeTok.range(), close.range()));
        Token after = peek();
        if (after.type() == TokenType.NEWLINE || after.type() == TokenType.EOF) {
            read();
        } else {
            if (!reportInvalidToken(after)) {
                error(
                        "Missing newline after block definition",
                        "A block definition must end with a newline.",
                        after.range(),
                        SourceRange.between(typeTok.range(), after.range()));
            }
            if (after.type() != TokenType.CBRACE) {
                recoverAfterBodyItem(after);
            }
        }
        return block;
    }

    /** {@code { }} or {@code { name = expr }} on one line; the closing brace is left for the caller. */
    private SyntaxBody parseSingleLineBody(Token open) {
        Token t = peek();
        if (t.type() == TokenType.CBRACE) {
            return new SyntaxBody(List.of(), List.of(), SourceRange.between(open.range(), t.range()), t.range());
        }
        if (t.type() != TokenType.IDENT) {
            if (!reportInvalidToken(t)) {
                error(
                        "Argument or block definition required",
                        "An argument or block definition is required here.",
                        t.range());
            }
            recoverAfterBodyItem(t);
            return emptyBody(open);
        }
        Token second = peekSecond();
        if (second.type() != TokenType.EQUAL) {
            read();
            error(
                    "Argument definition required",
                    "A single-line block definition can contain only a single argument. If you meant to define "
                            + "argument \"" + t.text() + "\", use an equals sign to assign it a value. To define a "
                            + "nested block, place it on a line of its own within its parent block.",
                    SourceRange.between(t.range(), second.range()));
            recoverAfterBodyItem(second);
            return emptyBody(open);
        }
        read();
        Attribute attr = finishAttribute(t, false);
        Token close = peek();
        if (close.type() != TokenType.CBRACE) {
            if (close.type() == TokenType.EOF) {
                error(
                        "Unclosed configuration block",
                        "There is no closing brace for this block before the end of the file. This may be caused by "
                                + "incorrect brace nesting elsewhere in this file.",
                        open.range());
            } else if (close.type() == TokenType.NEWLINE) {
                error(
                        "Invalid single-argument block definition",
                        "An argument definition on the same line as its containing block creates a single-line "
                                + "block definition, which must also be closed on the same line. Place the block's "
                                + "closing brace immediately after the argument definition.",
                        close.range());
            } else if (!reportInvalidToken(close)) {
                error(
                        "Invalid single-argument block definition",
                        "A single-line block definition must end with a closing brace immediately after its single "
                                + "argument definition.",
                        close.range());
            }
        }
        return new SyntaxBody(
                List.of(attr), List.of(), SourceRange.between(open.range(), close.range()), close.range());
    }

    private SyntaxBody emptyBody(Token open) {
        return new SyntaxBody(List.of(), List.of(), open.range(), open.range());
    }

    private record Label(String value, SourceRange range) {}

    /** A quoted block label: a string with no interpolations. The opening quote is already read. */
    private Label parseQuotedLabel(Token open) {
        StringBuilder sb = new StringBuilder();
        while (true) {
            Token t = tokens.get(pos);
            switch (t.type()) {
                case QUOTED_LIT -> {
                    pos++;
                    sb.append(Escapes.decodeQuoted(t, diags, recovery));
                }
                case CQUOTE -> {
                    pos++;
                    return new Label(sb.toString(), SourceRange.between(open.range(), t.range()));
                }
                case TEMPLATE_INTERP, TEMPLATE_CONTROL -> {
                    error(
                            "Invalid string literal",
                            "Template sequences are not allowed in this string. To include a literal \""
                                    + t.text().charAt(0) + "\", double it (as \""
                                    + t.text().charAt(0)
                                    + t.text().charAt(0) + "\") to escape it.",
                            t.range());
                    skipTemplateSequence();
                }
                default -> {
                    pos = Math.min(pos, tokens.size() - 1);
                    if (!reportInvalidToken(t)) {
                        error("Unterminated template string", "No closing marker was found for the string.", t.range());
                    }
                    if (t.type() == TokenType.QUOTED_NEWLINE || t.type() == TokenType.BAD_UTF8) {
                        pos++;
                        continue;
                    }
                    return new Label(sb.toString(), SourceRange.between(open.range(), prevRange()));
                }
            }
        }
    }

    /** Skips a {@code ${...}} or {@code %{...}} sequence starting at the current raw token. */
    private void skipTemplateSequence() {
        int depth = 0;
        while (pos < tokens.size() - 1) {
            TokenType ty = tokens.get(pos).type();
            pos++;
            if (ty == TokenType.TEMPLATE_INTERP || ty == TokenType.TEMPLATE_CONTROL) {
                depth++;
            } else if (ty == TokenType.TEMPLATE_SEQ_END) {
                depth--;
                if (depth == 0) {
                    return;
                }
            }
        }
    }

    /**
     * Skips to the end of the current body item: the next newline outside any brackets, or the
     * closing brace of the enclosing body (left unconsumed).
     */
    private void recoverAfterBodyItem(Token from) {
        int depth = 0;
        // The token that caused the error may itself open a nesting level.
        while (true) {
            Token t = tokens.get(pos);
            switch (t.type()) {
                case EOF -> {
                    return;
                }
                case NEWLINE -> {
                    pos++;
                    if (depth == 0) {
                        return;
                    }
                }
                case COMMENT -> {
                    pos++;
                    if (depth == 0 && t.text().endsWith("\n")) {
                        return;
                    }
                }
                case OBRACE, OBRACK, OPAREN, OQUOTE, OHEREDOC, TEMPLATE_INTERP, TEMPLATE_CONTROL -> {
                    depth++;
                    pos++;
                }
                case CBRACE, CBRACK, CPAREN, CQUOTE, CHEREDOC, TEMPLATE_SEQ_END -> {
                    if (depth == 0) {
                        if (t.type() == TokenType.CBRACE) {
                            return; // the enclosing body's end
                        }
                        pos++;
                    } else {
                        depth--;
                        pos++;
                    }
                }
                default -> pos++;
            }
        }
    }

    /** Skips to just after the token that closes the construct whose opener was just read. */
    private void recoverTo(TokenType close) {
        int depth = 0;
        while (true) {
            Token t = tokens.get(pos);
            TokenType ty = t.type();
            if (ty == TokenType.EOF) {
                return;
            }
            if (depth == 0 && ty == close) {
                pos++;
                return;
            }
            switch (ty) {
                case OBRACE, OBRACK, OPAREN, OQUOTE, OHEREDOC, TEMPLATE_INTERP, TEMPLATE_CONTROL -> depth++;
                case CBRACE, CBRACK, CPAREN, CQUOTE, CHEREDOC, TEMPLATE_SEQ_END -> {
                    if (depth == 0) {
                        return; // an enclosing construct's closer: stop without consuming it
                    }
                    depth--;
                }
                default -> {}
            }
            pos++;
        }
    }

    /** Reports tokens that are never valid, with a message specific to the mistake. Returns true if it did. */
    private boolean reportInvalidToken(Token t) {
        String summary;
        String detail;
        switch (t.type()) {
            case BITWISE_AND -> {
                summary = "Unsupported operator";
                detail = "Bitwise operators are not supported. Did you mean boolean AND (\"&&\")?";
            }
            case BITWISE_OR -> {
                summary = "Unsupported operator";
                detail = "Bitwise operators are not supported. Did you mean boolean OR (\"||\")?";
            }
            case BITWISE_NOT -> {
                summary = "Unsupported operator";
                detail = "Bitwise operators are not supported. Did you mean boolean NOT (\"!\")?";
            }
            case BITWISE_XOR -> {
                summary = "Unsupported operator";
                detail = "Bitwise operators are not supported.";
            }
            case STAR_STAR -> {
                summary = "Unsupported operator";
                detail = "\"**\" is not a supported operator. Exponentiation is not supported as an operator; "
                        + "use the pow function instead.";
            }
            case APOSTROPHE -> {
                summary = "Invalid character";
                detail = "Single quotes are not valid. Use double quotes (\") to enclose strings.";
            }
            case BACKTICK -> {
                summary = "Invalid character";
                detail = "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" "
                        + "syntax, like \"<<EOT\".";
            }
            case SEMICOLON -> {
                summary = "Invalid character";
                detail = "The \";\" character is not valid. Use newlines to separate arguments and blocks, and "
                        + "commas to separate items in collection values.";
            }
            case INVALID -> {
                summary = "Invalid character";
                detail = t.text().equals("\ufeff")
                        ? "A byte order mark (U+FEFF) may appear only at the very start of a file."
                        : "This character is not used within the language.";
            }
            case BAD_UTF8 -> {
                summary = "Invalid character encoding";
                detail = "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your "
                        + "editor.";
            }
            case QUOTED_NEWLINE -> {
                summary = "Invalid multi-line string";
                detail = "Quoted strings may not be split over multiple lines. To produce a multi-line string, "
                        + "either use the \\n escape to represent a newline character or use the \"heredoc\" "
                        + "multi-line template syntax.";
            }
            default -> {
                return false;
            }
        }
        error(summary, detail, t.range());
        return true;
    }

    // ---- expressions -------------------------------------------------------------------------------

    Expr parseExpression() {
        if (depth >= Nesting.MAX_DEPTH) {
            return tooDeepExpression();
        }
        return nested(this::parseConditional);
    }

    /** Nesting levels of the recursion in progress: expressions, unary operators and blocks. */
    private int depth;

    /** One more level of recursion, moved to a deep stack once it gets deep (see {@link Nesting}). */
    <T> T nested(Supplier<T> body) {
        depth++;
        try {
            return depth == Nesting.HANDOFF_DEPTH ? Nesting.onDeepStack(body) : body.get();
        } finally {
            depth--;
        }
    }

    boolean tooDeep() {
        return depth >= Nesting.MAX_DEPTH;
    }

    /**
     * Reports input nested beyond the limit once, then skips the construct that starts here (up to the
     * next separator or closer at this level), so that the enclosing levels parse on without errors.
     */
    private Expr tooDeepExpression() {
        Token at = peek();
        if (!recovery) {
            diags.add(Nesting.tooDeep("Expression", at.range()));
        }
        recovery = true;
        int level = 0;
        while (true) {
            Token t = tokens.get(pos);
            switch (t.type()) {
                case EOF -> {
                    return placeholder(at.range());
                }
                case OBRACE, OBRACK, OPAREN, OQUOTE, OHEREDOC, TEMPLATE_INTERP, TEMPLATE_CONTROL -> level++;
                case CBRACE, CBRACK, CPAREN, CQUOTE, CHEREDOC, TEMPLATE_SEQ_END -> {
                    if (level == 0) {
                        return placeholder(at.range());
                    }
                    level--;
                }
                case COMMA, COLON, NEWLINE -> {
                    if (level == 0) {
                        return placeholder(at.range());
                    }
                }
                default -> {}
            }
            pos++;
        }
    }

    private Expr parseConditional() {
        Expr cond = parseBinary(0);
        Token q = peek();
        if (q.type() != TokenType.QUESTION) {
            return cond;
        }
        read();
        Expr trueExpr = parseExpression();
        Token colon = peek();
        if (colon.type() != TokenType.COLON) {
            error(
                    "Missing false expression in conditional",
                    "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                    colon.range());
            return new Expr.Conditional(
                    cond, trueExpr, placeholder(colon.range()), SourceRange.between(cond.range(), trueExpr.range()));
        }
        read();
        Expr falseExpr = parseExpression();
        return new Expr.Conditional(cond, trueExpr, falseExpr, SourceRange.between(cond.range(), falseExpr.range()));
    }

    /** Number of binary precedence levels: || && (== !=) (< > <= >=) (+ -) (* / %). */
    private static final int LEVELS = 6;

    /** The operator a token stands for, or null. */
    private static Expr.BinaryOp binaryOp(TokenType t) {
        return switch (t) {
            case OR -> Expr.BinaryOp.OR;
            case AND -> Expr.BinaryOp.AND;
            case EQUAL_OP -> Expr.BinaryOp.EQUAL;
            case NOT_EQUAL -> Expr.BinaryOp.NOT_EQUAL;
            case LESS_THAN -> Expr.BinaryOp.LESS_THAN;
            case LESS_THAN_EQ -> Expr.BinaryOp.LESS_THAN_OR_EQUAL;
            case GREATER_THAN -> Expr.BinaryOp.GREATER_THAN;
            case GREATER_THAN_EQ -> Expr.BinaryOp.GREATER_THAN_OR_EQUAL;
            case PLUS -> Expr.BinaryOp.ADD;
            case MINUS -> Expr.BinaryOp.SUBTRACT;
            case STAR -> Expr.BinaryOp.MULTIPLY;
            case SLASH -> Expr.BinaryOp.DIVIDE;
            case PERCENT -> Expr.BinaryOp.MODULO;
            default -> null;
        };
    }

    /** Precedence level of an operator, 0 (||) binding loosest. */
    private static int level(Expr.BinaryOp op) {
        return switch (op) {
            case OR -> 0;
            case AND -> 1;
            case EQUAL, NOT_EQUAL -> 2;
            case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> 3;
            case ADD, SUBTRACT -> 4;
            case MULTIPLY, DIVIDE, MODULO -> 5;
        };
    }

    /** Left-associative binary operators, one precedence level per recursion depth. */
    private Expr parseBinary(int level) {
        if (level == LEVELS) {
            return parseUnary();
        }
        Expr lhs = parseBinary(level + 1);
        while (true) {
            Expr.BinaryOp op = binaryOp(peek().type());
            if (op == null || level(op) != level) {
                return lhs;
            }
            read();
            Expr rhs = parseBinary(level + 1);
            lhs = new Expr.Binary(lhs, op, rhs, SourceRange.between(lhs.range(), rhs.range()));
        }
    }

    private Expr parseUnary() {
        Token t = peek();
        if (t.type() == TokenType.MINUS || t.type() == TokenType.BANG) {
            read();
            // The operand is a term with its traversals, not a binary expression: -1+2 is (-1)+2.
            Expr operand = depth >= Nesting.MAX_DEPTH ? tooDeepExpression() : nested(this::parseUnary);
            return new Expr.Unary(
                    t.type() == TokenType.MINUS ? Expr.UnaryOp.NEGATE : Expr.UnaryOp.NOT,
                    operand,
                    t.range(),
                    SourceRange.between(t.range(), operand.range()));
        }
        return parseTraversals(parseTerm());
    }

    private Expr placeholder(SourceRange r) {
        return new Expr.LiteralValue(Literal.NULL, r);
    }

    private Expr parseTerm() {
        Token t = peek();
        switch (t.type()) {
            case OPAREN -> {
                read();
                pushNewlines(false);
                try {
                    Expr inner = parseExpression();
                    Token close = peek();
                    if (close.type() != TokenType.CPAREN) {
                        error(
                                "Unbalanced parentheses",
                                "Expected a closing parenthesis to terminate the expression.",
                                close.range(),
                                SourceRange.between(t.range(), close.range()));
                        recoverTo(TokenType.CPAREN);
                        return new Expr.Parentheses(inner, SourceRange.between(t.range(), prevRange()));
                    }
                    read();
                    return new Expr.Parentheses(inner, SourceRange.between(t.range(), close.range()));
                } finally {
                    popNewlines();
                }
            }
            case NUMBER_LIT -> {
                read();
                return new Expr.LiteralValue(new Literal.NumberLit(parseNumber(t)), t.range());
            }
            case IDENT -> {
                return parseIdentTerm();
            }
            case OQUOTE -> {
                read();
                return new TemplateParser(this).parseQuoted(t);
            }
            case OHEREDOC -> {
                read();
                return new TemplateParser(this).parseHeredoc(t);
            }
            case OBRACK -> {
                read();
                if (isKeyword(peekRawSkippingNewlines(), "for")) {
                    return parseFor(t, TokenType.CBRACK);
                }
                return parseTuple(t);
            }
            case OBRACE -> {
                read();
                if (isKeyword(peekRawSkippingNewlines(), "for")) {
                    return parseFor(t, TokenType.CBRACE);
                }
                return parseObject(t);
            }
            default -> {
                if (!reportInvalidToken(t)) {
                    if (t.type() == TokenType.EOF) {
                        error(
                                "Missing expression",
                                "Expected the start of an expression, but found the end of the file.",
                                t.range());
                    } else {
                        error(
                                "Invalid expression",
                                "Expected the start of an expression, but found an invalid expression token.",
                                t.range());
                    }
                }
                return placeholder(t.range());
            }
        }
    }

    private Token peekRawSkippingNewlines() {
        pushNewlines(false);
        try {
            return peek();
        } finally {
            popNewlines();
        }
    }

    private BigDecimal parseNumber(Token t) {
        try {
            return new BigDecimal(t.text());
        } catch (NumberFormatException e) {
            error("Invalid number literal", "Failed to recognize the value of this number literal.", t.range());
            return BigDecimal.ZERO;
        }
    }

    private Expr parseIdentTerm() {
        Token name = read();
        // Namespaced function names: ns::fn(...) and provider::ns::fn(...).
        StringBuilder fullName = new StringBuilder(name.text());
        SourceRange nameRange = name.range();
        while (peek().type() == TokenType.DOUBLE_COLON) {
            read();
            Token id = peek();
            if (id.type() != TokenType.IDENT) {
                error(
                        "Missing function name",
                        "A namespaced function name such as provider::aws::arn_parse needs a "
                                + "name after each \"::\".",
                        id.range());
                return placeholder(SourceRange.between(nameRange, prevRange()));
            }
            read();
            fullName.append("::").append(id.text());
            nameRange = SourceRange.between(nameRange, id.range());
        }
        if (peek().type() == TokenType.OPAREN) {
            return parseFunctionCall(fullName.toString(), nameRange);
        }
        if (fullName.length() != name.text().length()) {
            error(
                    "Missing function call",
                    "A namespaced name such as \"" + fullName
                            + "\" must be a function call, followed by arguments in parentheses.",
                    nameRange);
            return placeholder(nameRange);
        }
        return switch (name.text()) {
            case "true" -> new Expr.LiteralValue(Literal.TRUE, name.range());
            case "false" -> new Expr.LiteralValue(Literal.FALSE, name.range());
            case "null" -> new Expr.LiteralValue(Literal.NULL, name.range());
            default ->
                new Expr.ScopeTraversal(
                        new Traversal(List.of(new Traverser.Root(name.text(), name.range()))), name.range());
        };
    }

    private Expr parseFunctionCall(String name, SourceRange nameRange) {
        Token open = read();
        pushNewlines(false);
        try {
            List<Expr> args = new ArrayList<>();
            boolean expand = false;
            while (true) {
                Token t = peek();
                if (t.type() == TokenType.CPAREN) {
                    read();
                    return new Expr.FunctionCall(name, args, expand, nameRange, open.range(), t.range());
                }
                // At the end of the file, as in HCL: a missing expression (an argument was expected).
                Expr arg = parseExpression();
                args.add(arg);
                Token sep = peek();
                if (sep.type() == TokenType.ELLIPSIS) {
                    read();
                    expand = true;
                    Token close = peek();
                    if (close.type() != TokenType.CPAREN) {
                        error(
                                "Missing closing parenthesis",
                                "An expanded function argument (with ...) must be immediately followed by closing "
                                        + "parentheses.",
                                sep.range(),
                                SourceRange.between(arg.range(), sep.range()));
                        recoverTo(TokenType.CPAREN);
                        return new Expr.FunctionCall(name, args, true, nameRange, open.range(), prevRange());
                    }
                    continue;
                }
                if (sep.type() == TokenType.COMMA) {
                    read();
                    continue;
                }
                if (sep.type() == TokenType.EOF) {
                    error(
                            "Unterminated function call",
                            "There is no closing parenthesis for this function call before the end of the file. This "
                                    + "may be caused by incorrect parenthesis nesting elsewhere in this file.",
                            SourceRange.between(nameRange, open.range()));
                    return new Expr.FunctionCall(name, args, expand, nameRange, open.range(), sep.range());
                }
                if (sep.type() != TokenType.CPAREN) {
                    if (!reportInvalidToken(sep)) {
                        error(
                                "Missing argument separator",
                                "A comma is required to separate each function argument from the next.",
                                sep.range(),
                                SourceRange.between(nameRange, sep.range()));
                    }
                    recoverTo(TokenType.CPAREN);
                    return new Expr.FunctionCall(name, args, expand, nameRange, open.range(), prevRange());
                }
            }
        } finally {
            popNewlines();
        }
    }

    private Expr parseTuple(Token open) {
        pushNewlines(false);
        try {
            List<Expr> elems = new ArrayList<>();
            while (true) {
                Token t = peek();
                if (t.type() == TokenType.CBRACK) {
                    read();
                    return new Expr.TupleCons(elems, open.range(), SourceRange.between(open.range(), t.range()));
                }
                // At the end of the file, as in HCL: a missing expression (an element was expected).
                Expr e = parseExpression();
                elems.add(e);
                Token sep = peek();
                if (sep.type() == TokenType.COMMA) {
                    read();
                    continue;
                }
                if (sep.type() == TokenType.EOF) {
                    error(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused "
                                    + "by incorrect bracket nesting elsewhere in this file.",
                            open.range());
                    return new Expr.TupleCons(elems, open.range(), SourceRange.between(open.range(), sep.range()));
                }
                if (sep.type() != TokenType.CBRACK) {
                    if (!reportInvalidToken(sep)) {
                        error(
                                "Missing item separator",
                                "Expected a comma to mark the beginning of the next item.",
                                sep.range(),
                                SourceRange.between(open.range(), sep.range()));
                    }
                    recoverTo(TokenType.CBRACK);
                    return new Expr.TupleCons(elems, open.range(), SourceRange.between(open.range(), prevRange()));
                }
            }
        } finally {
            popNewlines();
        }
    }

    private Expr parseObject(Token open) {
        pushNewlines(true);
        try {
            List<Expr.ObjectItem> items = new ArrayList<>();
            while (true) {
                Token t = peek();
                if (t.type() == TokenType.NEWLINE) {
                    read();
                    continue;
                }
                if (t.type() == TokenType.CBRACE) {
                    read();
                    return new Expr.ObjectCons(items, open.range(), SourceRange.between(open.range(), t.range()));
                }
                // At the end of the file, as in HCL: a missing expression (a key was expected).
                boolean force = t.type() == TokenType.OPAREN;
                Expr key = parseExpression();
                Token eq = peek();
                if (eq.type() != TokenType.EQUAL && eq.type() != TokenType.COLON) {
                    if (!reportInvalidToken(eq)) {
                        if (eq.type() == TokenType.NEWLINE
                                || eq.type() == TokenType.COMMA
                                || eq.type() == TokenType.CBRACE) {
                            error(
                                    "Missing attribute value",
                                    "Expected an attribute value, introduced by an equals sign (\"=\").",
                                    eq.range());
                        } else {
                            error(
                                    "Missing key/value separator",
                                    "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                                    eq.range(),
                                    SourceRange.between(key.range(), eq.range()));
                        }
                    }
                    recoverTo(TokenType.CBRACE);
                    return new Expr.ObjectCons(items, open.range(), SourceRange.between(open.range(), prevRange()));
                }
                read();
                Expr value = parseExpression();
                items.add(new Expr.ObjectItem(new Expr.ObjectKey(key, force), value));
                Token sep = peek();
                if (sep.type() == TokenType.COMMA || sep.type() == TokenType.NEWLINE) {
                    read();
                    continue;
                }
                if (sep.type() == TokenType.EOF) {
                    error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused "
                                    + "by incorrect brace nesting elsewhere in this file.",
                            open.range());
                    return new Expr.ObjectCons(items, open.range(), SourceRange.between(open.range(), sep.range()));
                }
                if (sep.type() != TokenType.CBRACE) {
                    if (!reportInvalidToken(sep)) {
                        error(
                                "Missing attribute separator",
                                "Expected a newline or comma to mark the beginning of the next attribute.",
                                sep.range(),
                                SourceRange.between(open.range(), sep.range()));
                    }
                    recoverTo(TokenType.CBRACE);
                    return new Expr.ObjectCons(items, open.range(), SourceRange.between(open.range(), prevRange()));
                }
            }
        } finally {
            popNewlines();
        }
    }

    private Expr parseFor(Token open, TokenType closeType) {
        pushNewlines(false);
        try {
            boolean object = closeType == TokenType.CBRACE;
            read(); // "for"
            Token first = peek();
            if (first.type() != TokenType.IDENT) {
                error("Invalid 'for' expression", "For expression requires variable name after 'for'.", first.range());
                recoverTo(closeType);
                return placeholder(SourceRange.between(open.range(), prevRange()));
            }
            read();
            String keyVar = null;
            String valVar = first.text();
            if (peek().type() == TokenType.COMMA) {
                read();
                Token second = peek();
                if (second.type() != TokenType.IDENT) {
                    error(
                            "Invalid 'for' expression",
                            "For expression requires value variable name after comma.",
                            second.range());
                    recoverTo(closeType);
                    return placeholder(SourceRange.between(open.range(), prevRange()));
                }
                read();
                keyVar = first.text();
                valVar = second.text();
            }
            Token in = peek();
            if (!isKeyword(in, "in")) {
                error(
                        "Invalid 'for' expression",
                        "For expression requires the 'in' keyword after its name declarations.",
                        in.range());
                recoverTo(closeType);
                return placeholder(SourceRange.between(open.range(), prevRange()));
            }
            read();
            Expr coll = parseExpression();
            Token colon = peek();
            if (colon.type() != TokenType.COLON) {
                error(
                        "Invalid 'for' expression",
                        "For expression requires a colon after the collection expression.",
                        colon.range());
                recoverTo(closeType);
                return placeholder(SourceRange.between(open.range(), prevRange()));
            }
            read();
            Expr keyExpr = null;
            if (object) {
                keyExpr = parseExpression();
                Token arrow = peek();
                if (arrow.type() != TokenType.FAT_ARROW) {
                    error(
                            "Invalid 'for' expression",
                            "For expression requires a '=>' symbol after the key expression.",
                            arrow.range());
                    recoverTo(closeType);
                    return placeholder(SourceRange.between(open.range(), prevRange()));
                }
                read();
            }
            Expr valExpr = parseExpression();
            boolean group = false;
            if (peek().type() == TokenType.ELLIPSIS) {
                Token dots = read();
                if (!object) {
                    error(
                            "Invalid 'for' expression",
                            "Grouping ellipsis (...) cannot be used when constructing a tuple.",
                            dots.range());
                    recoverTo(closeType);
                    return placeholder(SourceRange.between(open.range(), prevRange()));
                }
                group = true;
            }
            Expr cond = null;
            if (isKeyword(peek(), "if")) {
                read();
                cond = parseExpression();
            }
            Token close = peek();
            if (close.type() != closeType) {
                if (!reportInvalidToken(close)) {
                    error(
                            "Invalid 'for' expression",
                            "Extra characters after the end of the 'for' expression.",
                            close.range(),
                            SourceRange.between(open.range(), close.range()));
                }
                recoverTo(closeType);
                return placeholder(SourceRange.between(open.range(), prevRange()));
            }
            read();
            return new Expr.ForExpr(
                    keyVar,
                    valVar,
                    coll,
                    keyExpr,
                    valExpr,
                    cond,
                    group,
                    open.range(),
                    close.range(),
                    SourceRange.between(open.range(), close.range()));
        } finally {
            popNewlines();
        }
    }

    /** Attribute access, indexing and splats after a term. */
    private Expr parseTraversals(Expr from) {
        Expr ret = from;
        while (true) {
            Token next = peek();
            if (next.type() == TokenType.DOT) {
                read();
                Token t = peek();
                if (t.type() == TokenType.IDENT) {
                    read();
                    ret = appendStep(ret, new Traverser.Attr(t.text(), SourceRange.between(next.range(), t.range())));
                } else if (t.type() == TokenType.NUMBER_LIT) {
                    read();
                    if (t.text().contains(".")
                            || t.text().contains("e")
                            || t.text().contains("E")) {
                        error(
                                "Invalid legacy index syntax",
                                "When using the legacy index syntax, chaining two indexes together is not permitted. "
                                        + "Use the proper index syntax instead, like [0][1].",
                                t.range());
                        return ret;
                    }
                    ret = appendStep(
                            ret,
                            new Traverser.Index(
                                    new Literal.NumberLit(parseNumber(t)),
                                    SourceRange.between(next.range(), t.range())));
                } else if (t.type() == TokenType.STAR) {
                    read();
                    ret = attrSplat(ret, SourceRange.between(next.range(), t.range()));
                } else {
                    if (!reportInvalidToken(t)) {
                        error("Invalid attribute name", "An attribute name is required after a dot.", t.range());
                    }
                    return ret;
                }
            } else if (next.type() == TokenType.OBRACK) {
                read();
                pushNewlines(false);
                try {
                    Token star = peek();
                    if (star.type() == TokenType.STAR && peekSecond().type() == TokenType.CBRACK) {
                        read();
                        Token close = read();
                        SourceRange marker = SourceRange.between(next.range(), close.range());
                        Expr.AnonSymbol item = new Expr.AnonSymbol(marker);
                        popNewlines();
                        try {
                            Expr each = parseTraversals(item);
                            ret = new Expr.Splat(
                                    ret, each, item, marker, SourceRange.between(ret.range(), each.range()));
                        } finally {
                            pushNewlines(false);
                        }
                        return ret; // a full splat consumes every step after it
                    }
                    Expr key = parseExpression();
                    Token close = peek();
                    if (close.type() != TokenType.CBRACK) {
                        if (!reportInvalidToken(close)) {
                            error(
                                    "Missing close bracket on index",
                                    "The index operator must end with a closing bracket (\"]\").",
                                    close.range());
                        }
                        recoverTo(TokenType.CBRACK);
                        return ret;
                    }
                    read();
                    SourceRange bracket = SourceRange.between(next.range(), close.range());
                    Literal lit = literalKey(key);
                    if (lit != null) {
                        ret = appendStep(ret, new Traverser.Index(lit, bracket));
                    } else {
                        ret = new Expr.Index(
                                ret, key, next.range(), bracket, SourceRange.between(ret.range(), bracket));
                    }
                } finally {
                    popNewlines();
                }
            } else {
                return ret;
            }
        }
    }

    private static Literal literalKey(Expr key) {
        if (key instanceof Expr.LiteralValue l) {
            return l.value();
        }
        if (key instanceof Expr.Template t && t.isStringLiteral()) {
            return new Literal.StringLit(
                    t.parts().isEmpty()
                            ? ""
                            : ((Literal.StringLit)
                                            ((Expr.LiteralValue) t.parts().get(0)).value())
                                    .value());
        }
        return null;
    }

    /** {@code .*} followed by attribute steps only (a legacy form from HCL 1). */
    private Expr attrSplat(Expr source, SourceRange marker) {
        Expr.AnonSymbol item = new Expr.AnonSymbol(marker);
        Expr each = item;
        while (peek().type() == TokenType.DOT) {
            Token dot = peek();
            Token second = peekSecond();
            if (second.type() != TokenType.IDENT && second.type() != TokenType.NUMBER_LIT) {
                break;
            }
            read();
            Token t = read();
            Traverser step = second.type() == TokenType.IDENT
                    ? new Traverser.Attr(t.text(), SourceRange.between(dot.range(), t.range()))
                    : new Traverser.Index(
                            new Literal.NumberLit(parseNumber(t)), SourceRange.between(dot.range(), t.range()));
            each = appendStep(each, step);
        }
        return new Expr.Splat(source, each, item, marker, SourceRange.between(source.range(), each.range()));
    }

    private static Expr appendStep(Expr e, Traverser step) {
        if (e instanceof Expr.ScopeTraversal s) {
            List<Traverser> steps = new ArrayList<>(s.traversal().steps());
            steps.add(step);
            return new Expr.ScopeTraversal(new Traversal(steps), SourceRange.between(s.range(), step.range()));
        }
        if (e instanceof Expr.RelativeTraversal r) {
            List<Traverser> steps = new ArrayList<>(r.steps());
            steps.add(step);
            return new Expr.RelativeTraversal(r.source(), steps, SourceRange.between(r.range(), step.range()));
        }
        return new Expr.RelativeTraversal(e, List.of(step), SourceRange.between(e.range(), step.range()));
    }

    // ---- template support, used by TemplateParser --------------------------------------------------

    Token rawToken() {
        return tokens.get(pos);
    }

    void advanceRaw() {
        if (pos < tokens.size() - 1) {
            pos++;
        }
    }

    Diagnostics.Builder diags() {
        return diags;
    }

    boolean inRecovery() {
        return recovery;
    }

    void reportError(String summary, String detail, SourceRange subject) {
        error(summary, detail, subject);
    }

    void reportError(String summary, String detail, SourceRange subject, SourceRange context) {
        error(summary, detail, subject, context);
    }

    /** An error that follows another about the same place, as HCL reports both (not held back by recovery). */
    void reportAlso(String summary, String detail, SourceRange subject) {
        diags.add(Diagnostic.error(summary, detail, subject));
        recovery = true;
    }

    void reportTooDeep(String what, SourceRange subject) {
        if (!recovery) {
            diags.add(Nesting.tooDeep(what, subject));
        }
        recovery = true;
    }

    boolean reportInvalid(Token t) {
        return reportInvalidToken(t);
    }

    /** Parses an expression inside {@code ${...}} or a directive, where newlines do not matter. */
    Expr parseEmbedded() {
        pushNewlines(false);
        try {
            return parseExpression();
        } finally {
            popNewlines();
        }
    }

    Token peekEmbedded() {
        pushNewlines(false);
        try {
            return peek();
        } finally {
            popNewlines();
        }
    }

    Token readEmbedded() {
        pushNewlines(false);
        try {
            return read();
        } finally {
            popNewlines();
        }
    }

    void recoverToSeqEnd() {
        recoverTo(TokenType.TEMPLATE_SEQ_END);
    }

    String filename() {
        return filename;
    }
}
