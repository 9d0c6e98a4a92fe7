package dev.strata.stacks.runtime;

import dev.strata.addr.InstanceKey;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.value.Value;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The instances a {@code for_each} (on a component, provider or embedded stack) asks for: each key with
 * its {@code each.value}; {@link #unknown()} when the keys are not known yet (the object is deferred).
 * Without {@code for_each} there is one instance with no key.
 */
record Expansion(SortedMap<InstanceKey, Value> instances, boolean known, boolean keyed) {
    static final Expansion SINGLE = new Expansion(new TreeMap<>(Map.of(InstanceKey.NONE, Value.NULL)), true, false);
    static final Expansion UNKNOWN = new Expansion(new TreeMap<>(), false, true);

    Expansion {
        instances = Collections.unmodifiableSortedMap(new TreeMap<>(instances));
    }

    static Expansion unknown() {
        return UNKNOWN;
    }

    /** Evaluates a {@code for_each} (null: a single instance) in {@code scope}. */
    static Result<Expansion> of(Expression forEach, Scope scope) {
        if (forEach == null) {
            return Result.of(SINGLE);
        }
        Result<Value> r = new Evaluator(scope).evaluate(forEach);
        if (r.hasErrors()) {
            return Result.of(UNKNOWN, r.diagnostics());
        }
        Value v = r.value();
        if (!v.isKnown()) {
            return Result.of(UNKNOWN, r.diagnostics());
        }
        if (v.isNull()) {
            return invalid(
                    forEach, "The given \"for_each\" argument value is null. A map, or set of strings is allowed.");
        }
        SortedMap<InstanceKey, Value> out = new TreeMap<>();
        if (v.type() instanceof MapType || v.type() instanceof ObjectType) {
            v.attributes().forEach((k, each) -> out.put(InstanceKey.of(k), each));
        } else if (v.type() instanceof SetType) {
            for (Value e : v.elements()) {
                if (!e.isKnown()) {
                    return Result.of(UNKNOWN, r.diagnostics());
                }
                if (e.isNull() || !e.type().equals(dev.strata.lang.types.Type.STRING)) {
                    return invalid(
                            forEach,
                            "The given \"for_each\" argument value is unsuitable: \"for_each\" supports maps and sets"
                                    + " of strings, but you have provided a set containing type "
                                    + e.type().friendlyName() + ".");
                }
                out.put(InstanceKey.of(e.asString()), e);
            }
        } else {
            return invalid(
                    forEach,
                    "The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or"
                            + " set of strings, and you have provided a value of type "
                            + v.type().friendlyName()
                            + ".");
        }
        return Result.of(new Expansion(out, true, true), r.diagnostics());
    }

    private static Result<Expansion> invalid(Expression at, String detail) {
        return Result.of(
                UNKNOWN,
                Diagnostics.of(dev.strata.hcl.Diagnostic.error("Invalid for_each argument", detail, at.range())));
    }
}
