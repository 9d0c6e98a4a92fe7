package dev.strata.engine;

import dev.strata.hcl.Diagnostic;
import java.util.ArrayList;
import java.util.List;

/**
 * The diagnostics of one vertex visit. Many visits run at once and all report into the run, so
 * the run's list cannot tell whose error is whose; a visit's outcome is decided from this list
 * alone, which only the visit (and the instance operations it starts) report into.
 */
final class VisitDiagnostics {
    private final List<Diagnostic> reported = new ArrayList<>();

    synchronized void add(Diagnostic d) {
        reported.add(d);
    }

    synchronized boolean hasErrors() {
        return reported.stream().anyMatch(Diagnostic::isError);
    }

    synchronized int errorCount() {
        return (int) reported.stream().filter(Diagnostic::isError).count();
    }
}
