package dev.strata.cli.tftest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.syntax.Expr;
import dev.strata.lang.eval.Evaluator;
import dev.strata.lang.eval.Scope;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code terraform test} (1.12 and later) shows under a failed assertion whose condition is a
 * comparison ({@code a == b}, {@code a < b}, ...): both sides written as indented JSON ("LHS:", "RHS:", with {@code -verbose}
 * only), a warning when their types differ although they may look alike, and a line diff of the two
 * from the left side ("actual") to the right ("expected"). Sensitive and ephemeral parts are written
 * as {@code "(sensitive value)"} and {@code "(ephemeral value)"}, never their values.
 */
final class AssertionComparison {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The operators whose two sides are compared; the logical ones ({@code &&}, {@code ||}) are not. */
    private static final java.util.Set<Expr.BinaryOp> COMPARISONS = java.util.EnumSet.of(
            Expr.BinaryOp.EQUAL,
            Expr.BinaryOp.NOT_EQUAL,
            Expr.BinaryOp.LESS_THAN,
            Expr.BinaryOp.LESS_THAN_OR_EQUAL,
            Expr.BinaryOp.GREATER_THAN,
            Expr.BinaryOp.GREATER_THAN_OR_EQUAL);

    private AssertionComparison() {}

    /**
     * What the human output shows under a failed comparison's snippet: the comparison's lines, then
     * the reference lines that go with it (only with {@code -verbose}).
     */
    record Shown(List<String> lines, List<String> references) {
        Shown {
            lines = List.copyOf(lines);
            references = List.copyOf(references);
        }
    }

    /** The lines to show under the snippet (without the frame); empty when the condition is no comparison. */
    static List<String> of(Expression condition, Scope scope, boolean verbose) {
        Result<Expr> syntax = condition.syntax();
        if (syntax.hasErrors() || syntax.value() == null) {
            return List.of();
        }
        Expr e = syntax.value();
        while (e instanceof Expr.Parentheses p) {
            e = p.expr();
        }
        if (!(e instanceof Expr.Binary b) || !COMPARISONS.contains(b.op())) {
            return List.of();
        }
        Result<Value> lhs = new Evaluator(scope).evaluate(b.lhs());
        Result<Value> rhs = new Evaluator(scope).evaluate(b.rhs());
        if (lhs.hasErrors() || rhs.hasErrors() || lhs.value() == null || rhs.value() == null) {
            return List.of();
        }
        List<String> actual = render(lhs.value());
        List<String> expected = render(rhs.value());
        List<String> out = new ArrayList<>();
        if (verbose) {
            out.add("LHS:");
            actual.forEach(l -> out.add("  " + l));
            out.add("RHS:");
            expected.forEach(l -> out.add("  " + l));
        }
        if (!lhs.value().type().equals(rhs.value().type())) {
            out.add("Warning: LHS and RHS values are of different types");
        }
        if (!actual.equals(expected)) {
            out.add("Diff:");
            out.add("--- actual");
            out.add("+++ expected");
            out.addAll(diff(actual, expected));
        }
        return out;
    }

    /**
     * The condition's references with their whole values, as {@code -verbose} lists them beside a
     * comparison ({@code var.x is {} and the JSON's further lines indented), sorted, each once.
     */
    static List<String> references(Expression condition, Scope scope) {
        java.util.SortedMap<String, String> found = new java.util.TreeMap<>();
        for (dev.strata.hcl.Traversal t : condition.variables()) {
            String name = t.toString();
            if (found.containsKey(name)) {
                continue;
            }
            Result<Value> r = new Evaluator(scope).evaluate(new Expr.ScopeTraversal(t, t.range()));
            if (r.hasErrors() || r.value() == null) {
                continue;
            }
            found.put(name, "is " + String.join("\n  ", render(r.value())));
        }
        List<String> out = new ArrayList<>();
        found.forEach((k, v) -> out.add(k + " " + v));
        return out;
    }

    /** {@code v} as indented JSON lines, object keys sorted. */
    static List<String> render(Value v) {
        StringBuilder sb = new StringBuilder();
        write(sb, v, "");
        return List.of(sb.toString().split("\n", -1));
    }

    private static void write(StringBuilder sb, Value v, String indent) {
        if (v.hasMark(Mark.SENSITIVE)) {
            sb.append(quote("(sensitive value)"));
            return;
        }
        if (v.hasMark(Mark.EPHEMERAL)) {
            sb.append(quote("(ephemeral value)"));
            return;
        }
        if (!v.isKnown()) {
            sb.append(quote("(known after apply)"));
            return;
        }
        if (v.isNull()) {
            sb.append("null");
            return;
        }
        Type t = v.type();
        switch (t) {
            case ObjectType o -> entries(sb, v.attributes(), indent);
            case MapType m -> entries(sb, v.attributes(), indent);
            case ListType l -> elements(sb, v.elements(), indent);
            case SetType s -> elements(sb, v.elements(), indent);
            case TupleType tt -> elements(sb, v.elements(), indent);
            default -> {
                if (t == Type.STRING) {
                    sb.append(quote(v.asString()));
                } else if (t == Type.NUMBER) {
                    sb.append(v.numberText());
                } else {
                    sb.append(v.asBool());
                }
            }
        }
    }

    private static void entries(StringBuilder sb, Map<String, Value> entries, String indent) {
        if (entries.isEmpty()) {
            sb.append("{}");
            return;
        }
        sb.append("{\n");
        int i = 0;
        for (var e : new java.util.TreeMap<>(entries).entrySet()) {
            sb.append(indent).append("  ").append(quote(e.getKey())).append(": ");
            write(sb, e.getValue(), indent + "  ");
            sb.append(++i < entries.size() ? ",\n" : "\n");
        }
        sb.append(indent).append('}');
    }

    private static void elements(StringBuilder sb, List<Value> elements, String indent) {
        if (elements.isEmpty()) {
            sb.append("[]");
            return;
        }
        sb.append("[\n");
        for (int i = 0; i < elements.size(); i++) {
            sb.append(indent).append("  ");
            write(sb, elements.get(i), indent + "  ");
            sb.append(i + 1 < elements.size() ? ",\n" : "\n");
        }
        sb.append(indent).append(']');
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A line diff over a longest common subsequence: common lines with two spaces, the left's with
     * "- ", the right's with "+ "; between two common lines the removed ones come first.
     */
    static List<String> diff(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<String> out = new ArrayList<>();
        List<String> added = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.get(i).equals(b.get(j))) {
                out.addAll(added);
                added.clear();
                out.add("  " + a.get(i));
                i++;
                j++;
            } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
                added.add("+ " + b.get(j));
                j++;
            } else {
                out.add("- " + a.get(i));
                i++;
            }
        }
        out.addAll(added);
        return out;
    }
}
