package dev.strata.hcl.format;

import dev.strata.hcl.syntax.TokenType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Lays out a token stream the way {@code hclwrite} does: only the spaces before tokens change.
 *
 * <p>The stream is cut into lines (a line ends at a newline token or a line comment). Each line is
 * split into up to three cells: the <em>lead</em>; the <em>assign</em> cell, from the line's first
 * {@code =} on, when the rest of the line is bracket-balanced (a one-line attribute); and the
 * <em>comment</em> cell, a comment that ends the line. Then three passes:
 * <ol>
 *   <li>indentation, two spaces per level, where a level is opened by a line with a net surplus of
 *       opening brackets and closed by lines with a net deficit;</li>
 *   <li>spacing between neighbouring tokens of a cell ({@link SpaceRules});</li>
 *   <li>alignment: across runs of consecutive lines that have an assign cell, the {@code =} signs
 *       line up one column after the widest lead; then across runs of consecutive lines with a
 *       comment cell, the comments line up one column after the widest lead plus assign.</li>
 * </ol>
 * A heredoc is a single token run inside one line, so its body is never re-indented; bracket counting
 * stops at a heredoc opener because the heredoc's interpolations do not nest the surrounding code.
 */
final class Layout {

    /** One line's cells, as index bounds into the token list. */
    private static final class Line {
        final int start;
        final int end;
        int assign = -1;
        int comment = -1;

        Line(int start, int end) {
            this.start = start;
            this.end = end;
        }

        int leadEnd() {
            return assign >= 0 ? assign : beforeComment();
        }

        int beforeComment() {
            return comment >= 0 ? comment : end;
        }

        boolean isEmpty() {
            return start == end;
        }
    }

    private final List<FmtToken> tokens;
    private final int[] spaces;
    private final List<Line> lines = new ArrayList<>();

    private Layout(List<FmtToken> tokens) {
        this.tokens = tokens;
        this.spaces = new int[tokens.size()];
    }

    /**
     * Formats tokens. {@code trailingSpaces} is the width of the whitespace between the last token
     * and the end of the file, which, like HashiCorp's formatter, we keep (as spaces) when the file
     * does not end with a newline.
     */
    static byte[] format(List<FmtToken> tokens, int trailingSpaces) {
        Layout l = new Layout(tokens);
        l.splitLines();
        l.indent();
        l.space();
        l.align();
        return l.write(trailingSpaces);
    }

    private void splitLines() {
        int start = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).endsLine()) {
                lines.add(new Line(start, i + 1));
                start = i + 1;
            }
        }
        lines.add(new Line(start, tokens.size()));
        for (Line line : lines) {
            if (line.end - line.start > 1 && tokens.get(line.end - 1).type() == TokenType.COMMENT) {
                line.comment = line.end - 1;
            }
            int leadEnd = line.beforeComment();
            for (int i = line.start + 1; i < leadEnd; i++) {
                if (tokens.get(i).type() == TokenType.EQUAL) {
                    // Only a bracket-balanced right-hand side is a one-line attribute; a surplus of
                    // openers means the value continues on later lines.
                    if (netBrackets(i, leadEnd) == 0) {
                        line.assign = i;
                    }
                    break;
                }
            }
        }
    }

    private int netBrackets(int from, int to) {
        int net = 0;
        for (int i = from; i < to; i++) {
            FmtToken t = tokens.get(i);
            net += t.bracketChange();
            if (t.type() == TokenType.OHEREDOC) {
                break;
            }
        }
        return net;
    }

    private void indent() {
        // Each entry is the number of brackets a line opened; a level is closed once that many
        // brackets have been closed again, so lines with several openers indent only one level.
        List<Integer> levels = new ArrayList<>();
        for (Line line : lines) {
            if (line.isEmpty()) {
                continue;
            }
            if (tokens.get(line.start).type() == TokenType.NEWLINE) {
                spaces[line.start] = 0;
                continue;
            }
            int net = netBrackets(line.start, line.beforeComment());
            if (net > 0) {
                spaces[line.start] = 2 * levels.size();
                levels.add(net);
                continue;
            }
            int closed = -net;
            while (closed > 0 && !levels.isEmpty()) {
                int top = levels.get(levels.size() - 1);
                if (closed >= top) {
                    closed -= top;
                    levels.remove(levels.size() - 1);
                } else {
                    levels.set(levels.size() - 1, top - closed);
                    closed = 0;
                }
            }
            spaces[line.start] = 2 * levels.size();
        }
    }

    private void space() {
        for (Line line : lines) {
            spaceCell(line.start, line.leadEnd());
            if (line.assign >= 0) {
                spaces[line.assign] = 1;
                spaceCell(line.assign, line.beforeComment());
            }
        }
    }

    private void spaceCell(int from, int to) {
        for (int i = from; i + 1 < to; i++) {
            FmtToken before = i > from ? tokens.get(i - 1) : null;
            spaces[i + 1] = SpaceRules.spaceAfter(before, tokens.get(i), tokens.get(i + 1)) ? 1 : 0;
        }
    }

    private void align() {
        // Assign cells first: moving them moves the comments after them.
        int chainStart = -1;
        int widest = 0;
        for (int li = 0; li <= lines.size(); li++) {
            Line line = li < lines.size() ? lines.get(li) : null;
            if (line != null && line.assign >= 0) {
                if (chainStart < 0) {
                    chainStart = li;
                }
                widest = Math.max(widest, columns(line.start, line.assign));
            } else if (chainStart >= 0) {
                for (Line l : lines.subList(chainStart, li)) {
                    spaces[l.assign] = widest - columns(l.start, l.assign) + 1;
                }
                chainStart = -1;
                widest = 0;
            }
        }
        for (int li = 0; li <= lines.size(); li++) {
            Line line = li < lines.size() ? lines.get(li) : null;
            if (line != null && line.comment >= 0) {
                if (chainStart < 0) {
                    chainStart = li;
                }
                widest = Math.max(widest, columns(line.start, line.comment));
            } else if (chainStart >= 0) {
                for (Line l : lines.subList(chainStart, li)) {
                    spaces[l.comment] = widest - columns(l.start, l.comment) + 1;
                }
                chainStart = -1;
                widest = 0;
            }
        }
    }

    private int columns(int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n += spaces[i] + tokens.get(i).columns();
        }
        return n;
    }

    private byte[] write(int trailingSpaces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < tokens.size(); i++) {
            writeSpaces(out, spaces[i]);
            out.writeBytes(tokens.get(i).bytes());
        }
        writeSpaces(out, trailingSpaces);
        return out.toByteArray();
    }

    private static void writeSpaces(ByteArrayOutputStream out, int n) {
        for (int i = 0; i < n; i++) {
            out.write(' ');
        }
    }
}
