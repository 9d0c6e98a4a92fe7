package dev.strata.cli.tftest;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.eval.TemplateFunctions;
import dev.strata.lang.funcs.FunctionContext;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the expressions of a test file's {@code variables} blocks see: {@code var.NAME} (the command
 * line's and the file's variables) and {@code run.NAME} (the outputs of runs before this one).
 */
final class TestScope implements Scope {
    static final FunctionTable FUNCTIONS = TemplateFunctions.builtins(FunctionContext.system(Path.of(".")));

    private final Map<String, Value> variables;
    private final Map<String, Value> runs;

    TestScope(Map<String, Value> variables, Map<String, Value> runs) {
        this.variables = Map.copyOf(variables);
        this.runs = Map.copyOf(runs);
    }

    @Override
    public FunctionTable functions() {
        return FUNCTIONS;
    }

    @Override
    public Result<Resolved> resolve(Traversal t) {
        String root = t.rootName();
        String name = t.steps().size() > 1 && t.steps().get(1) instanceof Traverser.Attr a ? a.name() : null;
        if ("var".equals(root) && name != null) {
            Value v = variables.get(name);
            if (v != null) {
                return Result.of(new Resolved(v, 2));
            }
            return failed(
                    "Reference to unavailable variable",
                    "The input variable \"" + name + "\" does not exist within this test file.",
                    t);
        }
        if ("run".equals(root) && name != null) {
            Value v = runs.get(name);
            if (v != null) {
                return Result.of(new Resolved(v, 2));
            }
            return failed(
                    "Reference to unavailable run block",
                    "The run block \"" + name + "\" does not exist within this test file, or has not run yet.",
                    t);
        }
        return failed(
                "Invalid reference",
                "Only input variables (var.NAME) and the outputs of earlier run blocks (run.NAME.OUTPUT) can be "
                        + "referenced here.",
                t);
    }

    private static Result<Resolved> failed(String summary, String detail, Traversal t) {
        return Result.of(
                new Resolved(Value.DYNAMIC_UNKNOWN, t.steps().size()),
                Diagnostics.of(Diagnostic.error(summary, detail, t.range())));
    }
}
