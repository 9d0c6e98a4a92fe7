package dev.strata.hcl.syntax;

import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Turns UTF-8 source bytes into tokens. Works on bytes so that token ranges carry exact byte
 * offsets. A mode stack tracks where a {@code }} returns to: an ordinary brace, or the template
 * (quoted string or heredoc) whose {@code ${} or {@code %{} it closes.
 *
 * <p>The scanner never fails: anything it cannot make sense of becomes an error token that the
 * parser reports with its exact range.
 */
public final class Scanner {

    /** What the scanner does at the top level. */
    public enum Mode {
        /** A configuration file or a standalone expression. */
        NORMAL,
        /** A bare template (as read by {@code templatefile}): literal text with interpolations. */
        TEMPLATE
    }

    private sealed interface Frame {}

    private record BraceFrame() implements Frame {}

    private record InterpFrame() implements Frame {}

    private record QuoteFrame() implements Frame {}

    private record HeredocFrame(String marker) implements Frame {}

    private record BareTemplateFrame() implements Frame {}

    private static final BraceFrame BRACE = new BraceFrame();
    private static final InterpFrame INTERP = new InterpFrame();
    private static final QuoteFrame QUOTE = new QuoteFrame();

    private final byte[] src;
    private final String filename;
    private final List<Token> tokens = new ArrayList<>();
    private final Deque<Frame> stack = new ArrayDeque<>();
    /** Index into {@code src} of the next byte to scan. */
    private int pos;
    /** Reported byte offset minus index: {@code src} may be a piece of a larger file. */
    private final int base;

    private int line;
    private int col;
    /** True when the current position is the start of a heredoc line (where its end marker may be). */
    private boolean heredocLineStart;

    private Scanner(byte[] src, String filename, SourcePos start, int startIndex) {
        this.src = src;
        this.filename = filename;
        this.pos = startIndex;
        this.base = start.byteOffset() - startIndex;
        this.line = start.line();
        this.col = start.column();
    }

    /**
     * Scans {@code src} from index {@code startIndex}, whose byte is at position {@code start} of the
     * file named {@code filename} (so a piece of a larger file reports positions in that file). The
     * last token is always {@link TokenType#EOF}.
     */
    public static List<Token> scan(byte[] src, String filename, SourcePos start, int startIndex, Mode mode) {
        Scanner s = new Scanner(src, filename, start, startIndex);
        if (mode == Mode.TEMPLATE) {
            s.stack.push(new BareTemplateFrame());
        }
        s.run();
        return s.tokens;
    }

    /** Scans {@code src} from its first byte, which is at position {@code start}. */
    public static List<Token> scan(byte[] src, String filename, SourcePos start, Mode mode) {
        return scan(src, filename, start, 0, mode);
    }

    public static List<Token> scan(byte[] src, String filename) {
        return scan(src, filename, SourcePos.START, 0, Mode.NORMAL);
    }

    private void run() {
        while (pos < src.length) {
            Frame top = stack.peek();
            if (top instanceof QuoteFrame) {
                scanQuoted();
            } else if (top instanceof HeredocFrame h) {
                scanHeredoc(h);
            } else if (top instanceof BareTemplateFrame) {
                scanBareTemplate();
            } else {
                scanNormal();
            }
        }
        SourcePos p = here();
        tokens.add(new Token(TokenType.EOF, "", new SourceRange(filename, p, p)));
    }

    // ---- position bookkeeping -------------------------------------------------------------------

    private SourcePos here() {
        return new SourcePos(line, col, base + pos);
    }

    /** Advances over one code point (or one invalid byte), updating line and column. */
    private void advance() {
        int b = src[pos] & 0xff;
        if (b == '\n') {
            pos++;
            line++;
            col = 1;
            return;
        }
        int len = utf8Length(pos);
        pos += len <= 0 ? 1 : len;
        col++;
    }

    private void advanceBytes(int n) {
        int end = pos + n;
        while (pos < end) {
            advance();
        }
    }

    private void emit(TokenType type, SourcePos start) {
        int from = start.byteOffset() - base;
        String text = new String(src, from, pos - from, StandardCharsets.UTF_8);
        tokens.add(new Token(type, text, new SourceRange(filename, start, here())));
    }

    private int peekByte(int offset) {
        int i = pos + offset;
        return i < src.length ? src[i] & 0xff : -1;
    }

    private int utf8Length(int i) {
        return Utf8.sequenceLength(src, i);
    }

    private int codePointAt(int i) {
        return Utf8.codePointAt(src, i);
    }

    // ---- normal (expression/config) mode --------------------------------------------------------

    private void scanNormal() {
        int b = src[pos] & 0xff;
        SourcePos start = here();
        switch (b) {
            case ' ', '\r' -> {
                if (b == '\r' && peekByte(1) == '\n') {
                    advanceBytes(2);
                    emit(TokenType.NEWLINE, start);
                    return;
                }
                if (b == '\r') {
                    advance();
                    emit(TokenType.INVALID, start);
                    return;
                }
                while (pos < src.length && src[pos] == ' ') {
                    advance();
                }
            }
            case '\t' -> {
                // Tabs are accepted as whitespace, as HashiCorp's parser does.
                while (pos < src.length && (src[pos] == ' ' || src[pos] == '\t')) {
                    advance();
                }
            }
            case '\n' -> {
                advance();
                emit(TokenType.NEWLINE, start);
            }
            case '#' -> lineComment(start);
            case '/' -> {
                if (peekByte(1) == '/') {
                    lineComment(start);
                } else if (peekByte(1) == '*') {
                    blockComment(start);
                } else {
                    single(TokenType.SLASH, start);
                }
            }
            case '{' -> {
                stack.push(BRACE);
                single(TokenType.OBRACE, start);
            }
            case '}' -> closeBrace(start, 1);
            case '~' -> {
                if (peekByte(1) == '}' && stack.peek() instanceof InterpFrame) {
                    closeBrace(start, 2);
                } else {
                    single(TokenType.BITWISE_NOT, start);
                }
            }
            case '[' -> single(TokenType.OBRACK, start);
            case ']' -> single(TokenType.CBRACK, start);
            case '(' -> single(TokenType.OPAREN, start);
            case ')' -> single(TokenType.CPAREN, start);
            case '"' -> {
                single(TokenType.OQUOTE, start);
                stack.push(QUOTE);
            }
            case '*' -> {
                if (peekByte(1) == '*') {
                    advanceBytes(2);
                    emit(TokenType.STAR_STAR, start);
                } else {
                    single(TokenType.STAR, start);
                }
            }
            case '+' -> single(TokenType.PLUS, start);
            case '-' -> single(TokenType.MINUS, start);
            case '%' -> single(TokenType.PERCENT, start);
            case '=' -> {
                if (peekByte(1) == '=') {
                    advanceBytes(2);
                    emit(TokenType.EQUAL_OP, start);
                } else if (peekByte(1) == '>') {
                    advanceBytes(2);
                    emit(TokenType.FAT_ARROW, start);
                } else {
                    single(TokenType.EQUAL, start);
                }
            }
            case '!' -> {
                if (peekByte(1) == '=') {
                    advanceBytes(2);
                    emit(TokenType.NOT_EQUAL, start);
                } else {
                    single(TokenType.BANG, start);
                }
            }
            case '<' -> {
                if (peekByte(1) == '<' && heredocStart(start)) {
                    return;
                }
                if (peekByte(1) == '=') {
                    advanceBytes(2);
                    emit(TokenType.LESS_THAN_EQ, start);
                } else {
                    single(TokenType.LESS_THAN, start);
                }
            }
            case '>' -> {
                if (peekByte(1) == '=') {
                    advanceBytes(2);
                    emit(TokenType.GREATER_THAN_EQ, start);
                } else {
                    single(TokenType.GREATER_THAN, start);
                }
            }
            case '&' -> {
                if (peekByte(1) == '&') {
                    advanceBytes(2);
                    emit(TokenType.AND, start);
                } else {
                    single(TokenType.BITWISE_AND, start);
                }
            }
            case '|' -> {
                if (peekByte(1) == '|') {
                    advanceBytes(2);
                    emit(TokenType.OR, start);
                } else {
                    single(TokenType.BITWISE_OR, start);
                }
            }
            case '.' -> {
                if (peekByte(1) == '.' && peekByte(2) == '.') {
                    advanceBytes(3);
                    emit(TokenType.ELLIPSIS, start);
                } else {
                    single(TokenType.DOT, start);
                }
            }
            case ',' -> single(TokenType.COMMA, start);
            case '?' -> single(TokenType.QUESTION, start);
            case ':' -> {
                if (peekByte(1) == ':') {
                    // One token, as in HashiCorp's scanner: "a ? b ::c" is not a conditional.
                    advanceBytes(2);
                    emit(TokenType.DOUBLE_COLON, start);
                } else {
                    single(TokenType.COLON, start);
                }
            }
            case '^' -> single(TokenType.BITWISE_XOR, start);
            case '\'' -> single(TokenType.APOSTROPHE, start);
            case '`' -> single(TokenType.BACKTICK, start);
            case ';' -> single(TokenType.SEMICOLON, start);
            default -> {
                if (b >= '0' && b <= '9') {
                    number(start);
                } else if (isIdentStart(pos)) {
                    ident(start);
                } else if (utf8Length(pos) < 0) {
                    // One token for a run of undecodable bytes, so one message covers it.
                    while (pos < src.length && utf8Length(pos) < 0) {
                        advance();
                    }
                    emit(TokenType.BAD_UTF8, start);
                } else {
                    advance();
                    emit(TokenType.INVALID, start);
                }
            }
        }
    }

    private void single(TokenType type, SourcePos start) {
        advance();
        emit(type, start);
    }

    private void closeBrace(SourcePos start, int len) {
        Frame f = stack.isEmpty() ? null : stack.pop();
        advanceBytes(len);
        if (f instanceof InterpFrame) {
            emit(TokenType.TEMPLATE_SEQ_END, start);
            if (stack.peek() instanceof HeredocFrame) {
                heredocLineStart = false;
            }
        } else {
            if (f != null && !(f instanceof BraceFrame)) {
                stack.push(f); // an unbalanced brace never ends a template; the parser reports it
            }
            emit(TokenType.CBRACE, start);
        }
    }

    private void lineComment(SourcePos start) {
        // A line comment owns its terminating newline, as in HashiCorp's scanner: the formatter
        // and the parser both rely on that.
        while (pos < src.length && src[pos] != '\n') {
            if (src[pos] == '\r' && peekByte(1) == '\n') {
                break;
            }
            advance();
        }
        if (pos < src.length) {
            if (src[pos] == '\r') {
                advanceBytes(2);
            } else {
                advance();
            }
        }
        emit(TokenType.COMMENT, start);
    }

    private void blockComment(SourcePos start) {
        advanceBytes(2);
        while (pos < src.length && !(src[pos] == '*' && peekByte(1) == '/')) {
            advance();
        }
        if (pos < src.length) {
            advanceBytes(2);
            emit(TokenType.COMMENT, start);
        } else {
            // Unterminated: like HashiCorp's scanner, read the "/" as an operator and go on after it.
            pos = start.byteOffset() - base;
            line = start.line();
            col = start.column();
            single(TokenType.SLASH, start);
        }
    }

    /**
     * A number token is a digit followed by any run of digits, dots and exponents ({@code e}, an
     * optional sign, a digit), not ending in a dot: HashiCorp's scanner takes {@code 2.1.0} as one
     * token, which the parser then rejects as a number. {@code 1.} is the number 1 and a dot.
     */
    private void number(SourcePos start) {
        int end = pos + 1;
        while (end < src.length) {
            int c = src[end] & 0xff;
            if (isDigit(c) || c == '.') {
                end++;
            } else if (c == 'e' || c == 'E') {
                int k = end + 1;
                if (k < src.length && (src[k] == '+' || src[k] == '-')) {
                    k++;
                }
                if (k < src.length && isDigit(src[k])) {
                    end = k + 1;
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        while (src[end - 1] == '.') {
            end--;
        }
        advanceBytes(end - pos);
        emit(TokenType.NUMBER_LIT, start);
    }

    private static boolean isDigit(int b) {
        return b >= '0' && b <= '9';
    }

    private boolean isIdentStart(int i) {
        int b = src[i] & 0xff;
        if (b < 0x80) {
            return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
        }
        int cp = codePointAt(i);
        return cp >= 0 && Character.isUnicodeIdentifierStart(cp) && cp != 0xfeff;
    }

    private boolean isIdentPart(int i) {
        int b = src[i] & 0xff;
        if (b < 0x80) {
            return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b == '-';
        }
        int cp = codePointAt(i);
        return cp >= 0 && Character.isUnicodeIdentifierPart(cp) && !Character.isIdentifierIgnorable(cp);
    }

    private void ident(SourcePos start) {
        advance();
        while (pos < src.length && isIdentPart(pos)) {
            advance();
        }
        emit(TokenType.IDENT, start);
    }

    /** Recognises {@code <<ID\n} or {@code <<-ID\n}; returns false if this is not a heredoc opener. */
    private boolean heredocStart(SourcePos start) {
        int i = pos + 2;
        if (i < src.length && src[i] == '-') {
            i++;
        }
        int idStart = i;
        if (i >= src.length || !isIdentStart(i)) {
            return false;
        }
        while (i < src.length && isIdentPart(i)) {
            i += Math.max(1, utf8Length(i));
        }
        String marker = new String(src, idStart, i - idStart, StandardCharsets.UTF_8);
        int nl;
        if (i < src.length && src[i] == '\n') {
            nl = 1;
        } else if (i + 1 < src.length && src[i] == '\r' && src[i + 1] == '\n') {
            nl = 2;
        } else {
            return false;
        }
        advanceBytes(i + nl - pos);
        emit(TokenType.OHEREDOC, start);
        stack.push(new HeredocFrame(marker));
        heredocLineStart = true;
        return true;
    }

    // ---- template modes ------------------------------------------------------------------------

    /** Inside {@code "..."}: literal runs (escapes kept raw), interpolation openers, the closing quote. */
    private void scanQuoted() {
        SourcePos start = here();
        int b = src[pos] & 0xff;
        if (b == '"') {
            advance();
            emit(TokenType.CQUOTE, start);
            stack.pop();
            return;
        }
        if (templateOpener(start)) {
            return;
        }
        if (b == '\n' || b == '\r') {
            // A lone carriage return ends a quoted string just as a newline does (as in HashiCorp's scanner).
            advanceBytes(b == '\r' && peekByte(1) == '\n' ? 2 : 1);
            emit(TokenType.QUOTED_NEWLINE, start);
            stack.pop(); // as in HashiCorp's scanner, the string ends here; the parser reports it
            return;
        }
        while (pos < src.length) {
            b = src[pos] & 0xff;
            if (b == '"' || b == '\n' || b == '\r') {
                break;
            }
            if (b == '\\') {
                // The escape's character is literal even if it is a quote or a dollar.
                advance();
                if (pos < src.length && src[pos] != '\n') {
                    advance();
                }
                continue;
            }
            if ((b == '$' || b == '%') && peekByte(1) == '{') {
                break;
            }
            if ((b == '$' || b == '%') && peekByte(1) == b && peekByte(2) == '{') {
                advanceBytes(3); // $${ and %%{ are escapes for a literal ${ and %{
                continue;
            }
            if (utf8Length(pos) < 0) {
                if (pos > start.byteOffset() - base) {
                    break;
                }
                while (pos < src.length && utf8Length(pos) < 0) {
                    advance();
                }
                emit(TokenType.BAD_UTF8, start);
                return;
            }
            advance();
        }
        emit(TokenType.QUOTED_LIT, start);
    }

    private boolean templateOpener(SourcePos start) {
        int b = src[pos] & 0xff;
        if ((b == '$' || b == '%') && peekByte(1) == '{') {
            int len = peekByte(2) == '~' ? 3 : 2;
            advanceBytes(len);
            emit(b == '$' ? TokenType.TEMPLATE_INTERP : TokenType.TEMPLATE_CONTROL, start);
            stack.push(INTERP);
            return true;
        }
        return false;
    }

    private void scanBareTemplate() {
        SourcePos start = here();
        if (templateOpener(start)) {
            return;
        }
        literalRun(start, null);
    }

    private void scanHeredoc(HeredocFrame h) {
        SourcePos start = here();
        if (heredocLineStart) {
            // The closing marker: optional spaces/tabs, the identifier, then a newline or the end.
            int i = pos;
            while (i < src.length && (src[i] == ' ' || src[i] == '\t')) {
                i++;
            }
            byte[] m = h.marker().getBytes(StandardCharsets.UTF_8);
            boolean match = i + m.length <= src.length;
            for (int k = 0; match && k < m.length; k++) {
                match = src[i + k] == m[k];
            }
            if (match) {
                // The marker may be followed by blanks, then must end its line: at the end of the
                // input it does not close the heredoc (as in HashiCorp's scanner).
                int after = i + m.length;
                while (after < src.length && (src[after] == ' ' || src[after] == '\t')) {
                    after++;
                }
                if (after < src.length
                        && (src[after] == '\n'
                                || (src[after] == '\r' && after + 1 < src.length && src[after + 1] == '\n'))) {
                    advanceBytes(after - pos);
                    emit(TokenType.CHEREDOC, start);
                    stack.pop();
                    heredocLineStart = false;
                    return;
                }
            }
        }
        if (templateOpener(start)) {
            heredocLineStart = false;
            return;
        }
        literalRun(start, h);
    }

    /**
     * A literal run of a heredoc or bare template. In a heredoc each line is its own token, so that
     * the end marker can be recognised at the start of the next one.
     */
    private void literalRun(SourcePos start, HeredocFrame heredoc) {
        while (pos < src.length) {
            int b = src[pos] & 0xff;
            if (b == '\r' && peekByte(1) != '\n') {
                // HashiCorp's scanner gives up on a lone carriage return in template text: the rest of
                // the input becomes one token, literal text in a bare template and an error in a heredoc.
                if (pos > start.byteOffset() - base) {
                    break;
                }
                while (pos < src.length) {
                    advance();
                }
                emit(heredoc == null ? TokenType.STRING_LIT : TokenType.INVALID, start);
                return;
            }
            if ((b == '$' || b == '%') && peekByte(1) == '{') {
                break;
            }
            if ((b == '$' || b == '%') && peekByte(1) == b && peekByte(2) == '{') {
                advanceBytes(3);
                continue;
            }
            if (utf8Length(pos) < 0) {
                if (pos > start.byteOffset() - base) {
                    break;
                }
                while (pos < src.length && utf8Length(pos) < 0) {
                    advance();
                }
                emit(TokenType.BAD_UTF8, start);
                return;
            }
            advance();
            if (b == '\n' && heredoc != null) {
                break;
            }
        }
        if (heredoc != null) {
            heredocLineStart = pos > 0 && src[pos - 1] == '\n';
        }
        emit(TokenType.STRING_LIT, start);
    }
}
