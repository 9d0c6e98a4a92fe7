package dev.strata.cli.tftest;

import dev.strata.hcl.Expression;
import dev.strata.hcl.Traversal;
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
import dev.strata.lang.value.Quote;
import dev.strata.lang.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The values behind a failed or undecidable assertion, as {@code terraform test} lists them under the
 * condition's snippet ({@code var.x is "a"}): each reference of the condition that evaluates, in
 * name order, without repeats. Sensitive and unknown values are left out, as Terraform leaves them
 * out; collections are described by their type and size, never listed.
 */
final class AssertionValues {
    private AssertionValues() {}

    /** The lines, each "reference statement" ({@code var.x is "a"}). */
    static List<String> of(Expression condition, Scope scope) {
        Map<String, String> found = new TreeMap<>();
        for (Traversal t : condition.variables()) {
            String name = t.toString();
            if (found.containsKey(name)) {
                continue;
            }
            var r = new Evaluator(scope).evaluate(new Expr.ScopeTraversal(t, t.range()));
            if (r.hasErrors() || r.value() == null) {
                continue;
            }
            String statement = statement(r.value());
            if (statement != null) {
                found.put(name, statement);
            }
        }
        List<String> out = new ArrayList<>();
        found.forEach((k, v) -> out.add(k + " " + v));
        return out;
    }

    /** What the line says about {@code v}; null when it must not be shown. */
    static String statement(Value v) {
        if (v.hasMarkDeep(Mark.SENSITIVE) || !v.isKnown()) {
            return null;
        }
        if (v.isNull()) {
            return "is null";
        }
        return switch (v.type()) {
            case ListType l -> sized("list of " + l.elem().friendlyName(), v.length());
            case SetType s -> sized("set of " + s.elem().friendlyName(), v.length());
            case MapType m -> sized("map of " + m.elem().friendlyName(), v.length());
            case TupleType t -> sized("tuple", v.length());
            case ObjectType o ->
                o.attrs().isEmpty()
                        ? "is object with no attributes"
                        : "is object with " + count(o.attrs().size(), "attribute");
            default -> "is " + primitive(v);
        };
    }

    private static String sized(String kind, int n) {
        return n == 0 ? "is empty " + kind : "is " + kind + " with " + count(n, "element");
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String primitive(Value v) {
        Type t = v.type();
        if (t == Type.STRING) {
            return Quote.quote(v.asString());
        }
        if (t == Type.NUMBER) {
            return v.numberText();
        }
        return String.valueOf(v.asBool());
    }

    /**
     * {@code rendered} (one diagnostic as the renderer wrote it) with the value lines inserted after
     * its source snippet, where Terraform puts them; in the coloured form inside its frame.
     */
    static String splice(String rendered, List<String> values, boolean color) {
        List<String> lines = new ArrayList<>(List.of(rendered.split("\n", -1)));
        String frame = color ? "│ " : "";
        int on = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(frame + "  on ")) {
                on = i;
                break;
            }
        }
        if (on < 0) {
            return rendered;
        }
        int at = on + 1;
        while (at < lines.size()
                && !lines.get(at).equals(frame)
                && !lines.get(at).equals(frame.strip())
                && !lines.get(at).startsWith("╵")) {
            at++;
        }
        List<String> insert = new ArrayList<>();
        insert.add(frame + "    ├────────────────");
        for (String v : values) {
            int space = v.indexOf(' ');
            String ref = color ? "\u001b[1m" + v.substring(0, space) + "\u001b[0m" : v.substring(0, space);
            insert.add(frame + "    │ " + ref + v.substring(space));
        }
        lines.addAll(at, insert);
        return String.join("\n", lines);
    }
}
