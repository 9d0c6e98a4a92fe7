package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;

/** Short names for building parameters in the function tables. */
final class Dsl {
    private Dsl() {}

    static Param p(String name, Type type) {
        return Param.of(name, type);
    }

    /**
     * A parameter that may be a known collection with unknowns inside: the function rearranges
     * elements without looking at them, so the unknowns travel into the result. Pair with
     * {@link #shallow(Impl)}, which handles an argument that is unknown as a whole.
     */
    static Param partial(String name, Type type) {
        return new Param(name, type, false, true, true);
    }

    /**
     * Completes {@link #partial}: an argument unknown as a whole gives an unknown result, and marks
     * on the arguments themselves go to the result while marks inside them stay in place (so
     * {@code element([sensitive(1), 2], 1)} is not sensitive, as in Terraform).
     */
    static Impl shallow(Impl impl) {
        return (args, rt) -> {
            java.util.Set<dev.strata.lang.value.Mark> marks = Args.topMarks(args);
            for (dev.strata.lang.value.Value a : args) {
                if (!a.isKnown()) {
                    return dev.strata.lang.value.Value.unknown(rt).withMarks(marks);
                }
            }
            return impl.call(Args.unmarkTop(args), rt).withMarks(marks);
        };
    }

    /** A parameter that sees nulls, unknowns and marks itself, as the type functions do. */
    static Param raw(String name, Type type) {
        return new Param(name, type, true, true, true);
    }
}
