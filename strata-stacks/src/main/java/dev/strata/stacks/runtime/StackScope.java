package dev.strata.stacks.runtime;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import java.util.List;

/**
 * What references mean in one stack instance: {@code var.*}, {@code local.*}, {@code component.*},
 * {@code stack.*} and {@code provider.TYPE.NAME}, each asking the object it names for its value (which
 * computes it once, or waits for whoever is computing it). Objects with {@code for_each} add
 * {@code each} over this scope with {@link Scope#binding}.
 */
final class StackScope implements Scope {
    private final StackInstanceRun stack;

    StackScope(StackInstanceRun stack) {
        this.stack = stack;
    }

    @Override
    public Result<Resolved> resolve(Traversal t) {
        String root = t.rootName();
        List<Traverser> steps = t.steps();
        return switch (root == null ? "" : root) {
            case "var" -> named(t, "input variable", 2, name -> stack.variable(name, t.range()));
            case "local" -> named(t, "local value", 2, name -> stack.local(name, t.range()));
            case "component" -> named(t, "component", 2, name -> stack.componentValue(name, t.range()));
            case "stack" -> named(t, "embedded stack", 2, name -> stack.stackCallValue(name, t.range()));
            case "provider" -> {
                if (steps.size() < 3
                        || !(steps.get(1) instanceof Traverser.Attr type)
                        || !(steps.get(2) instanceof Traverser.Attr name)) {
                    yield invalid(
                            t,
                            "Invalid reference",
                            "A reference to a provider configuration must give its type and name, like "
                                    + "provider.aws.main.");
                }
                yield Result.of(new Resolved(stack.providerValue(type.name(), name.name(), t.range()), 3));
            }
            default ->
                invalid(
                        t,
                        "Reference to undeclared name",
                        "There is nothing named \"" + root + "\" in a stack configuration: references start with "
                                + "var, local, component, stack, provider or each.");
        };
    }

    private interface Lookup {
        Result<Value> value(String name);
    }

    private static Result<Resolved> named(Traversal t, String what, int steps, Lookup lookup) {
        if (t.steps().size() < 2 || !(t.steps().get(1) instanceof Traverser.Attr a)) {
            return invalid(
                    t,
                    "Invalid reference",
                    "A reference to "
                            + (what.startsWith("a") || what.startsWith("e") || what.startsWith("i") ? "an " : "a ")
                            + what + " must be followed by its name, like " + t.rootName() + ".NAME.");
        }
        Result<Value> v = lookup.value(a.name());
        return Result.of(new Resolved(v.value(), steps), v.diagnostics());
    }

    private static Result<Resolved> invalid(Traversal t, String summary, String detail) {
        return Result.of(
                new Resolved(Value.DYNAMIC_UNKNOWN, 1), Diagnostics.of(Diagnostic.error(summary, detail, t.range())));
    }

    @Override
    public FunctionTable functions() {
        return stack.run.functions;
    }
}
