package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;

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

    record Resolved(Value value, int stepsConsumed) {}

    /** A scope in which nothing is declared, for evaluating standalone expressions. */
    static Scope empty(FunctionTable functions) {
        return new Scope() {
            @Override
            public Result<Resolved> resolve(Traversal traversal) {
                return Result.of(new Resolved(Value.DYNAMIC_UNKNOWN, 1), Diagnostics.of(Diagnostic.error(
                        "Reference to undeclared name",
                        "There is nothing named \"" + traversal.rootName() + "\" here: no configuration is loaded, "
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
