package dev.strata.hcl.syntax;

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
        walk(e, Set.of(), out);
        return List.copyOf(out);
    }

    private static void walk(Expr e, Set<String> bound, List<Traversal> out) {
        switch (e) {
            case Expr.LiteralValue l -> { }
            case Expr.AnonSymbol a -> { }
            case Expr.ScopeTraversal s -> {
                if (!bound.contains(s.traversal().rootName())) {
                    out.add(s.traversal());
                }
            }
            case Expr.RelativeTraversal r -> walk(r.source(), bound, out);
            case Expr.FunctionCall f -> f.args().forEach(a -> walk(a, bound, out));
            case Expr.Conditional c -> {
                walk(c.condition(), bound, out);
                walk(c.trueResult(), bound, out);
                walk(c.falseResult(), bound, out);
            }
            case Expr.Binary b -> {
                walk(b.lhs(), bound, out);
                walk(b.rhs(), bound, out);
            }
            case Expr.Unary u -> walk(u.operand(), bound, out);
            case Expr.Template t -> t.parts().forEach(p -> walk(p, bound, out));
            case Expr.TemplateWrap w -> walk(w.wrapped(), bound, out);
            case Expr.TemplateJoin j -> walk(j.tuple(), bound, out);
            case Expr.TupleCons t -> t.elements().forEach(x -> walk(x, bound, out));
            case Expr.ObjectCons o -> o.items().forEach(i -> {
                walk(i.key(), bound, out);
                walk(i.value(), bound, out);
            });
            case Expr.ObjectKey k -> {
                // A bare identifier key is a literal name, not a reference.
                if (k.literalName().isEmpty()) {
                    walk(k.wrapped(), bound, out);
                }
            }
            case Expr.ForExpr f -> {
                walk(f.collection(), bound, out);
                Set<String> inner = new HashSet<>(bound);
                if (f.keyVar() != null) {
                    inner.add(f.keyVar());
                }
                inner.add(f.valVar());
                if (f.keyExpr() != null) {
                    walk(f.keyExpr(), inner, out);
                }
                walk(f.valueExpr(), inner, out);
                if (f.condition() != null) {
                    walk(f.condition(), inner, out);
                }
            }
            case Expr.Index i -> {
                walk(i.collection(), bound, out);
                walk(i.key(), bound, out);
            }
            case Expr.Splat s -> {
                walk(s.source(), bound, out);
                walk(s.each(), bound, out);
            }
            case Expr.Parentheses p -> walk(p.expr(), bound, out);
        }
    }
}
