package dev.strata.tfplugin.install;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.Functions;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.value.Value;
import java.nio.file.Path;

/**
 * The arguments of the CLI configuration and the dependency lock file: expressions of constants and built-in
 * function calls, with no variables or references to evaluate them against.
 */
final class ConstantArguments {
    private ConstantArguments() {}

    /** An evaluator with the built-in functions only, relative paths taken from the current directory. */
    static Evaluator evaluator() {
        return new Evaluator(Scope.empty(Functions.builtins(FunctionContext.system(Path.of(".")))));
    }

    /**
     * The argument's string value; null after adding to {@code diags} the evaluation's problems or, when it had
     * none, that the argument must be a (known, non-null) string.
     */
    static String string(Evaluator eval, Attribute a, Diagnostics.Builder diags) {
        Result<Value> r = eval.evaluate(a.expr());
        diags.addAll(r.diagnostics());
        Value v = r.value();
        if (v != null && v.type() == PrimitiveType.STRING && v.isKnownAndNotNull()) {
            return v.asString();
        }
        if (!r.diagnostics().hasErrors()) {
            diags.add(Diagnostic.error(
                    "Invalid " + a.name(),
                    "The \"" + a.name() + "\" argument must be a string.",
                    a.expr().range()));
        }
        return null;
    }
}
