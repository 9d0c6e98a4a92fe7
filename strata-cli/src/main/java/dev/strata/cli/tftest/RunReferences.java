package dev.strata.cli.tftest;

import dev.strata.config.tftest.TestFile;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The other runs a run refers to ({@code run.NAME} in its variables, assertions, overrides and
 * {@code providers}): in a file with {@code test { parallel = true }}, a run that errors skips only
 * the runs that depend on it, as Terraform 1.12+ schedules them, and the independent ones still run.
 */
final class RunReferences {
    private RunReferences() {}

    /**
     * Terraform 1.11's warnings for the run's variables that the module under test does not declare
     * and that nothing in the run refers to as {@code var.NAME} either (its assertions, variables,
     * overrides or providers): a value that goes nowhere, probably misspelled.
     */
    static dev.strata.hcl.Diagnostics undeclaredVariables(TestFile.Run run, java.util.Set<String> declared) {
        SortedSet<String> used = referenced(run, "var");
        dev.strata.hcl.Diagnostics.Builder out = dev.strata.hcl.Diagnostics.builder();
        run.variables().forEach((name, a) -> {
            if (!declared.contains(name) && !used.contains(name)) {
                out.add(dev.strata.hcl.Diagnostic.warning(
                        "Value for undeclared variable",
                        "The module under test does not declare a variable named \"" + name
                                + "\", but it is declared in run block \"" + run.name() + "\".",
                        a.expr().range()));
            }
        });
        return out.build();
    }

    static SortedSet<String> of(TestFile.Run run) {
        return referenced(run, "run");
    }

    /** The names {@code root.NAME} the run's expressions refer to. */
    private static SortedSet<String> referenced(TestFile.Run run, String root) {
        List<Expression> exprs = new ArrayList<>();
        run.variables().values().forEach(a -> exprs.add(a.expr()));
        for (TestFile.Assertion a : run.asserts()) {
            exprs.add(a.condition());
            exprs.add(a.errorMessage());
        }
        for (TestFile.Override o : run.overrides()) {
            exprs.add(o.values());
        }
        exprs.add(run.providers());
        SortedSet<String> out = new TreeSet<>();
        for (Expression e : exprs) {
            if (e == null) {
                continue;
            }
            for (Traversal t : e.variables()) {
                if (root.equals(t.rootName())
                        && t.steps().size() > 1
                        && t.steps().get(1) instanceof Traverser.Attr at) {
                    out.add(at.name());
                }
            }
        }
        return out;
    }
}
