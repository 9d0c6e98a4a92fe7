package dev.strata.lang.funcs;

import dev.strata.lang.value.Value;

/** The result of calling a function: a value, or a failure that names the argument at fault. */
public sealed interface CallResult {
    /** A successful call. */
    record Success(Value value) implements CallResult {}

    /**
     * A failed call. {@code argIndex} is the index of the argument at fault (so the evaluator can
     * point at its range) or -1 for the call as a whole. {@code summary} and {@code detail} are
     * Terraform's diagnostic wording, e.g. "Invalid function argument" and
     * {@code Invalid value for "num" parameter: a number is required.}; {@code message} is the
     * bare cause.
     */
    record Failure(int argIndex, String summary, String detail, String message) implements CallResult {}

    default boolean isSuccess() {
        return this instanceof Success;
    }

    /** The value of a successful call. */
    default Value value() {
        return switch (this) {
            case Success s -> s.value();
            case Failure f -> throw new IllegalStateException("call failed: " + f.detail());
        };
    }
}
