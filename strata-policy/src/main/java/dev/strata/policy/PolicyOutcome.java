package dev.strata.policy;

import dev.strata.hcl.SourceRange;

/**
 * One policy that did not pass for one resource change.
 *
 * @param address the resource instance's address, as in the plan
 * @param action  the change's action ({@code create}, {@code update}, {@code delete}, {@code replace},
 *                {@code read})
 * @param message the policy's error message, or why the condition could not be decided
 * @param range   the policy's condition in its file
 */
public record PolicyOutcome(
        String policy,
        Enforcement enforcement,
        String address,
        String action,
        Status status,
        String message,
        SourceRange range) {

    public enum Status {
        /** The condition is false. */
        FAILED,
        /** The condition depends on values known only after apply. */
        UNKNOWN,
        /** The condition could not be evaluated (an error in the policy or a value of the wrong type). */
        ERRORED;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Whether this outcome stops the plan from being applied. */
    public boolean blocks() {
        return enforcement == Enforcement.MANDATORY;
    }
}
