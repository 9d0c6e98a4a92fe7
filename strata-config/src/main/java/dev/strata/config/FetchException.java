package dev.strata.config;

/** Why a remote module package could not be fetched, as a sentence fragment for a diagnostic. */
final class FetchException extends Exception {
    /** Whether the registry said the package does not exist (404), which has its own diagnostic. */
    private final boolean notFound;

    /**
     * Whether the reason is already the text Terraform gives (go-getter's words, a program's output as it
     * printed it), which the diagnostic quotes as it is rather than ending it with a full stop.
     */
    private final boolean verbatim;

    FetchException(String reason) {
        this(reason, false);
    }

    FetchException(String reason, boolean notFound) {
        this(reason, notFound, false);
    }

    private FetchException(String reason, boolean notFound, boolean verbatim) {
        super(reason, null, false, false);
        this.notFound = notFound;
        this.verbatim = verbatim;
    }

    /** A reason worded as Terraform words it, quoted as it is. */
    static FetchException verbatim(String reason) {
        return new FetchException(reason, false, true);
    }

    boolean notFound() {
        return notFound;
    }

    boolean verbatim() {
        return verbatim;
    }
}
