package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * Computes a function's result type from its (converted) arguments, which may be unknown; the
 * type of the unknown result when an argument is unknown. May throw {@link FunctionError}.
 */
@FunctionalInterface
public interface ReturnType {
    Type of(List<Value> args);

    static ReturnType fixed(Type t) {
        return args -> t;
    }
}
