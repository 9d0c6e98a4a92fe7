package dev.strata.config;

/** Why a remote module package could not be fetched, as a sentence fragment for a diagnostic. */
final class FetchException extends Exception {
    /** Whether the registry said the package does not exist (404), which has its own diagnostic. */
    private final boolean notFound;

    FetchException(String reason) {
        this(reason, false);
    }

    FetchException(String reason, boolean notFound) {
        super(reason, null, false, false);
        this.notFound = notFound;
    }

    boolean notFound() {
        return notFound;
    }
}
