package dev.strata.hcl;

import java.util.function.Function;

/**
 * A value together with the diagnostics produced while computing it. The value is always present
 * (a best-effort or placeholder value when there are errors), so callers can keep going and
 * report every independent problem once.
 */
public record Result<T>(T value, Diagnostics diagnostics) {

    public static <T> Result<T> of(T value) {
        return new Result<>(value, Diagnostics.NONE);
    }

    public static <T> Result<T> of(T value, Diagnostics diagnostics) {
        return new Result<>(value, diagnostics);
    }

    public boolean hasErrors() {
        return diagnostics.hasErrors();
    }

    public <U> Result<U> map(Function<? super T, ? extends U> f) {
        return new Result<>(f.apply(value), diagnostics);
    }
}
