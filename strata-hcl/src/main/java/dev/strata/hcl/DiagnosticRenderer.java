package dev.strata.hcl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders diagnostics as text the way Terraform does: the severity and summary, where it happened
 * ({@code on main.tf line 12, in resource "x" "y":}), the source lines with the subject marked, and
 * the detail wrapped to the terminal width (as Terraform wraps it, see {@link TextWrap#wrapDetail}). With colour the whole diagnostic sits in a box and the
 * subject is underlined; without colour the source lines are shown as they are, with no mark under
 * the subject, as Terraform 1.11 shows them.
 */
public final class DiagnosticRenderer {

    /** Where the renderer finds source text and parsed bodies (for the "in resource ..." context). */
    public interface Sources {
        /** The file's bytes, or null if unknown. */
        byte[] bytes(String filename);

        /** The file's parsed body, or null if unknown. */
        default Body body(String filename) {
            return null;
        }
    }

    public static final Sources NO_SOURCES = filename -> null;

    /**
     * Appended to a generated file's name for its source map ({@code main.tf.json.sites}), which says
     * which program line produced which lines; see {@link SourceMapOrigin}.
     */
    public static final String SOURCE_MAP_SUFFIX = ".sites";

    private static final String RESET = "\u001b[0m";
    private static final String BOLD = "\u001b[1m";
    private static final String BOLD_RED = "\u001b[1;31m";
    private static final String BOLD_YELLOW = "\u001b[1;33m";
    private static final String UNDERLINE = "\u001b[4m";

    private final Sources sources;
    private final boolean color;
    private final int width;

    public DiagnosticRenderer(Sources sources, boolean color, int width) {
        this.sources = sources;
        this.color = color;
        this.width = width;
    }

    public String render(Diagnostic d) {
        List<String> lines = new ArrayList<>();
        String label = d.isError() ? "Error: " : "Warning: ";
        if (color) {
            lines.add((d.isError() ? BOLD_RED : BOLD_YELLOW) + label + RESET + BOLD + d.summary() + RESET);
        } else {
            lines.add(label + d.summary());
        }
        if (d.subject() != null) {
            snippet(d, lines);
        }
        if (!d.detail().isEmpty()) {
            lines.add("");
            // As Terraform: the detail ends a column short of the width, and inside the box's gutter
            // ("│ ") two more columns short.
            int room = color ? width - 3 : width - 1;
            for (String l : TextWrap.wrapDetail(d.detail(), room).split("\n", -1)) {
                lines.add(l);
            }
        }
        StringBuilder sb = new StringBuilder();
        if (color) {
            sb.append("╷\n");
            for (String l : lines) {
                sb.append("│ ").append(l).append('\n');
            }
            sb.append("╵\n");
        } else {
            sb.append('\n');
            for (String l : lines) {
                sb.append(l).append('\n');
            }
        }
        return sb.toString();
    }

    private void snippet(Diagnostic d, List<String> out) {
        SourceRange subject = d.subject();
        out.add("");
        String context = contextString(subject);
        out.add("  on " + subject.filename() + " line " + subject.start().line()
                + (context == null ? "" : ", in " + context) + ":");
        String origin = SourceMapOrigin.find(
                sources.bytes(subject.filename() + SOURCE_MAP_SUFFIX),
                subject.start().line());
        if (origin != null) {
            out.add("  (written by " + origin + ")");
        }
        byte[] src = sources.bytes(subject.filename());
        if (src == null) {
            return;
        }
        SourceRange shown = d.context() != null && d.context().filename().equals(subject.filename())
                ? SourceRange.over(d.context(), subject)
                : subject;
        int firstLine = shown.start().line();
        int lastLine = shown.end().line();
        // A range that ends at the very start of a line does not really include that line.
        if (lastLine > firstLine && shown.end().column() == 1) {
            lastLine--;
        }
        List<int[]> lineSpans = lineSpans(src, firstLine, lastLine);
        for (int k = 0; k < lineSpans.size(); k++) {
            int lineNo = firstLine + k;
            int[] span = lineSpans.get(k);
            String text = new String(src, span[0], span[1] - span[0], StandardCharsets.UTF_8);
            // Highlight the part of this line that the subject covers.
            int hs = Math.max(span[0], subject.start().byteOffset());
            int he = Math.min(span[1], subject.end().byteOffset());
            String prefix = String.format("%4d: ", lineNo);
            if (color && hs < he) {
                String before = new String(src, span[0], hs - span[0], StandardCharsets.UTF_8);
                String mid = new String(src, hs, he - hs, StandardCharsets.UTF_8);
                String after = new String(src, he, span[1] - he, StandardCharsets.UTF_8);
                out.add(prefix + before + UNDERLINE + mid + RESET + after);
            } else {
                out.add(prefix + text);
            }
        }
        if (!d.values().isEmpty()) {
            // Terraform's "expression values": what each reference in the failing expression held.
            out.add("    ├────────────────");
            for (Diagnostic.ExpressionValue v : d.values()) {
                out.add("    │ " + (color ? BOLD + v.traversal() + RESET : v.traversal()) + " " + v.statement());
            }
        }
    }

    /** Byte spans [start, end) of lines first..last (1-based), without their newlines. */
    private static List<int[]> lineSpans(byte[] src, int first, int last) {
        List<int[]> spans = new ArrayList<>();
        int line = 1;
        int start = 0;
        for (int i = 0; i <= src.length && line <= last; i++) {
            if (i == src.length || src[i] == '\n') {
                if (line >= first) {
                    int end = i > start && src[i - 1] == '\r' ? i - 1 : i;
                    spans.add(new int[] {start, end});
                }
                line++;
                start = i + 1;
            }
        }
        return spans;
    }

    /**
     * {@code resource "aws_instance" "web"}: the top-level block that contains the subject, or null;
     * the "in ..." of human output and the snippet context of JSON diagnostics.
     */
    public String contextString(SourceRange subject) {
        Body body = sources.body(subject.filename());
        if (!(body instanceof dev.strata.hcl.syntax.SyntaxBody sb)) {
            return null;
        }
        // As Terraform does, the block around the byte just before the subject: a subject that is a
        // block's own header (a duplicate declaration, a variable's value) gets no "in ..." context.
        int before = subject.start().byteOffset() - 1;
        for (Block b : sb.blocks()) {
            if (before >= b.range().start().byteOffset()
                    && before < b.range().end().byteOffset()) {
                StringBuilder s = new StringBuilder(b.type());
                for (String label : b.labels()) {
                    s.append(" \"").append(label).append('"');
                }
                return s.toString();
            }
        }
        return null;
    }
}
