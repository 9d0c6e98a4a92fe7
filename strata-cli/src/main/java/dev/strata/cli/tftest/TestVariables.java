package dev.strata.cli.tftest;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The variables of a test file as its expressions see them ({@code var.NAME}): a run block's own
 * {@code variables}, then the file's, then the command line's and {@code TF_VAR_} ones. The file's are
 * evaluated only when something needs them, as Terraform does, so that one referring to a run that
 * has not happened yet is no problem for the runs before it; they may refer to each other.
 */
final class TestVariables {
    static final FunctionTable FUNCTIONS = dev.strata.lang.eval.TemplateFunctions.builtins(
            dev.strata.lang.funcs.FunctionContext.system(java.nio.file.Path.of(".")));

    private final Map<String, Attribute> file;
    private final Map<String, Value> globals;
    private final Map<String, Value> runs;
    /** The names of the file's run blocks, executed or not. */
    private final Set<String> runNames;

    private final Map<String, Result<Value>> evaluated = new HashMap<>();
    private final Set<String> evaluating = new HashSet<>();

    TestVariables(
            Map<String, Attribute> file, Map<String, Value> globals, Map<String, Value> runs, Set<String> runNames) {
        this.file = file;
        this.globals = globals;
        this.runs = runs;
        this.runNames = Set.copyOf(runNames);
    }

    boolean has(String name) {
        return file.containsKey(name) || globals.containsKey(name);
    }

    /** The file-level (else global) value of {@code name}; null when neither defines it. */
    synchronized Result<Value> value(String name) {
        Attribute a = file.get(name);
        if (a == null) {
            Value g = globals.get(name);
            return g == null ? null : Result.of(g);
        }
        Result<Value> done = evaluated.get(name);
        if (done != null) {
            return done;
        }
        if (!evaluating.add(name)) {
            return Result.of(
                    Value.DYNAMIC_UNKNOWN,
                    Diagnostics.of(Diagnostic.error(
                            "Cycle in test variables",
                            "The variable \"" + name + "\" refers to itself, directly or through other variables.",
                            a.expr().range())));
        }
        Result<Value> r = new Evaluator(scope(Map.of())).evaluate(a.expr());
        evaluating.remove(name);
        if (!r.hasErrors()) {
            // A failure may refer to a run that has not executed yet: a later run evaluates it again.
            evaluated.put(name, r);
        }
        return r;
    }

    /** A run block's variable {@code a}, evaluated where it is written. */
    synchronized Result<Value> evaluate(Attribute a) {
        return new Evaluator(scope(Map.of())).evaluate(a.expr());
    }

    /** The scope of a test file's expressions, with {@code local} (a run's own variables) in front. */
    Scope scope(Map<String, Attribute> local) {
        return new Scope() {
            @Override
            public FunctionTable functions() {
                return FUNCTIONS;
            }

            @Override
            public Result<Resolved> resolve(Traversal t) {
                return TestVariables.this.resolve(t, local::containsKey, n -> evaluate(local.get(n)), null);
            }
        };
    }

    /**
     * Resolves {@code var.NAME} and {@code run.NAME} for an expression of the test file; {@code inModule}
     * names variables another scope answers ({@code fallback}), null when there is none.
     */
    synchronized Result<Scope.Resolved> resolve(
            Traversal t,
            Predicate<String> local,
            java.util.function.Function<String, Result<Value>> localValue,
            Scope fallback) {
        String root = t.rootName();
        String name = t.attrName(1);
        if ("run".equals(root) && name != null) {
            Value v = runs.get(name);
            if (v != null) {
                return Result.of(new Scope.Resolved(v, 2));
            }
            String hint = " You can only reference run blocks that are in the same test file and will execute "
                    + "before the current run block.";
            if (runNames.contains(name)) {
                return failed(
                        "Reference to unavailable run block",
                        "The run block \"" + name + "\" has not executed yet." + hint,
                        t);
            }
            return failed(
                    "Reference to unknown run block",
                    "The run block \"" + name + "\" does not exist within this test file." + hint,
                    t);
        }
        if ("var".equals(root) && name != null) {
            Result<Value> v = local.test(name) ? localValue.apply(name) : value(name);
            if (v != null) {
                return Result.of(new Scope.Resolved(v.value(), 2), v.diagnostics());
            }
            return failed(
                    "Reference to unavailable variable",
                    "The input variable \"" + name + "\" does not exist within this test file.",
                    t);
        }
        if (fallback != null) {
            return fallback.resolve(t);
        }
        return failed(
                "Invalid reference",
                "Only input variables (var.NAME) and the outputs of earlier run blocks (run.NAME.OUTPUT) can be "
                        + "referenced here.",
                t);
    }

    private static Result<Scope.Resolved> failed(String summary, String detail, Traversal t) {
        return Result.of(
                new Scope.Resolved(Value.DYNAMIC_UNKNOWN, t.steps().size()),
                Diagnostics.of(Diagnostic.error(summary, detail, t.range())));
    }
}
