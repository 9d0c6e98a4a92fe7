package dev.strata.stacks.runtime;

import dev.strata.addr.InstanceKey;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.funcs.FunctionTable;
import dev.strata.lang.value.Value;
import dev.strata.stacks.config.ComponentConfig;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Whether a component instance reads a deferred component instance, so that it must be deferred too.
 * Deferral is per instance: of a component whose {@code for_each} is known, the instances that were not
 * deferred are planned as usual, and a dependent instance is deferred only when what it is given (its
 * inputs and provider configurations) is computed from a deferred one. That is found by evaluating
 * those expressions again with one deferred instance's outputs at a time replaced by a known
 * placeholder: a value that does not change (and still evaluates) did not read that instance.
 * A reference that reaches a deferred component any other way (through a local value, a provider
 * block, {@code for_each} or {@code depends_on}) defers the instance, as it cannot be told apart.
 */
final class DeferredReads {
    /** What a deferred instance's outputs are in the second evaluation: known, unlike its real value. */
    private static final Value PLACEHOLDER = Value.EMPTY_OBJECT;

    private DeferredReads() {}

    /**
     * The deferred component instance (or whole component, when its {@code for_each} is unknown) that
     * {@code given} reads, or null when it reads none.
     *
     * @param deferred deferred instance addresses of the components this instance depends on, by
     *                 component name; a whole deferred component maps to its own address
     * @param direct   the components {@code given} refers to only directly (not through other objects)
     */
    static String readBy(
            StackInstanceRun s,
            SortedMap<String, Set<String>> deferred,
            Set<String> direct,
            List<Expression> given,
            Scope scope) {
        for (Map.Entry<String, Set<String>> e : deferred.entrySet()) {
            if (!direct.contains(e.getKey())) {
                return e.getValue().iterator().next();
            }
        }
        // One deferred instance at a time, so that the reason names the one actually read.
        for (Map.Entry<String, Set<String>> e : deferred.entrySet()) {
            for (String instance : e.getValue()) {
                Scope probe = new Probe(scope, s, e.getKey(), instance);
                for (Expression x : given) {
                    if (x != null && changes(x, scope, probe)) {
                        return instance;
                    }
                }
            }
        }
        return null;
    }

    private static boolean changes(Expression x, Scope scope, Scope probe) {
        Result<Value> real = new Evaluator(scope).evaluate(x);
        Result<Value> probed = new Evaluator(probe).evaluate(x);
        return real.hasErrors() || probed.hasErrors() || !real.value().equals(probed.value());
    }

    /**
     * {@code component.NAME} with one deferred instance's outputs ({@code gone}, or the whole component
     * when {@code gone} is its own address) replaced by the placeholder.
     */
    private record Probe(Scope outer, StackInstanceRun s, String name, String gone) implements Scope {
        @Override
        public Result<Resolved> resolve(Traversal t) {
            if ("component".equals(t.rootName())
                    && t.steps().size() >= 2
                    && t.steps().get(1) instanceof Traverser.Attr a
                    && a.name().equals(name)) {
                return Result.of(new Resolved(replaced(), 2));
            }
            return outer.resolve(t);
        }

        private Value replaced() {
            ComponentConfig c = s.config.components().get(name);
            Expansion e = s.componentExpansion(c);
            if (!e.known() || !e.keyed()) {
                return PLACEHOLDER;
            }
            SortedMap<String, Value> byKey = new TreeMap<>();
            Value real = s.componentValue(name, null).value();
            e.instances().forEach((k, each) -> {
                String key = ((InstanceKey.StringKey) k).key();
                byKey.put(
                        key,
                        gone.equals(s.instanceAddr(c, k).toString())
                                ? PLACEHOLDER
                                : real.attributes().get(key));
            });
            return Value.object(byKey);
        }

        @Override
        public FunctionTable functions() {
            return outer.functions();
        }
    }
}
