package dev.strata.cli.tftest;

/**
 * The outcome of a run block, a test file or the whole suite, in Terraform's order: a file or suite
 * takes the highest status of its parts.
 */
public enum TestStatus {
    PENDING,
    SKIP,
    PASS,
    FAIL,
    ERROR;

    TestStatus merge(TestStatus other) {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** The word the human output shows: an error counts as a failure there. */
    public String word() {
        return switch (this) {
            case PENDING -> "pending";
            case SKIP -> "skip";
            case PASS -> "pass";
            case FAIL, ERROR -> "fail";
        };
    }
}
