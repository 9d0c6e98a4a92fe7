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

    static SortedSet<String> of(TestFile.Run run) {
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
                if ("run".equals(t.rootName())
                        && t.steps().size() > 1
                        && t.steps().get(1) instanceof Traverser.Attr at) {
                    out.add(at.name());
                }
            }
        }
        return out;
    }
}
