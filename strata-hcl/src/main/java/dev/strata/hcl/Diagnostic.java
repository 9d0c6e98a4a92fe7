package dev.strata.hcl;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A problem found in the user's input, as a value: what went wrong ({@code summary}, a short
 * phrase), why and how to fix it ({@code detail}, full sentences), the exact place
 * ({@code subject}) and the construct around it ({@code context}). Either range may be null for
 * problems that have no place in a file.
 */
public record Diagnostic(
        Severity severity,
        String summary,
        String detail,
        SourceRange subject,
        SourceRange context,
        List<ExpressionValue> values) {

    /**
     * What one reference in the failing expression held, shown under the source snippet as
     * {@code var.env is "qa"}: the reference as written and a statement about its value.
     */
    public record ExpressionValue(String traversal, String statement) {
        public ExpressionValue {
            Objects.requireNonNull(traversal, "traversal");
            Objects.requireNonNull(statement, "statement");
        }
    }

    static final Comparator<Diagnostic> ORDER = Comparator.comparing(
                    (Diagnostic d) -> d.subject, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Diagnostic::severity)
            .thenComparing(Diagnostic::summary)
            .thenComparing(d -> Objects.requireNonNullElse(d.detail, ""));

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(summary, "summary");
        detail = detail == null ? "" : detail;
        values = values == null ? List.of() : List.copyOf(values);
    }

    public Diagnostic(Severity severity, String summary, String detail, SourceRange subject, SourceRange context) {
        this(severity, summary, detail, subject, context, List.of());
    }

    /** This diagnostic with the values of the references in its subject expression. */
    public Diagnostic withValues(List<ExpressionValue> values) {
        return new Diagnostic(severity, summary, detail, subject, context, values);
    }

    public static Diagnostic error(String summary, String detail, SourceRange subject) {
        return new Diagnostic(Severity.ERROR, summary, detail, subject, null);
    }

    public static Diagnostic error(String summary, String detail, SourceRange subject, SourceRange context) {
        return new Diagnostic(Severity.ERROR, summary, detail, subject, context);
    }

    public static Diagnostic warning(String summary, String detail, SourceRange subject) {
        return new Diagnostic(Severity.WARNING, summary, detail, subject, null);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /** Terraform-style one-line form, {@code file:line,col-col: summary; detail}. */
    @Override
    public String toString() {
        String where = subject == null ? "" : subject + ": ";
        return where + summary + (detail.isEmpty() ? "" : "; " + detail);
    }
}
