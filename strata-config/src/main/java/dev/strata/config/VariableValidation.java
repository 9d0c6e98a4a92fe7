package dev.strata.config;

import dev.strata.addr.InputVariable;
import dev.strata.addr.Reference;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * An input variable's {@code validation} rules checked against its value, with Terraform 1.11's
 * diagnostics: in the engine's walk, for each instance of its module, once what the rules refer to (other
 * variables, local values, resources: Terraform 1.9+ allows it) is evaluated; where no walk runs ({@code
 * console} without {@code -plan}), the root module's rules that refer to input variables alone, once their
 * values are read. A condition that is unknown is not decided (it is, once its values are known: in the
 * apply).
 */
public final class VariableValidation {
    private VariableValidation() {}

    /**
     * @param scope   where the rules are evaluated: the variable and whatever else they refer to
     * @param subject where the value was set (the module call's argument, the file's entry), or null for
     *                the default, which is then reported at the variable's declaration
     */
    public static Diagnostics check(VariableConfig vc, Scope scope, SourceRange subject) {
        return check(vc, vc.validations(), scope, subject);
    }

    /** Only {@code rules}, some of {@code vc}'s. */
    public static Diagnostics check(VariableConfig vc, List<CheckRule> rules, Scope scope, SourceRange subject) {
        Diagnostics.Builder out = Diagnostics.builder();
        for (CheckRule rule : rules) {
            if (rule.condition() != null) {
                rule(vc, rule, scope, subject == null ? vc.declRange() : subject, out);
            }
        }
        return out.build();
    }

    /**
     * The root variable's rules that can be checked as soon as the input variables' values are read: their
     * condition and error message refer to input variables alone.
     */
    static List<CheckRule> onInputs(VariableConfig vc) {
        return vc.validations().stream().filter(r -> !refersBeyondInputs(r)).toList();
    }

    private static boolean refersBeyondInputs(CheckRule rule) {
        for (Expression e : java.util.Arrays.asList(rule.condition(), rule.errorMessage())) {
            if (e == null) {
                continue;
            }
            for (Traversal t : e.variables()) {
                Result<Reference> ref = Reference.parse(t);
                if (ref.value() == null || !(ref.value().subject() instanceof InputVariable)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void rule(
            VariableConfig vc, CheckRule rule, Scope scope, SourceRange subject, Diagnostics.Builder out) {
        Result<Value> c = new Evaluator(scope).evaluate(rule.condition());
        out.addAll(c.diagnostics());
        if (c.hasErrors()) {
            return;
        }
        Value cv = c.value().unmarkDeep();
        if (!cv.isKnown()) {
            return;
        }
        if (cv.isNull()) {
            out.add(Diagnostic.error(
                    "Invalid variable validation result",
                    "Validation condition expression must " + "return either true or false, not null.",
                    rule.condition().range()));
            return;
        }
        ConversionResult b = Convert.convert(cv, Type.BOOL);
        if (b instanceof ConversionResult.Failed f) {
            out.add(Diagnostic.error(
                    "Invalid variable validation result",
                    "Invalid validation condition result " + "value: " + f.message() + ".",
                    rule.condition().range()));
            return;
        }
        if (b.value().asBool()) {
            return;
        }
        String message = message(rule, scope, out);
        if (message != null) {
            out.add(Diagnostic.error(
                            "Invalid value for variable",
                            message + "\n\nThis was checked by the " + "validation rule at " + rule.declRange() + ".",
                            subject)
                    .withValues(dev.strata.lang.eval.ExpressionValues.of(rule.condition(), scope)));
        }
    }

    /** The rule's error message; null when it cannot be known before the apply (reported instead). */
    private static String message(CheckRule rule, Scope scope, Diagnostics.Builder out) {
        String failed = "Failed to evaluate condition error message.";
        if (rule.errorMessage() == null) {
            return failed;
        }
        Result<Value> m = new Evaluator(scope).evaluate(rule.errorMessage());
        out.addAll(m.diagnostics());
        Value mv = m.value();
        if (m.hasErrors() || mv == null) {
            return failed;
        }
        if (!mv.isWhollyKnown()) {
            out.add(Diagnostic.error(
                    "Invalid error message",
                    "Unsuitable value for error message: expression refers "
                            + "to values that won't be known until the apply phase.",
                    rule.errorMessage().range()));
            return null;
        }
        if (mv.hasMarkDeep(Mark.SENSITIVE)) {
            out.add(Diagnostic.error(
                    "Error message refers to sensitive values",
                    "The error expression used to "
                            + "explain this condition refers to sensitive values. Strata will not display the resulting "
                            + "message.\n\nYou can correct this by removing references to sensitive values, or by carefully "
                            + "using the nonsensitive() function if the expression will not reveal the sensitive data.",
                    rule.errorMessage().range()));
            return "The error message included a sensitive value, so it will not be displayed.";
        }
        ConversionResult s = Convert.convert(mv.unmarkDeep(), Type.STRING);
        if (mv.isNull() || !(s instanceof ConversionResult.Ok ok)) {
            return failed;
        }
        return ok.value().asString();
    }
}
