package dev.strata.cli.view;

import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Output of {@code strata fmt}: file names, diffs and formatted text on stdout, problems on stderr. */
public final class FmtView {
    private final View view;

    public FmtView(Terminal context) {
        this.view = new View(context);
    }

    public void listFile(String path) {
        view.out().println(path);
    }

    public void diff(String unifiedDiff) {
        view.out().print(unifiedDiff);
        view.out().flush();
    }

    public void raw(byte[] bytes) {
        try {
            view.out().write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        view.out().flush();
    }

    /** As Terraform's fmt, each problem is followed by an empty line of its own. */
    public void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources) {
        for (dev.strata.hcl.Diagnostic d : ds.sorted()) {
            view.diagnostics(Diagnostics.of(d), sources);
            view.err().println();
        }
    }

    public void error(String summary, String detail) {
        view.diagnostic(CliDiagnostic.error(summary, detail));
        if (!detail.isEmpty()) {
            // Terraform's fmt follows a detail with an empty line (a summary alone is followed by two anyway).
            view.err().println();
        }
    }
}
