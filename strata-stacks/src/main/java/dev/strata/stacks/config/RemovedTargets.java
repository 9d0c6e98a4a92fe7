package dev.strata.stacks.config;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.json.JsonExpression;
import dev.strata.hcl.syntax.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code removed} block's {@code from}: {@code component.NAME}, {@code stack.NAME}, either
 * with an instance key ({@code [each.key]}, which may be dynamic), nested under embedded stacks
 * ({@code stack.a["x"].component.b}).
 */
final class RemovedTargets {
    private RemovedTargets() {}

    /** A step of the flattened expression: a name, or an index with its key expression. */
    private record Part(String name, Expression key, SourceRange range) {}

    static RemovedTarget parse(Expression e, Diagnostics.Builder diags) {
        Result<Expr> tree = e instanceof JsonExpression j ? j.asNativeExpression() : e.syntax();
        if (tree.hasErrors()) {
            diags.addAll(tree.diagnostics());
            return null;
        }
        List<Part> parts = new ArrayList<>();
        if (!flatten(tree.value(), parts)) {
            return invalid(e, diags);
        }
        List<RemovedTarget.Step> stacks = new ArrayList<>();
        int i = 0;
        while (i < parts.size()) {
            Part kind = parts.get(i);
            if (kind.name() == null || i + 1 >= parts.size() || parts.get(i + 1).name() == null) {
                return invalid(e, diags);
            }
            String name = parts.get(i + 1).name();
            Expression key = null;
            int next = i + 2;
            if (next < parts.size() && parts.get(next).name() == null) {
                key = parts.get(next).key();
                next++;
            }
            switch (kind.name()) {
                case "stack" -> stacks.add(new RemovedTarget.Step(name, key));
                case "component" -> {
                    if (next != parts.size()) {
                        return invalid(e, diags);
                    }
                    return new RemovedTarget(stacks, name, key, e.range());
                }
                default -> {
                    return invalid(e, diags);
                }
            }
            i = next;
        }
        if (stacks.isEmpty()) {
            return invalid(e, diags);
        }
        return new RemovedTarget(stacks, null, null, e.range());
    }

    private static boolean flatten(Expr e, List<Part> out) {
        switch (e) {
            case Expr.ScopeTraversal s -> {
                return steps(s.traversal().steps(), out);
            }
            case Expr.RelativeTraversal r -> {
                return flatten(r.source(), out) && steps(r.steps(), out);
            }
            case Expr.Index x -> {
                if (!flatten(x.collection(), out)) {
                    return false;
                }
                out.add(new Part(null, x.key(), x.bracketRange()));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static boolean steps(List<Traverser> steps, List<Part> out) {
        for (Traverser t : steps) {
            switch (t) {
                case Traverser.Root r -> out.add(new Part(r.name(), null, r.range()));
                case Traverser.Attr a -> out.add(new Part(a.name(), null, a.range()));
                case Traverser.Index x -> out.add(new Part(null, new Expr.LiteralValue(x.key(), x.range()), x.range()));
                case Traverser.Splat s -> {
                    return false;
                }
            }
        }
        return true;
    }

    private static RemovedTarget invalid(Expression e, Diagnostics.Builder diags) {
        diags.error(
                "Invalid removed block target",
                "The from argument must refer to a component or an embedded stack, optionally with an "
                        + "instance key and within embedded stacks, such as component.web, "
                        + "component.web[each.key] or stack.network[\"east\"].component.vpc.",
                e.range());
        return null;
    }
}
