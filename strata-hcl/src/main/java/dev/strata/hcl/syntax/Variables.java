package dev.strata.hcl.syntax;

import dev.strata.hcl.Nesting;
import dev.strata.hcl.Traversal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the traversals an expression references, in source order, skipping names that a
 * for expression binds within its own scope.
 */
final class Variables {
    private Variables() {}

    static List<Traversal> of(Expr e) {
        List<Traversal> out = new ArrayList<>();
        walk(e, Set.of(), out, 0);
        return List.copyOf(out);
    }

    private static void walk(Expr e, Set<String> bound, List<Traversal> out, int depth) {
        if (depth == Nesting.HANDOFF_DEPTH) {
            // Deeply nested expressions continue on a stack that holds them (see Nesting).
            Nesting.onDeepStack(() -> {
                step(e, bound, out, depth);
                return null;
            });
        } else {
            step(e, bound, out, depth);
        }
    }

    private static void step(Expr e, Set<String> bound, List<Traversal> out, int depth) {
        switch (e) {
            case Expr.LiteralValue l -> {}
            case Expr.AnonSymbol a -> {}
            case Expr.ScopeTraversal s -> {
                if (!bound.contains(s.traversal().rootName())) {
                    out.add(s.traversal());
                }
            }
            case Expr.RelativeTraversal r -> walk(r.source(), bound, out, depth + 1);
            case Expr.FunctionCall f -> f.args().forEach(a -> walk(a, bound, out, depth + 1));
            case Expr.Conditional c -> {
                walk(c.condition(), bound, out, depth + 1);
                walk(c.trueResult(), bound, out, depth + 1);
                walk(c.falseResult(), bound, out, depth + 1);
            }
            case Expr.Binary b -> {
                walk(b.lhs(), bound, out, depth + 1);
                walk(b.rhs(), bound, out, depth + 1);
            }
            case Expr.Unary u -> walk(u.operand(), bound, out, depth + 1);
            case Expr.Template t -> t.parts().forEach(p -> walk(p, bound, out, depth + 1));
            case Expr.TemplateWrap w -> walk(w.wrapped(), bound, out, depth + 1);
            case Expr.TemplateJoin j -> walk(j.tuple(), bound, out, depth + 1);
            case Expr.TupleCons t -> t.elements().forEach(x -> walk(x, bound, out, depth + 1));
            case Expr.ObjectCons o ->
                o.items().forEach(i -> {
                    walk(i.key(), bound, out, depth + 1);
                    walk(i.value(), bound, out, depth + 1);
                });
            case Expr.ObjectKey k -> {
                // A bare identifier key is a literal name, not a reference.
                if (k.literalName().isEmpty()) {
                    walk(k.wrapped(), bound, out, depth + 1);
                }
            }
            case Expr.ForExpr f -> {
                walk(f.collection(), bound, out, depth + 1);
                Set<String> inner = new HashSet<>(bound);
                if (f.keyVar() != null) {
                    inner.add(f.keyVar());
                }
                inner.add(f.valVar());
                if (f.keyExpr() != null) {
                    walk(f.keyExpr(), inner, out, depth + 1);
                }
                walk(f.valueExpr(), inner, out, depth + 1);
                if (f.condition() != null) {
                    walk(f.condition(), inner, out, depth + 1);
                }
            }
            case Expr.Index i -> {
                walk(i.collection(), bound, out, depth + 1);
                walk(i.key(), bound, out, depth + 1);
            }
            case Expr.Splat s -> {
                walk(s.source(), bound, out, depth + 1);
                walk(s.each(), bound, out, depth + 1);
            }
            case Expr.Parentheses p -> walk(p.expr(), bound, out, depth + 1);
        }
    }
}
