package dev.strata.hcl;

import java.nio.charset.StandardCharsets;

/**
 * The source lines a diagnostic shows and where its subject is in them: the {@code snippet} of
 * Terraform's JSON diagnostics, which its human output prints too, so both are computed here once.
 *
 * <p>Terraform's rule, measured on terraform 1.11: the snippet covers the context range (when it is
 * in the subject's file) joined with the subject, an empty range taken as one byte long. A line is
 * shown when it shares a byte with that range, its end counted in: a range that ends at the start of
 * the next line shows that line too, unless it is empty. When no line is shown the code is empty and the
 * start line is the range's. One deliberate difference: an empty line inside the range is shown, where
 * Terraform leaves it out (and so numbers the lines after it wrongly). A line is its text without the newline and
 * without a carriage return before it; the lines shown are joined by {@code \n}. The highlight's
 * offsets are bytes from the start of the first line shown, clamped to the code's length.
 *
 * @param startLine      the line number of the snippet range's start
 * @param code           the lines shown, joined by {@code \n}; empty when none is
 * @param highlightStart the subject's start, in bytes of {@code code}
 * @param highlightEnd   the subject's end, in bytes of {@code code}
 */
public record Snippet(int startLine, String code, int highlightStart, int highlightEnd) {

    /** The snippet of {@code subject} (and {@code context}, which may be null) in {@code src}. */
    public static Snippet of(byte[] src, SourceRange subject, SourceRange context) {
        int hlStart = subject.start().byteOffset();
        int hlEnd = subject.end().byteOffset();
        int from = hlStart;
        int to = hlEnd;
        int startLine = subject.start().line();
        if (context != null && context.filename().equals(subject.filename())) {
            SourceRange over = SourceRange.over(context, subject);
            from = over.start().byteOffset();
            to = over.end().byteOffset();
            startLine = over.start().line();
        }
        if (to == from) {
            to++;
        }
        if (hlEnd == hlStart) {
            hlEnd++;
        }
        StringBuilder code = new StringBuilder();
        int codeStart = -1;
        int lineStart = 0;
        while (lineStart < src.length) {
            int nl = lineStart;
            while (nl < src.length && src[nl] != '\n') {
                nl++;
            }
            int lineEnd = nl > lineStart && src[nl - 1] == '\r' ? nl - 1 : nl;
            if (shares(lineStart, lineEnd, from, to)) {
                if (codeStart < 0) {
                    codeStart = lineStart;
                } else {
                    code.append('\n');
                }
                code.append(new String(src, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8));
            }
            lineStart = nl + 1;
        }
        if (codeStart < 0) {
            codeStart = 0;
        }
        int length = code.toString().getBytes(StandardCharsets.UTF_8).length;
        int start = clamp(hlStart - codeStart, length);
        int end = clamp(hlStart - codeStart + (hlEnd - hlStart), length);
        return new Snippet(startLine, code.toString(), start, end);
    }

    /**
     * Whether the line [{@code ls}, {@code le}) and the range [{@code from}, {@code to}) share a byte, each
     * end counted in as HCL counts it: either holds the other's start or end. An empty line shares a byte
     * when the range holds it; Terraform leaves such a line out and numbers the lines after it one short.
     */
    private static boolean shares(int ls, int le, int from, int to) {
        if (ls == le) {
            return holds(from, to, ls);
        }
        return holds(ls, le, from) || holds(ls, le, to) || holds(from, to, ls) || holds(from, to, le);
    }

    private static boolean holds(int start, int end, int offset) {
        return offset >= start && offset < end;
    }

    private static int clamp(int offset, int length) {
        return Math.max(0, Math.min(offset, length));
    }
}
