package dev.strata.cli.logging;

import java.util.Objects;

/**
 * A value that must not appear in logs or messages. {@link #toString()} is {@code (sensitive value)}, so
 * passing a {@code Sensitive} to a log statement or string concatenation cannot leak it; the value is
 * reached only through {@link #reveal()}, whose name makes every use easy to find and review.
 */
public final class Sensitive<T> {
    public static final String REDACTED = "(sensitive value)";

    private final T value;

    private Sensitive(T value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    public static <T> Sensitive<T> of(T value) {
        return new Sensitive<>(value);
    }

    /** The wrapped value. Never pass the result to a logger, an exception message or a view. */
    public T reveal() {
        return value;
    }

    @Override
    public String toString() {
        return REDACTED;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sensitive<?> s && value.equals(s.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}
