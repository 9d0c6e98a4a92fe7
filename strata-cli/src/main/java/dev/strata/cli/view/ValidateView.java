package dev.strata.cli.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;

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
        Diagnostics sorted = json ? diags.inPlaceOrder() : diags.sorted();
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
            sb.append(sep).append("\n    ");
            ObjectNode x = UiJson.object();
            UiJson.diagnosticFields(x, d, sources, d.values());
            Json.indented(sb, x, "    ");
            sep = ",";
        }
        sb.append(ds.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        return sb.toString();
    }
}
