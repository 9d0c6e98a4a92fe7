package dev.strata.lang.value;

/**
 * The outcome of a conversion: the converted value, or a message in Terraform's wording (without
 * a trailing period) that names the element or attribute that failed, e.g.
 * {@code element 0: string required}. Messages never contain sensitive values.
 */
public sealed interface ConversionResult {
    record Ok(Value value) implements ConversionResult {}

    record Failed(String message) implements ConversionResult {}

    default boolean isOk() {
        return this instanceof Ok;
    }

    /** The converted value; throws if the conversion failed, for callers that checked first. */
    default Value value() {
        return switch (this) {
            case Ok ok -> ok.value();
            case Failed f -> throw new IllegalStateException("conversion failed: " + f.message());
        };
    }
}
