package dev.strata.cli.view;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Snippet;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;

/**
 * Output of {@code strata validate}: human (diagnostics with snippets, then "Success!") or
 * {@code -json} in the shape of {@code terraform validate -json} (format_version 1.0).
 */
public final class ValidateView {
    private final View view;
    private final boolean json;

    public ValidateView(Terminal context, boolean json) {
        this.view = new View(context);
        this.json = json;
    }

    /** Problems with the command line: the result of a validation that did not run. */
    public void result(java.util.List<CliDiagnostic> problems) {
        result(
                Diagnostics.of(
                        problems.stream().map(CliDiagnostic::toDiagnostic).toList()),
                DiagnosticRenderer.NO_SOURCES);
    }

    public void result(Diagnostics diags, DiagnosticRenderer.Sources sources) {
        Diagnostics sorted = diags.sorted();
        if (json) {
            view.out().print(json(sorted, sources));
            view.out().flush();
            return;
        }
        view.diagnostics(sorted, sources);
        if (sorted.hasErrors()) {
            return;
        }
        String ok = sorted.isEmpty()
                ? "Success! The configuration is valid."
                : "Success! The configuration is valid, but there were some validation warnings as shown above.";
        // Terraform wraps the sentence at 78 columns and ends with a blank line, with colour or without.
        String wrapped = OperationView.wrap(ok);
        view.out().println(view.style(View.Style.BOLD_GREEN, "Success!") + wrapped.substring("Success!".length()));
        view.out().println();
        view.out().flush();
    }

    static String json(Diagnostics ds, DiagnosticRenderer.Sources sources) {
        int errors = 0;
        int warnings = 0;
        for (Diagnostic d : ds) {
            if (d.isError()) {
                errors++;
            } else {
                warnings++;
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("{\n  \"format_version\": \"1.0\",\n  \"valid\": ")
                .append(errors == 0)
                .append(",\n  \"error_count\": ")
                .append(errors)
                .append(",\n  \"warning_count\": ")
                .append(warnings)
                .append(",\n  \"diagnostics\": [");
        String sep = "";
        for (Diagnostic d : ds) {
            sb.append(sep).append('\n');
            diagnostic(sb, d, sources, "    ");
            sep = ",";
        }
        sb.append(ds.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        return sb.toString();
    }

    /** One diagnostic as Terraform's JSON views write it: severity, summary, detail, range, snippet. */
    static void diagnostic(StringBuilder sb, Diagnostic d, DiagnosticRenderer.Sources sources, String ind) {
        sb.append(ind).append("{\n");
        sb.append(ind)
                .append("  \"severity\": ")
                .append(Json.quote(d.isError() ? "error" : "warning"))
                .append(",\n");
        sb.append(ind).append("  \"summary\": ").append(Json.quote(d.summary())).append(",\n");
        sb.append(ind).append("  \"detail\": ").append(Json.quote(d.detail()));
        SourceRange s = d.subject();
        if (s != null) {
            sb.append(",\n").append(ind).append("  \"range\": {\n");
            sb.append(ind)
                    .append("    \"filename\": ")
                    .append(Json.quote(s.filename()))
                    .append(",\n");
            pos(sb, "start", s.start(), ind + "    ");
            sb.append(",\n");
            pos(sb, "end", s.end(), ind + "    ");
            sb.append('\n').append(ind).append("  }");
            snippet(sb, d, sources, ind + "  ");
        }
        sb.append('\n').append(ind).append('}');
    }

    private static void pos(StringBuilder sb, String name, SourcePos p, String ind) {
        sb.append(ind)
                .append('"')
                .append(name)
                .append("\": {\n")
                .append(ind)
                .append("  \"line\": ")
                .append(p.line())
                .append(",\n")
                .append(ind)
                .append("  \"column\": ")
                .append(p.column())
                .append(",\n")
                .append(ind)
                .append("  \"byte\": ")
                .append(p.byteOffset())
                .append('\n')
                .append(ind)
                .append('}');
    }

    private static void snippet(StringBuilder sb, Diagnostic d, DiagnosticRenderer.Sources sources, String ind) {
        byte[] src = sources.bytes(d.subject().filename());
        if (src == null) {
            return;
        }
        SourceRange hl = d.subject();
        Snippet snippet = Snippet.of(src, hl, d.context());
        String context = new DiagnosticRenderer(sources, false, 80).contextString(hl);
        sb.append(",\n").append(ind).append("\"snippet\": {\n");
        sb.append(ind)
                .append("  \"context\": ")
                .append(context == null ? "null" : Json.quote(context))
                .append(",\n");
        sb.append(ind).append("  \"code\": ").append(Json.quote(snippet.code())).append(",\n");
        sb.append(ind).append("  \"start_line\": ").append(snippet.startLine()).append(",\n");
        sb.append(ind)
                .append("  \"highlight_start_offset\": ")
                .append(snippet.highlightStart())
                .append(",\n");
        sb.append(ind)
                .append("  \"highlight_end_offset\": ")
                .append(snippet.highlightEnd())
                .append(",\n");
        sb.append(ind).append("  \"values\": [");
        for (int i = 0; i < d.values().size(); i++) {
            Diagnostic.ExpressionValue v = d.values().get(i);
            sb.append(i == 0 ? "\n" : ",\n")
                    .append(ind)
                    .append("    {\n")
                    .append(ind)
                    .append("      \"traversal\": ")
                    .append(Json.quote(v.traversal()))
                    .append(",\n")
                    .append(ind)
                    .append("      \"statement\": ")
                    .append(Json.quote(v.statement()))
                    .append('\n')
                    .append(ind)
                    .append("    }");
        }
        sb.append(d.values().isEmpty() ? "]\n" : "\n" + ind + "  ]\n");
        sb.append(ind).append('}');
    }
}
