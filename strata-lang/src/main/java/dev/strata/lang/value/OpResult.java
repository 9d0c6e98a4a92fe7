package dev.strata.lang.value;

/**
 * The outcome of an operator: a value, or a failure naming the operand at fault (0 for the left
 * or only operand, 1 for the right) with a message in Terraform's wording, e.g.
 * {@code a number is required}.
 */
public sealed interface OpResult {
    record Ok(Value value) implements OpResult {}

    record Failed(int operand, String message) implements OpResult {}

    default Value value() {
        return switch (this) {
            case Ok ok -> ok.value();
            case Failed f -> throw new IllegalStateException("operation failed: " + f.message());
        };
    }
}
