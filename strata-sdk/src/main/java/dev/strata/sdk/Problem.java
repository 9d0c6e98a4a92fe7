package dev.strata.sdk;

/** An error in the program found at synthesis, at the site that created the offending value or declaration. */
public record Problem(String summary, String detail, Site site) {
    @Override
    public String toString() {
        return "Error: " + summary + "\n\n  at " + site + "\n\n" + detail;
    }
}
