package dev.strata.cli.view;

import java.util.Objects;

/**
 * A problem found by the CLI itself (bad flags, missing directory, environment) rather than in
 * configuration: it has no source range. Configuration diagnostics from strata-hcl will reach
 * the renderer through their own type; this one stays for the sourceless kind.
 *
 * @param summary a short phrase, no full stop
 * @param detail  full sentences, ideally with a fix; may be empty
 */
public record CliDiagnostic(Severity severity, String summary, String detail) {

    public enum Severity {
        ERROR,
        WARNING
    }

    public CliDiagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(summary, "summary");
        detail = detail == null ? "" : detail;
    }

    public static CliDiagnostic error(String summary, String detail) {
        return new CliDiagnostic(Severity.ERROR, summary, detail);
    }

    public static CliDiagnostic warning(String summary, String detail) {
        return new CliDiagnostic(Severity.WARNING, summary, detail);
    }

    /** The same problem as a placeless diagnostic, for views that render those (JSON streams, validate). */
    public dev.strata.hcl.Diagnostic toDiagnostic() {
        return severity == Severity.ERROR
                ? dev.strata.hcl.Diagnostic.error(summary, detail, null)
                : dev.strata.hcl.Diagnostic.warning(summary, detail, null);
    }
}
