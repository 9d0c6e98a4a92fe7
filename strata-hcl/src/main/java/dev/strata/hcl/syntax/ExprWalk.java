package dev.strata.hcl.syntax;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/** Visits every node of an expression tree, for checks that look for something anywhere in it. */
public final class ExprWalk {
    private ExprWalk() {}

    /** Visits {@code root} and every node below it, depth first, in source order. */
    public static void forEach(Expr root, Consumer<Expr> visit) {
        Deque<Expr> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            Expr e = todo.pop();
            visit.accept(e);
            List<Expr> kids = children(e);
            for (int i = kids.size() - 1; i >= 0; i--) {
                todo.push(kids.get(i));
            }
        }
    }

    /** The direct sub-expressions of a node, in source order. */
    public static List<Expr> children(Expr e) {
        List<Expr> out = new java.util.ArrayList<>();
        switch (e) {
            case Expr.LiteralValue l -> {}
            case Expr.ScopeTraversal s -> {}
            case Expr.AnonSymbol a -> {}
            case Expr.RelativeTraversal r -> out.add(r.source());
            case Expr.FunctionCall f -> out.addAll(f.args());
            case Expr.Conditional c -> out.addAll(List.of(c.condition(), c.trueResult(), c.falseResult()));
            case Expr.Binary b -> out.addAll(List.of(b.lhs(), b.rhs()));
            case Expr.Unary u -> out.add(u.operand());
            case Expr.Template t -> out.addAll(t.parts());
            case Expr.TemplateWrap w -> out.add(w.wrapped());
            case Expr.TemplateJoin j -> out.add(j.tuple());
            case Expr.TupleCons t -> out.addAll(t.elements());
            case Expr.ObjectCons o ->
                o.items().forEach(i -> {
                    out.add(i.key());
                    out.add(i.value());
                });
            case Expr.ObjectKey k -> out.add(k.wrapped());
            case Expr.ForExpr f -> {
                out.add(f.collection());
                if (f.keyExpr() != null) {
                    out.add(f.keyExpr());
                }
                out.add(f.valueExpr());
                if (f.condition() != null) {
                    out.add(f.condition());
                }
            }
            case Expr.Index i -> out.addAll(List.of(i.collection(), i.key()));
            case Expr.Splat s -> out.addAll(List.of(s.source(), s.each()));
            case Expr.Parentheses p -> out.add(p.expr());
        }
        return out;
    }
}
