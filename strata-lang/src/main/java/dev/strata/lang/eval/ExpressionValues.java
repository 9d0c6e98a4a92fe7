package dev.strata.lang.eval;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.syntax.Expr;
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
        return of(expression, scope, false);
    }

    /**
     * As {@link #of(Expression, Scope)}, for a diagnostic that unknown values caused (a check whose result
     * waits for the apply): those are shown too, by their type ({@code is a string}), as Terraform does.
     */
    public static List<Diagnostic.ExpressionValue> ofUnknownCause(Expression expression, Scope scope) {
        return of(expression, scope, true);
    }

    private static List<Diagnostic.ExpressionValue> of(Expression expression, Scope scope, boolean unknowns) {
        Map<String, String> found = new TreeMap<>();
        for (Traversal t : expression.variables()) {
            String name = t.toString();
            if (found.containsKey(name)) {
                continue;
            }
            var r = new Evaluator(scope).evaluate(new Expr.ScopeTraversal(t, t.range()));
            if (r.hasErrors() || r.value() == null) {
                continue;
            }
            String statement = unknowns && !r.value().isKnown() && !r.value().hasMarkDeep(Mark.SENSITIVE)
                    ? (r.value().type() == Type.DYNAMIC
                            ? "will be known only after apply"
                            : "is a " + r.value().type().friendlyName())
                    : statement(r.value());
            if (statement != null) {
                found.put(name, statement);
            }
        }
        List<Diagnostic.ExpressionValue> out = new ArrayList<>();
        found.forEach((k, v) -> out.add(new Diagnostic.ExpressionValue(k, v)));
        return out;
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
