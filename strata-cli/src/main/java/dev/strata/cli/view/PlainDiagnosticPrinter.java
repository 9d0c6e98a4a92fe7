package dev.strata.cli.view;

import java.io.PrintStream;

/**
 * A blank line, {@code Error: summary} (or {@code Warning: }), a blank line, the wrapped detail.
 * Enough for diagnostics without source ranges; configuration diagnostics get the full renderer.
 */
final class PlainDiagnosticPrinter implements DiagnosticPrinter {

    @Override
    public void print(CliDiagnostic d, PrintStream to, boolean color, int width) {
        String label = switch (d.severity()) {
            case ERROR -> "Error: ";
            case WARNING -> "Warning: ";
        };
        View.Style labelStyle = switch (d.severity()) {
            case ERROR -> View.Style.BOLD_RED;
            case WARNING -> View.Style.BOLD_YELLOW;
        };
        StringBuilder sb = new StringBuilder("\n");
        if (color) {
            sb.append(labelStyle.ansi()).append(label).append(View.Style.RESET.ansi())
                    .append(View.Style.BOLD.ansi()).append(d.summary()).append(View.Style.RESET.ansi());
        } else {
            sb.append(label).append(d.summary());
        }
        sb.append('\n');
        if (!d.detail().isEmpty()) {
            sb.append('\n').append(Text.wrap(d.detail(), width, "")).append('\n');
        }
        to.print(sb);
        to.flush();
    }
}
