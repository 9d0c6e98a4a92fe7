package dev.strata.cli.view;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.DiagnosticRenderer;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Supplier;

/**
 * Routes each diagnostic to its stream and renders it with strata-hcl's {@link DiagnosticRenderer},
 * the one renderer for configuration problems and the CLI's own.
 */
final class DiagnosticsView {
    /** The view's streams, asked for at each write: the view writes what it holds back first. */
    private final Supplier<PrintStream> out;

    private final Supplier<PrintStream> err;
    private final boolean color;
    private final int width;
    private final boolean compactWarnings;

    DiagnosticsView(
            Supplier<PrintStream> out, Supplier<PrintStream> err, boolean color, int width, boolean compactWarnings) {
        this.out = out;
        this.err = err;
        this.color = color;
        this.width = width;
        this.compactWarnings = compactWarnings;
    }

    /**
     * With {@code -compact-warnings}, a batch of only warnings as Terraform lists them: a "Warnings:"
     * heading, then each warning's summary and where it is, then how to see them in full, on stdout.
     * Whether the batch was printed so; a batch with an error is left to be printed in full, because a
     * warning can be the context an error needs.
     */
    boolean compacts(List<Diagnostic> batch) {
        if (!compactWarnings || batch.isEmpty() || batch.stream().anyMatch(Diagnostic::isError)) {
            return false;
        }
        StringBuilder sb = new StringBuilder("\n");
        sb.append(color ? "\u001b[1m\u001b[33mWarnings:\u001b[0m" : "Warnings:").append("\n\n");
        for (Diagnostic d : batch) {
            sb.append("- ").append(d.summary()).append('\n');
            if (d.subject() != null) {
                sb.append("  on ")
                        .append(d.subject().filename())
                        .append(" line ")
                        .append(d.subject().start().line())
                        .append('\n');
            }
        }
        sb.append("\nTo see the full warning notes, run Strata without -compact-warnings.\n");
        PrintStream to = out.get();
        to.print(sb);
        to.flush();
        return true;
    }

    void print(Diagnostic d, DiagnosticRenderer.Sources sources) {
        // Warnings accompany normal output, errors replace it: that is why they go to different streams.
        printTo(d, sources, d.isError() ? err.get() : out.get());
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
