package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.util.Map;

/**
 * What an expression's references mean in one phase (validate, plan, apply, console): the scope
 * resolves the start of a reference ({@code var.x}, {@code aws_instance.web}, {@code count.index}) and
 * says how many of the traversal's steps that took; the evaluator applies the remaining steps.
 */
public interface Scope {

    /**
     * The value a reference starts with and how many steps of {@code traversal} it consumed (at least
     * one). On failure, an inert placeholder (usually an unknown) and the diagnostics.
     */
    Result<Resolved> resolve(Traversal traversal);

    /** The functions expressions may call. */
    FunctionTable functions();

    /**
     * Whether expressions may call functions at all here. Where they may not ({@link #constant()}), every
     * call is an error at the whole call, and its arguments are not evaluated.
     */
    default boolean functionsAllowed() {
        return true;
    }

    record Resolved(Value value, int stepsConsumed) {}

    /**
     * {@code outer} with {@code names} bound over it (a dynamic block's iterator, names an enclosing
     * block binds): each resolves to its value in one step, whatever follows it; every other
     * reference resolves in {@code outer}.
     */
    static Scope binding(Scope outer, Map<String, Value> names) {
        if (names.isEmpty()) {
            return outer;
        }
        Map<String, Value> bound = Map.copyOf(names);
        return new Scope() {
            @Override
            public Result<Resolved> resolve(Traversal traversal) {
                Value v = traversal.rootName() == null ? null : bound.get(traversal.rootName());
                return v != null ? Result.of(new Resolved(v, 1)) : outer.resolve(traversal);
            }

            @Override
            public FunctionTable functions() {
                return outer.functions();
            }

            @Override
            public boolean functionsAllowed() {
                return outer.functionsAllowed();
            }
        };
    }

    /**
     * Where a value must be constant ({@code .tfvars} files, variable defaults, {@code decode_tfvars}): as
     * HCL evaluates without an evaluation context, each reference evaluated is "Variables not allowed" at
     * its root name and each function call "Function calls not allowed" at the whole call.
     */
    static Scope constant() {
        return ConstantScope.INSTANCE;
    }

    /** A scope in which nothing is declared, for evaluating standalone expressions. */
    static Scope empty(FunctionTable functions) {
        return new Scope() {
            @Override
            public Result<Resolved> resolve(Traversal traversal) {
                return Result.of(
                        new Resolved(Value.DYNAMIC_UNKNOWN, 1),
                        Diagnostics.of(Diagnostic.error(
                                "Reference to undeclared name",
                                "There is nothing named \"" + traversal.rootName()
                                        + "\" here: no configuration is loaded, "
                                        + "so only literal values and function calls can be evaluated.",
                                traversal.rootRange())));
            }

            @Override
            public FunctionTable functions() {
                return functions;
            }
        };
    }
}
