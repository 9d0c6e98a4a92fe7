package dev.strata.config;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Value;

/**
 * Evaluation of expressions that must be constant (variable defaults, optional-attribute defaults,
 * {@code .tfvars} values): references and function calls are errors, as in Terraform, which
 * evaluates these without any evaluation context.
 */
public final class Constants {
    private Constants() {}

    public static Result<Value> evaluate(Expression e) {
        return Evaluator.constant(e);
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
