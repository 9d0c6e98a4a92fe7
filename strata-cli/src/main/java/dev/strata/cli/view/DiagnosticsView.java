package dev.strata.cli.view;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import java.io.PrintStream;

/**
 * Routes each diagnostic to its stream and renders it with strata-hcl's {@link DiagnosticRenderer},
 * the one renderer for configuration problems and the CLI's own.
 */
final class DiagnosticsView {
    private final PrintStream out;
    private final PrintStream err;
    private final boolean color;
    private final int width;

    DiagnosticsView(PrintStream out, PrintStream err, boolean color, int width) {
        this.out = out;
        this.err = err;
        this.color = color;
        this.width = width;
    }

    void print(Diagnostic d, DiagnosticRenderer.Sources sources) {
        // Warnings accompany normal output, errors replace it: that is why they go to different streams.
        printTo(d, sources, d.isError() ? err : out);
    }

    void printTo(Diagnostic d, DiagnosticRenderer.Sources sources, PrintStream to) {
        to.print(new DiagnosticRenderer(sources, color, width).render(d));
        to.flush();
    }

    static Diagnostic toDiagnostic(CliDiagnostic d) {
        return switch (d.severity()) {
            case ERROR -> Diagnostic.error(d.summary(), d.detail(), null);
            case WARNING -> Diagnostic.warning(d.summary(), d.detail(), null);
        };
    }
}
