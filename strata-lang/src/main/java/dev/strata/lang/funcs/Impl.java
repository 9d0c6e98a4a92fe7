package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * A function body. It receives the arguments converted to the parameter types, with marks,
 * nulls and unknowns removed or kept as the parameters allow, and the computed return type. It
 * reports user errors by throwing {@link FunctionError}.
 */
@FunctionalInterface
public interface Impl {
    Value call(List<Value> args, Type returnType);
}
