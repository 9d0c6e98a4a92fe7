package dev.strata.cli.view;

import java.io.PrintStream;

/** Routes each diagnostic to its stream and hands it to the configured {@link DiagnosticPrinter}. */
final class DiagnosticsView {
    private final DiagnosticPrinter printer;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean color;
    private final int width;

    DiagnosticsView(DiagnosticPrinter printer, PrintStream out, PrintStream err, boolean color, int width) {
        this.printer = printer;
        this.out = out;
        this.err = err;
        this.color = color;
        this.width = width;
    }

    void print(CliDiagnostic d) {
        // Warnings accompany normal output, errors replace it: that is why they go to different streams.
        PrintStream to = switch (d.severity()) {
            case ERROR -> err;
            case WARNING -> out;
        };
        printTo(d, to);
    }

    void printTo(CliDiagnostic d, PrintStream to) {
        printer.print(d, to, color, width);
    }
}
