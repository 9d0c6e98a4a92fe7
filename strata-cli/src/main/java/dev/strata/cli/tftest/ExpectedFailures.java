package dev.strata.cli.tftest;

import dev.strata.config.CheckRule;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleConfig;
import dev.strata.config.ResourceConfig;
import dev.strata.config.tftest.TestFile;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run block's {@code expect_failures}: the checkable objects (input variables, outputs, resources,
 * data sources, check blocks) whose custom conditions are expected to fail. A failure of one of them
 * is taken out of the run's problems; one that does not fail is "Missing expected failure".
 */
final class ExpectedFailures {

    /** One expected object: the ranges of its conditions, and whether one of them failed. */
    private static final class Target {
        final String label;
        final SourceRange written;
        final List<CheckRule> rules;
        final boolean variable;
        boolean seen;

        Target(String label, SourceRange written, List<CheckRule> rules, boolean variable) {
            this.label = label;
            this.written = written;
            this.rules = rules;
            this.variable = variable;
        }

        boolean matches(Diagnostic d) {
            for (CheckRule r : rules) {
                if (variable) {
                    if (d.summary().equals("Invalid value for variable")
                            && d.detail().contains("validation rule at " + r.declRange())) {
                        return true;
                    }
                } else if (d.subject() != null && within(d.subject(), r)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean within(SourceRange s, CheckRule r) {
            SourceRange c = r.condition() == null ? null : r.condition().range();
            return c != null
                    && s.filename().equals(c.filename())
                    && s.start().byteOffset() >= c.start().byteOffset()
                    && s.end().byteOffset() <= c.end().byteOffset();
        }
    }

    private final List<Target> targets;

    private ExpectedFailures(List<Target> targets) {
        this.targets = targets;
    }

    static ExpectedFailures of(TestFile.Run run, ConfigTree tree, Diagnostics.Builder diags) {
        List<Target> out = new ArrayList<>();
        ModuleConfig m = tree.root().module();
        for (Expression e : run.expectFailures()) {
            var t = e.asTraversal();
            Optional<Traversal> tr = t.value() == null ? Optional.empty() : t.value();
            if (tr.isEmpty()) {
                diags.add(invalid(e.range(), "this expression"));
                continue;
            }
            List<String> names = new ArrayList<>();
            for (Traverser s : tr.get().steps()) {
                switch (s) {
                    case Traverser.Root r -> names.add(r.name());
                    case Traverser.Attr a -> names.add(a.name());
                    default -> {}
                }
            }
            String label = String.join(".", names);
            Target target = null;
            if (names.size() >= 2) {
                switch (names.get(0)) {
                    case "var" -> {
                        var v = m.variables().get(names.get(1));
                        if (v != null) {
                            target = new Target(label, e.range(), v.validations(), true);
                        }
                    }
                    case "output" -> {
                        var o = m.outputs().get(names.get(1));
                        if (o != null) {
                            target = new Target(label, e.range(), o.preconditions(), false);
                        }
                    }
                    case "check" -> {
                        var c = m.checks().get(names.get(1));
                        if (c != null) {
                            target = new Target(label, e.range(), c.asserts(), false);
                        }
                    }
                    case "module", "local", "run", "path", "terraform", "count", "each", "self" -> {}
                    default -> {
                        dev.strata.addr.Resource addr = names.get(0).equals("data") && names.size() >= 3
                                ? dev.strata.addr.Resource.data(names.get(1), names.get(2))
                                : dev.strata.addr.Resource.managed(names.get(0), names.get(1));
                        ResourceConfig rc = m.resources().get(addr);
                        if (rc != null) {
                            List<CheckRule> rules =
                                    new ArrayList<>(rc.lifecycle().preconditions());
                            rules.addAll(rc.lifecycle().postconditions());
                            target = new Target(label, e.range(), rules, false);
                        }
                    }
                }
            }
            if (target == null) {
                diags.add(invalid(e.range(), label));
            } else {
                out.add(target);
            }
        }
        return new ExpectedFailures(out);
    }

    private static Diagnostic invalid(SourceRange at, String what) {
        return Diagnostic.error(
                "Invalid `expect_failures` reference",
                "You cannot expect failures from " + what + ". You can only expect failures from checkable objects "
                        + "such as input variables, output values, check blocks, managed resources and data sources.",
                at);
    }

    boolean isEmpty() {
        return targets.isEmpty();
    }

    boolean allSeen() {
        return targets.stream().allMatch(t -> t.seen);
    }

    boolean anySeen() {
        return targets.stream().anyMatch(t -> t.seen);
    }

    /**
     * The diagnostics of {@code in} that no expected failure accounts for; the expected ones are
     * marked seen and, with {@code verbose}, shown anyway through {@code shown}.
     */
    Diagnostics consume(Diagnostics in, boolean verbose, Diagnostics.Builder shown) {
        Diagnostics.Builder rest = Diagnostics.builder();
        for (Diagnostic d : in) {
            Target hit = null;
            for (Target t : targets) {
                if (t.matches(d)) {
                    hit = t;
                    break;
                }
            }
            if (hit == null) {
                rest.add(d);
                continue;
            }
            hit.seen = true;
            if (verbose) {
                shown.add(d);
            }
        }
        return rest.build();
    }

    void reportMissing(Diagnostics.Builder diags) {
        for (Target t : targets) {
            if (!t.seen) {
                diags.add(Diagnostic.error(
                        "Missing expected failure",
                        "The checkable object, " + t.label + ", was expected to report an error but did not.",
                        t.written));
            }
        }
    }
}
