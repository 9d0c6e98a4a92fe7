package dev.strata.hcl;

/**
 * A position in a source file: 1-based line and column (in Unicode code points), and the 0-based
 * byte offset into the UTF-8 source.
 */
public record SourcePos(int line, int column, int byteOffset) implements Comparable<SourcePos> {
    public static final SourcePos START = new SourcePos(1, 1, 0);

    @Override
    public int compareTo(SourcePos o) {
        return Integer.compare(byteOffset, o.byteOffset);
    }

    @Override
    public String toString() {
        return line + ":" + column;
    }
}
