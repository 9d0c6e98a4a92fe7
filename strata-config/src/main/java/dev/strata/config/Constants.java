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
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
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

    /** A constant string argument, or null after reporting into {@code diags} why it is not one. */
    public static String string(Expression e, Diagnostics.Builder diags) {
        Value v = converted(e, Type.STRING, "A string value is required here.", diags);
        return v == null ? null : v.asString();
    }

    /** A constant bool argument, or {@code dflt} after reporting into {@code diags} why it is not one. */
    public static boolean bool(Expression e, boolean dflt, Diagnostics.Builder diags) {
        Value v = converted(e, Type.BOOL, "A bool value (true or false) is required here.", diags);
        return v == null ? dflt : v.asBool();
    }

    private static Value converted(Expression e, Type type, String required, Diagnostics.Builder diags) {
        Result<Value> v = evaluate(e);
        if (v.hasErrors()) {
            diags.addAll(v.diagnostics());
            return null;
        }
        ConversionResult c = Convert.convert(v.value(), type);
        if (!c.isOk() || c.value().isNull() || !c.value().isKnown()) {
            diags.error("Incorrect value type", required, e.range());
            return null;
        }
        return c.value();
    }
}
