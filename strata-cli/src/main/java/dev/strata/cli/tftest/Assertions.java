package dev.strata.cli.tftest;

import dev.strata.config.tftest.TestFile;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;

/** Evaluates a run block's {@code assert} blocks as {@code terraform test} does. */
final class Assertions {
    private Assertions() {}

    /**
     * Checks {@code a} in {@code scope}: PASS, FAIL (the condition is false) or ERROR (it cannot be
     * decided). A failure's or an unknown condition's diagnostic goes to {@code values} with the
     * values of the condition's references, which the human output shows under its snippet; a
     * failure's also to {@code comparisons} with the comparison of a comparison's two sides
     * ({@link AssertionComparison}, "LHS:" and "RHS:" with {@code verbose}).
     */
    static TestStatus check(
            TestFile.Assertion a,
            Scope scope,
            String run,
            boolean planned,
            boolean verbose,
            Diagnostics.Builder diags,
            java.util.function.BiConsumer<Diagnostic, java.util.List<String>> values,
            java.util.function.BiConsumer<Diagnostic, AssertionComparison.Shown> comparisons) {
        Result<Value> r = new Evaluator(scope).evaluate(a.condition());
        diags.addAll(r.diagnostics());
        boolean ephemeral = false;
        for (dev.strata.hcl.Traversal t : a.condition().variables()) {
            if ("ephemeral".equals(t.rootName())) {
                ephemeral = true;
                diags.add(Diagnostic.error(
                        "Ephemeral resources cannot be asserted",
                        "Ephemeral resources are closed when the test is finished, and are not available within the "
                                + "test context for assertions.",
                        t.range()));
            }
        }
        if (r.hasErrors() || ephemeral) {
            return TestStatus.ERROR;
        }
        Value v = r.value().unmarkDeep();
        if (!v.isKnown()) {
            Diagnostic d = Diagnostic.error(
                    "Unknown condition value",
                    planned
                            ? "Condition expression could not be evaluated at this time. This means you have executed a "
                                    + "`run` block with `command = plan` and one of the values your condition depended on "
                                    + "is not known until after the plan has been applied. Either remove this value from "
                                    + "your condition, or execute an `apply` command from this `run` block. "
                                    + "Alternatively, if there is an override for this value, you can make it available "
                                    + "during the plan phase by setting `override_during = plan` in the `override_` block."
                            : "Condition expression could not be evaluated at this time.",
                    a.condition().range());
            diags.add(d);
            values.accept(d, AssertionValues.of(a.condition(), scope));
            return TestStatus.ERROR;
        }
        // Terraform 1.11's words for a condition that is not a bool: "Invalid condition run".
        if (v.isNull()) {
            Diagnostic d = Diagnostic.error(
                    "Invalid condition run",
                    "Condition expression must return either true or false, not null.",
                    a.condition().range());
            diags.add(d);
            values.accept(d, AssertionValues.of(a.condition(), scope));
            return TestStatus.ERROR;
        }
        ConversionResult b = Convert.convert(v, Type.BOOL);
        if (b instanceof ConversionResult.Failed f) {
            Diagnostic d = Diagnostic.error(
                    "Invalid condition run",
                    "Invalid condition run value: " + f.message() + ".",
                    a.condition().range());
            diags.add(d);
            values.accept(d, AssertionValues.of(a.condition(), scope));
            return TestStatus.ERROR;
        }
        if (b.value().asBool()) {
            return TestStatus.PASS;
        }
        Diagnostic d = Diagnostic.error(
                "Test assertion failed", message(a, scope, diags), a.condition().range());
        diags.add(d);
        java.util.List<String> comparison = AssertionComparison.of(a.condition(), scope, verbose);
        values.accept(d, AssertionValues.of(a.condition(), scope));
        if (!comparison.isEmpty()) {
            // Beside a comparison only -verbose lists the references, with their whole values (Terraform 1.12+).
            comparisons.accept(
                    d,
                    new AssertionComparison.Shown(
                            comparison,
                            verbose ? AssertionComparison.references(a.condition(), scope) : java.util.List.of()));
        }
        return TestStatus.FAIL;
    }

    private static String message(TestFile.Assertion a, Scope scope, Diagnostics.Builder diags) {
        Result<Value> m = new Evaluator(scope).evaluate(a.errorMessage());
        if (m.hasErrors()) {
            diags.addAll(m.diagnostics());
            return "Failed to evaluate condition error message.";
        }
        Value v = m.value();
        if (v.hasMarkDeep(Mark.SENSITIVE)) {
            return "(The error message refers to sensitive values and is not shown.)";
        }
        if (v.hasMarkDeep(Mark.EPHEMERAL)) {
            // Terraform 1.11's warning, and the failure without a message.
            diags.add(Diagnostic.warning(
                    "Error message refers to ephemeral values",
                    "The error expression used to explain this condition refers to ephemeral values, so Strata will "
                            + "not display the resulting message.\n\nYou can correct this by removing references to "
                            + "ephemeral values, or by using the ephemeralasnull() function on the references to not "
                            + "reveal ephemeral data.",
                    a.errorMessage().range()));
            return "";
        }
        if (!v.isKnownAndNotNull()) {
            return "Failed to evaluate condition error message.";
        }
        ConversionResult s = Convert.convert(v.unmarkDeep(), Type.STRING);
        return s instanceof ConversionResult.Ok ok
                ? ok.value().asString()
                : "Failed to evaluate condition error message.";
    }
}
