package dev.strata.cli.view;

import java.io.PrintStream;

/**
 * Renders one diagnostic as text. This is the plug-in point for the full renderer of strata-hcl
 * (source snippets, ranges, boxes): replace what {@link #standard()} returns and every view uses it.
 */
public interface DiagnosticPrinter {

    void print(CliDiagnostic diagnostic, PrintStream to, boolean color, int width);

    /** The printer views use unless given another. */
    static DiagnosticPrinter standard() {
        return new PlainDiagnosticPrinter();
    }
}
