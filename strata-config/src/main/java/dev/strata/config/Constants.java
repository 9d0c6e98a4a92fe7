package dev.strata.config;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.Expr;
import dev.strata.hcl.syntax.ExprWalk;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.nio.file.Path;

/**
 * Evaluation of expressions that must be constant (variable defaults, optional-attribute defaults,
 * {@code .tfvars} values): references and function calls are errors, as in Terraform, which
 * evaluates these without any evaluation context.
 */
public final class Constants {
    private Constants() {}

    private static final FunctionTable NO_FUNCTIONS = TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));

    public static Result<Value> evaluate(Expression e) {
        Diagnostics.Builder diags = Diagnostics.builder();
        for (Traversal t : e.variables()) {
            diags.add(Diagnostic.error("Variables not allowed", "Variables may not be used here.", t.rootRange()));
        }
        Result<Expr> tree = e.syntax();
        if (!tree.hasErrors() && tree.value() != null) {
            ExprWalk.forEach(tree.value(), x -> {
                if (x instanceof Expr.FunctionCall f) {
                    diags.add(Diagnostic.error(
                            "Function calls not allowed", "Functions may not be called here.", f.nameRange()));
                }
            });
        }
        if (diags.hasErrors()) {
            return Result.of(Value.DYNAMIC_UNKNOWN, diags.build());
        }
        return new Evaluator(Scope.empty(NO_FUNCTIONS)).evaluate(e);
    }
}
