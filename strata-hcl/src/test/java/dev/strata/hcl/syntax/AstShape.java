package dev.strata.hcl.syntax;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Body;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Traverser;
import java.util.stream.Collectors;

/** A range-free rendering of a tree, for comparing trees by structure (parentheses ignored). */
final class AstShape {
    private AstShape() {}

    static String of(Body body) {
        SyntaxBody b = (SyntaxBody) body;
        StringBuilder sb = new StringBuilder("(body");
        for (Attribute a : b.attributes()) {
            sb.append(" (attr ")
                    .append(a.name())
                    .append(' ')
                    .append(of((Expr) a.expr()))
                    .append(')');
        }
        for (Block blk : b.blocks()) {
            sb.append(" (block ")
                    .append(blk.type())
                    .append(' ')
                    .append(blk.labels())
                    .append(' ')
                    .append(of(blk.body()))
                    .append(')');
        }
        return sb.append(')').toString();
    }

    static String of(Expr e) {
        return switch (e) {
            case Expr.LiteralValue l -> lit(l.value());
            case Expr.ScopeTraversal s -> "(trav " + steps(s.traversal().steps()) + ")";
            case Expr.RelativeTraversal r -> "(rel " + of(r.source()) + " " + steps(r.steps()) + ")";
            case Expr.FunctionCall f ->
                "(call " + f.name() + " " + f.expandFinal() + " "
                        + f.args().stream().map(AstShape::of).collect(Collectors.joining(" ")) + ")";
            case Expr.Conditional c ->
                "(cond " + of(c.condition()) + " " + of(c.trueResult()) + " " + of(c.falseResult()) + ")";
            case Expr.Binary b -> "(" + b.op() + " " + of(b.lhs()) + " " + of(b.rhs()) + ")";
            case Expr.Unary u -> "(" + u.op() + " " + of(u.operand()) + ")";
            case Expr.Template t ->
                "(tmpl " + t.parts().stream().map(AstShape::of).collect(Collectors.joining(" ")) + ")";
            case Expr.TemplateWrap w -> "(wrap " + of(w.wrapped()) + ")";
            case Expr.TemplateJoin j -> "(join " + of(j.tuple()) + ")";
            case Expr.TupleCons t ->
                "(tuple " + t.elements().stream().map(AstShape::of).collect(Collectors.joining(" ")) + ")";
            case Expr.ObjectCons o ->
                "(object "
                        + o.items().stream()
                                .map(i -> of(i.key()) + "=" + of(i.value()))
                                .collect(Collectors.joining(" "))
                        + ")";
            case Expr.ObjectKey k -> "(key " + k.forceNonLiteral() + " " + of(k.wrapped()) + ")";
            case Expr.ForExpr f ->
                "(for " + f.keyVar() + " " + f.valVar() + " " + of(f.collection()) + " "
                        + (f.keyExpr() == null ? "-" : of(f.keyExpr())) + " " + of(f.valueExpr()) + " "
                        + (f.condition() == null ? "-" : of(f.condition())) + " " + f.group() + ")";
            case Expr.Index i -> "(index " + of(i.collection()) + " " + of(i.key()) + ")";
            case Expr.Splat s -> "(splat " + of(s.source()) + " " + of(s.each()) + ")";
            case Expr.AnonSymbol a -> "(item)";
            case Expr.Parentheses p -> of(p.expr());
        };
    }

    private static String steps(java.util.List<Traverser> steps) {
        StringBuilder sb = new StringBuilder();
        for (Traverser t : steps) {
            switch (t) {
                case Traverser.Root r -> sb.append(r.name());
                case Traverser.Attr a -> sb.append('.').append(a.name());
                case Traverser.Index i -> sb.append('[').append(lit(i.key())).append(']');
                case Traverser.Splat s -> sb.append("[*]");
            }
        }
        return sb.toString();
    }

    private static String lit(Literal l) {
        return switch (l) {
            case Literal.NumberLit n -> "n:" + n.value().stripTrailingZeros().toPlainString();
            case Literal.StringLit s -> "s:" + s.value();
            case Literal.BoolLit b -> "b:" + b.value();
            case Literal.NullLit n -> "null";
        };
    }
}
