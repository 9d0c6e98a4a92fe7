package dev.strata.cli.tftest;

import dev.strata.hcl.Expression;
import dev.strata.lang.eval.ExpressionValues;
import dev.strata.lang.eval.Scope;
import java.util.ArrayList;
import java.util.List;

/**
 * The values behind a failed or undecidable assertion, as {@code terraform test} lists them under the
 * condition's snippet ({@code var.x is "a"}): the same lines {@link ExpressionValues} gives every
 * failed condition, spliced into the rendered diagnostic where the test view prints them.
 */
final class AssertionValues {
    private AssertionValues() {}

    /** The lines, each "reference statement" ({@code var.x is "a"}), as the renderer words them. */
    static List<String> of(Expression condition, Scope scope) {
        java.util.Set<String> ephemeral = new java.util.HashSet<>();
        for (dev.strata.hcl.Traversal t : condition.variables()) {
            var r = new dev.strata.lang.eval.Evaluator(scope)
                    .evaluate(new dev.strata.hcl.syntax.Expr.ScopeTraversal(t, t.range()));
            if (!r.hasErrors() && r.value() != null && r.value().hasMarkDeep(dev.strata.lang.value.Mark.EPHEMERAL)) {
                ephemeral.add(t.toString());
            }
        }
        // An ephemeral value is never shown: Terraform says only that it is one.
        return ExpressionValues.of(condition, scope).stream()
                .map(v -> v.traversal() + " "
                        + (ephemeral.contains(v.traversal()) ? "has an ephemeral value" : v.statement()))
                .toList();
    }

    /**
     * {@code rendered} (one diagnostic as the renderer wrote it) with the comparison and value lines
     * inserted after its source snippet, where Terraform puts them; in the coloured form inside its frame.
     */
    static String splice(String rendered, List<String> comparison, List<String> values, boolean color) {
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
        for (String c : comparison) {
            insert.add(frame + "    │ " + c);
        }
        if (!comparison.isEmpty()) {
            // Terraform ends the comparison with an empty line, before the values if there are any.
            insert.add(frame.strip());
        }
        for (String v : values) {
            int space = v.indexOf(' ');
            String ref = color ? "\u001b[1m" + v.substring(0, space) + "\u001b[0m" : v.substring(0, space);
            // A value written over several lines keeps the frame on each.
            for (String line : (ref + v.substring(space)).split("\n", -1)) {
                insert.add(frame + "    │ " + line);
            }
        }
        lines.addAll(at, insert);
        return String.join("\n", lines);
    }
}
