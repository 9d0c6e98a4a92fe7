package dev.strata.hcl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders diagnostics as text the way Terraform does: the severity and summary, where it happened
 * ({@code on main.tf line 12, in resource "x" "y":}), the source lines with the subject marked, and
 * the detail wrapped to the terminal width (as Terraform wraps it, see {@link TextWrap#wrapDetail}; the
 * summary, the location and the source lines are never wrapped). With colour the whole diagnostic sits in a box and the
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
        // The summary is never wrapped (terraform 1.11 prints it whole at any width); a summary that
        // has line breaks of its own keeps them, each line inside the box's gutter.
        String[] summary = d.summary().split("\n", -1);
        if (color) {
            lines.add((d.isError() ? BOLD_RED : BOLD_YELLOW)
                    + label
                    + RESET
                    + BOLD
                    + summary[0]
                    + (summary.length == 1 ? RESET : ""));
            for (int i = 1; i < summary.length; i++) {
                lines.add(summary[i] + (i == summary.length - 1 ? RESET : ""));
            }
        } else {
            lines.add(label + summary[0]);
            lines.addAll(List.of(summary).subList(1, summary.length));
        }
        if (d.subject() != null || d.address() != null) {
            lines.add("");
            if (d.address() != null) {
                lines.add("  with " + d.address() + ",");
            }
            if (d.subject() != null) {
                snippet(d, lines);
            }
        }
        if (!d.detail().isEmpty() || d.subject() != null) {
            // As Terraform: a snippet ends with an empty line, whether a detail follows or not.
            lines.add("");
        } else if (d.address() == null) {
            // As Terraform: a summary alone is followed by two empty lines.
            lines.add("");
            lines.add("");
        }
        if (!d.detail().isEmpty()) {
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
            out.add("  (source code not available)");
            return;
        }
        // The lines Terraform's JSON diagnostics give as the snippet's code, which its human output shows.
        Snippet snippet = Snippet.of(src, subject, d.context());
        byte[] code = snippet.code().getBytes(StandardCharsets.UTF_8);
        int lineStart = 0;
        int lineNo = snippet.startLine();
        while (lineStart <= code.length) {
            int lineEnd = lineStart;
            while (lineEnd < code.length && code[lineEnd] != '\n') {
                lineEnd++;
            }
            String prefix = String.format("%4d: ", lineNo);
            // Highlight the part of this line that the subject covers.
            int hs = Math.max(lineStart, snippet.highlightStart());
            int he = Math.min(lineEnd, snippet.highlightEnd());
            if (color && hs < he) {
                out.add(prefix
                        + text(code, lineStart, hs)
                        + UNDERLINE
                        + text(code, hs, he)
                        + RESET
                        + text(code, he, lineEnd));
            } else {
                out.add(prefix + text(code, lineStart, lineEnd));
            }
            lineStart = lineEnd + 1;
            lineNo++;
        }
        if (!d.values().isEmpty() || d.functionCall() != null) {
            // Terraform's "expression values": the function whose call failed, then what each reference in the
            // failing expression held.
            out.add("    ├────────────────");
            Diagnostic.FunctionCall call = d.functionCall();
            if (call != null) {
                String signature = call.toString();
                out.add("    │ while calling "
                        + (color
                                ? BOLD
                                        + call.name()
                                        + RESET
                                        + signature.substring(call.name().length())
                                : signature));
            }
            for (Diagnostic.ExpressionValue v : d.values()) {
                out.add("    │ " + (color ? BOLD + v.traversal() + RESET : v.traversal()) + " " + v.statement());
            }
        }
    }

    private static String text(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
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
