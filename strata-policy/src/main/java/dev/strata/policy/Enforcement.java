package dev.strata.policy;

/** What a failing policy does to the plan. */
public enum Enforcement {
    /** A warning: the plan may still be saved and applied. */
    ADVISORY,
    /** An error: the plan is not saved as applyable and is not applied. */
    MANDATORY;

    /** The word used in policy files and in JSON. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Enforcement ofWord(String word) {
        return switch (word) {
            case "advisory" -> ADVISORY;
            case "mandatory" -> MANDATORY;
            default -> null;
        };
    }
}
