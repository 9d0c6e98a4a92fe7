package dev.strata.hcl;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A problem found in the user's input, as a value: what went wrong ({@code summary}, a short
 * phrase), why and how to fix it ({@code detail}, full sentences), the exact place
 * ({@code subject}) and the construct around it ({@code context}). Either range may be null for
 * problems that have no place in a file. {@code address} names the object a provider (or a provisioner)
 * reported the problem for, shown as Terraform's "with ADDRESS," line; null for the others.
 */
public record Diagnostic(
        Severity severity,
        String summary,
        String detail,
        SourceRange subject,
        SourceRange context,
        List<ExpressionValue> values,
        FunctionCall functionCall,
        String address) {

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

    /**
     * The function whose call failed, shown under the source snippet as Terraform does: {@code while calling
     * format(format, args...)}, its parameters by name and the variadic one (if any) last with an ellipsis.
     */
    public record FunctionCall(String name, List<String> params, String variadicParam) {
        public FunctionCall {
            Objects.requireNonNull(name, "name");
            params = List.copyOf(params);
        }

        @Override
        public String toString() {
            List<String> all = new java.util.ArrayList<>(params);
            if (variadicParam != null) {
                all.add(variadicParam + "...");
            }
            return name + "(" + String.join(", ", all) + ")";
        }
    }

    /** The order of machine-readable output: placeless ones first, then by place (see Diagnostics#inPlaceOrder). */
    static final Comparator<Diagnostic> PLACE_ORDER = Comparator.comparing(
                    (Diagnostic d) -> d.subject, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Diagnostic::severity)
            .thenComparing(Diagnostic::summary)
            .thenComparing(d -> Objects.requireNonNullElse(d.detail, ""));

    /**
     * The order diagnostics are shown in: as Terraform, warnings before errors; then (where Terraform keeps the
     * order they arose in, which a concurrent walk does not fix) placeless ones first, then by place.
     */
    static final Comparator<Diagnostic> ORDER = Comparator.comparing((Diagnostic d) -> d.severity != Severity.WARNING)
            .thenComparing(PLACE_ORDER);

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(summary, "summary");
        detail = detail == null ? "" : detail;
        values = values == null ? List.of() : List.copyOf(values);
    }

    public Diagnostic(Severity severity, String summary, String detail, SourceRange subject, SourceRange context) {
        this(severity, summary, detail, subject, context, List.of(), null, null);
    }

    public Diagnostic(
            Severity severity,
            String summary,
            String detail,
            SourceRange subject,
            SourceRange context,
            List<ExpressionValue> values,
            FunctionCall functionCall) {
        this(severity, summary, detail, subject, context, values, functionCall, null);
    }

    public Diagnostic(
            Severity severity,
            String summary,
            String detail,
            SourceRange subject,
            SourceRange context,
            List<ExpressionValue> values) {
        this(severity, summary, detail, subject, context, values, null, null);
    }

    /** This diagnostic with the values of the references in its subject expression. */
    public Diagnostic withValues(List<ExpressionValue> values) {
        return new Diagnostic(severity, summary, detail, subject, context, values, functionCall, address);
    }

    /** This diagnostic with another detail. */
    public Diagnostic withDetail(String detail) {
        return new Diagnostic(severity, summary, detail, subject, context, values, functionCall, address);
    }

    /** This diagnostic of a failed call of {@code call}. */
    public Diagnostic withFunctionCall(FunctionCall call) {
        return new Diagnostic(severity, summary, detail, subject, context, values, call, address);
    }

    /** This diagnostic reported for the object at {@code address} (a resource, or one of its instances). */
    public Diagnostic withAddress(String address) {
        return new Diagnostic(severity, summary, detail, subject, context, values, functionCall, address);
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
