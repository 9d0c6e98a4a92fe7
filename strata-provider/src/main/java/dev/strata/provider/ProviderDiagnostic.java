package dev.strata.provider;

import dev.strata.addr.AttributePath;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Severity;
import dev.strata.hcl.SourceRange;
import java.util.Objects;

/**
 * A problem reported by a provider. Like Terraform's contextual diagnostics it may name the
 * attribute it is about ({@code attribute}, null when it concerns the whole object or the
 * provider), and the engine finds that attribute's source range later. An error also says whether
 * trying again may help ({@link Failure}); warnings carry no classification.
 *
 * <p>Summary and detail are shown to the user: they must never contain a sensitive value.
 */
public record ProviderDiagnostic(
        Severity severity, String summary, String detail, AttributePath attribute, Failure failure) {

    public ProviderDiagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(summary, "summary");
        detail = detail == null ? "" : detail;
        if (severity == Severity.ERROR && failure == null) {
            failure = Failure.PERMANENT;
        }
        if (severity != Severity.ERROR) {
            failure = null;
        }
    }

    public static ProviderDiagnostic error(String summary, String detail) {
        return new ProviderDiagnostic(Severity.ERROR, summary, detail, null, Failure.PERMANENT);
    }

    public static ProviderDiagnostic error(String summary, String detail, AttributePath attribute) {
        return new ProviderDiagnostic(Severity.ERROR, summary, detail, attribute, Failure.PERMANENT);
    }

    public static ProviderDiagnostic transientError(String summary, String detail, Failure.Transient failure) {
        return new ProviderDiagnostic(Severity.ERROR, summary, detail, null, failure);
    }

    public static ProviderDiagnostic warning(String summary, String detail, AttributePath attribute) {
        return new ProviderDiagnostic(Severity.WARNING, summary, detail, attribute, null);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    /**
     * This problem as a user-facing diagnostic at {@code subject} (null when it has no place in a
     * file); the attribute path, when there is one, is added to the detail so that it still says
     * which argument is meant.
     */
    public Diagnostic toDiagnostic(SourceRange subject) {
        String d = detail;
        if (attribute != null && !attribute.isRoot() && subject == null) {
            d = d.isEmpty() ? "Attribute: " + attribute : d + "\n\nAttribute: " + attribute;
        }
        return new Diagnostic(severity, summary, d, subject, null);
    }
}
