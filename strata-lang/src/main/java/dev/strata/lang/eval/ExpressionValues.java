package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Traversal;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Quote;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The values behind a failed condition, for the lines Terraform prints under its snippet
 * ({@code var.env is "qa"}): every reference in the expression that evaluates, sorted and without
 * repeats. Sensitive, ephemeral and not-yet-known values are left out, as Terraform leaves them out of
 * diagnostics not caused by them; collections are described by their type and size, never listed.
 */
public final class ExpressionValues {
    private ExpressionValues() {}

    public static List<Diagnostic.ExpressionValue> of(Expression expression, Scope scope) {
        return collect(expression, scope, Unknowns.LEFT_OUT, false);
    }

    /**
     * As {@link #of(Expression, Scope)}, for a diagnostic that unknown values caused (a check whose result
     * waits for the apply): those are shown too, by their type ({@code is a string}), as Terraform does.
     */
    public static List<Diagnostic.ExpressionValue> ofUnknownCause(Expression expression, Scope scope) {
        return collect(expression, scope, Unknowns.SHOWN, false);
    }

    /**
     * As {@link #of(Expression, Scope)}, for a diagnostic that a sensitive value caused (a sensitive for_each):
     * such a value is named without showing it ({@code has a sensitive value}), as Terraform does.
     */
    public static List<Diagnostic.ExpressionValue> ofSensitiveCause(Expression expression, Scope scope) {
        return collect(expression, scope, Unknowns.SENSITIVE_NAMED, false);
    }

    /**
     * For a failed evaluation of {@code expression} (the evaluator's own diagnostics): a reference that fails
     * is shortened until it evaluates ({@code var.o.nope} shows {@code var.o}), a value not known yet is
     * described by its type, and ephemeral and untyped unknown values are left out, as are the symbols of for
     * expressions (they are not in the scope).
     */
    static List<Diagnostic.ExpressionValue> ofFailure(Expression expression, Scope scope) {
        return collect(expression, scope, Unknowns.BY_TYPE, true);
    }

    /** How values not known yet are described. */
    private enum Unknowns {
        /** Not at all. */
        LEFT_OUT,
        /** By their type, an untyped one as "will be known only after apply". */
        SHOWN,
        /** By their type; untyped and ephemeral ones not at all. */
        BY_TYPE,
        /** Not at all, while a sensitive value is named as having one. */
        SENSITIVE_NAMED
    }

    private static List<Diagnostic.ExpressionValue> collect(
            Expression expression, Scope scope, Unknowns unknowns, boolean shorten) {
        Map<String, String> found = new TreeMap<>();
        for (Traversal t : expression.variables()) {
            if (found.containsKey(t.toString())) {
                continue;
            }
            for (int n = t.steps().size(); n >= (shorten ? 1 : t.steps().size()); n--) {
                Traversal prefix =
                        n == t.steps().size() ? t : new Traversal(t.steps().subList(0, n));
                Value v = Evaluator.quietly(scope, prefix);
                if (v == null) {
                    continue;
                }
                String statement = describe(v, unknowns);
                if (statement != null) {
                    found.putIfAbsent(prefix.toString(), statement);
                }
                break;
            }
        }
        List<Diagnostic.ExpressionValue> out = new ArrayList<>();
        found.forEach((k, v) -> out.add(new Diagnostic.ExpressionValue(k, v)));
        return out;
    }

    private static String describe(Value v, Unknowns unknowns) {
        boolean sensitive = v.hasMarkDeep(Mark.SENSITIVE);
        if (sensitive && unknowns == Unknowns.SENSITIVE_NAMED) {
            return "has a sensitive value";
        }
        if (v.isKnown()
                || sensitive
                || unknowns == Unknowns.LEFT_OUT
                || unknowns == Unknowns.SENSITIVE_NAMED
                || (unknowns == Unknowns.BY_TYPE && v.hasMarkDeep(Mark.EPHEMERAL))) {
            return statement(v);
        }
        if (v.type() == Type.DYNAMIC) {
            return unknowns == Unknowns.SHOWN ? "will be known only after apply" : null;
        }
        return "is a " + v.type().friendlyName();
    }

    /** What the line says about {@code v}; null when it must not be shown. */
    static String statement(Value v) {
        if (v.hasMarkDeep(Mark.SENSITIVE) || v.hasMarkDeep(Mark.EPHEMERAL) || !v.isKnown()) {
            return null;
        }
        if (v.isNull()) {
            return "is null";
        }
        Type t = v.type();
        return switch (t) {
            case ListType l -> sized("list of " + l.elem().friendlyName(), v.length(), "element");
            case SetType s -> sized("set of " + s.elem().friendlyName(), v.length(), "element");
            case MapType m -> sized("map of " + m.elem().friendlyName(), v.length(), "element");
            case TupleType tt -> sized("tuple", v.length(), "element");
            case ObjectType o ->
                v.attributes().isEmpty()
                        ? "is object with no attributes"
                        : "is object with " + count(v.attributes().size(), "attribute");
            default -> "is " + primitive(v);
        };
    }

    private static String sized(String kind, int n, String noun) {
        return n == 0 ? "is empty " + kind : "is " + kind + " with " + count(n, noun);
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String primitive(Value v) {
        if (v.type() == Type.STRING) {
            return Quote.quote(v.asString());
        }
        if (v.type() == Type.NUMBER) {
            return v.numberText();
        }
        return String.valueOf(v.asBool());
    }
}
