package dev.strata.hcl;

/**
 * A half-open range [start, end) of a source file. Every AST node and diagnostic carries one, so
 * messages can point at the exact token.
 */
public record SourceRange(String filename, SourcePos start, SourcePos end) implements Comparable<SourceRange> {

    public SourceRange {
        if (end.byteOffset() < start.byteOffset()) {
            throw new IllegalArgumentException("range end before start: " + start + " > " + end);
        }
    }

    /** The range from the start of {@code a} to the end of {@code b}. */
    public static SourceRange between(SourceRange a, SourceRange b) {
        return new SourceRange(a.filename, a.start, b.end);
    }

    /** The smallest range that covers both. */
    public static SourceRange over(SourceRange a, SourceRange b) {
        SourcePos s = a.start.compareTo(b.start) <= 0 ? a.start : b.start;
        SourcePos e = a.end.compareTo(b.end) >= 0 ? a.end : b.end;
        return new SourceRange(a.filename, s, e);
    }

    /** An empty range at a position. */
    public static SourceRange at(String filename, SourcePos pos) {
        return new SourceRange(filename, pos, pos);
    }

    public SourceRange startPoint() {
        return new SourceRange(filename, start, start);
    }

    public SourceRange endPoint() {
        return new SourceRange(filename, end, end);
    }

    public boolean isEmpty() {
        return start.byteOffset() == end.byteOffset();
    }

    public boolean contains(SourcePos pos) {
        return pos.byteOffset() >= start.byteOffset() && pos.byteOffset() < end.byteOffset();
    }

    public boolean overlaps(SourceRange o) {
        return filename.equals(o.filename)
                && start.byteOffset() < o.end.byteOffset()
                && o.start.byteOffset() < end.byteOffset();
    }

    /** The bytes this range covers, as text. */
    public String sliceOf(byte[] source) {
        return new String(
                source,
                start.byteOffset(),
                end.byteOffset() - start.byteOffset(),
                java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public int compareTo(SourceRange o) {
        int c = filename.compareTo(o.filename);
        if (c != 0) {
            return c;
        }
        c = start.compareTo(o.start);
        return c != 0 ? c : end.compareTo(o.end);
    }

    /** {@code file:line:col-line:col}, or {@code file:line:col-col} on one line. */
    @Override
    public String toString() {
        if (start.line() == end.line()) {
            return filename + ":" + start.line() + "," + start.column() + "-" + end.column();
        }
        return filename + ":" + start.line() + "," + start.column() + "-" + end.line() + "," + end.column();
    }
}
