package dev.strata.hcl.syntax;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Body;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Traverser;
import java.math.BigDecimal;

/**
 * Prints a syntax tree back as native-syntax source that parses to the same tree (up to
 * parentheses, which it adds around every compound operand so that precedence never matters). The
 * output is correct rather than pretty: run it through the formatter for canonical layout. Test code: the
 * round-trip properties print generated trees with it.
 */
final class SourcePrinter {
    private final StringBuilder sb = new StringBuilder();

    private SourcePrinter() {}

    static String print(Expr e) {
        SourcePrinter p = new SourcePrinter();
        p.expr(e);
        return p.sb.toString();
    }

    static String print(Body body) {
        SourcePrinter p = new SourcePrinter();
        p.body(body, 0);
        return p.sb.toString();
    }

    private void body(Body body, int indent) {
        SyntaxBody b = (SyntaxBody) body;
        for (Attribute a : b.attributes()) {
            sb.append("  ".repeat(indent)).append(a.name()).append(" = ");
            expr((Expr) a.expr());
            sb.append('\n');
        }
        for (Block blk : b.blocks()) {
            sb.append("  ".repeat(indent)).append(blk.type());
            for (String label : blk.labels()) {
                sb.append(' ');
                quoted(label);
            }
            sb.append(" {\n");
            body(blk.body(), indent + 1);
            sb.append("  ".repeat(indent)).append("}\n");
        }
    }

    private void expr(Expr e) {
        switch (e) {
            case Expr.LiteralValue l -> literal(l.value());
            case Expr.ScopeTraversal s -> {
                for (Traverser t : s.traversal().steps()) {
                    step(t);
                }
            }
            case Expr.RelativeTraversal r -> {
                operand(r.source());
                r.steps().forEach(this::step);
            }
            case Expr.FunctionCall f -> {
                sb.append(f.name()).append('(');
                for (int i = 0; i < f.args().size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    expr(f.args().get(i));
                }
                sb.append(f.expandFinal() ? "...)" : ")");
            }
            case Expr.Conditional c -> {
                operand(c.condition());
                sb.append(" ? ");
                operand(c.trueResult());
                sb.append(" : ");
                operand(c.falseResult());
            }
            case Expr.Binary b -> {
                operand(b.lhs());
                sb.append(' ').append(b.op().symbol()).append(' ');
                operand(b.rhs());
            }
            case Expr.Unary u -> {
                sb.append(u.op().symbol());
                operand(u.operand());
            }
            case Expr.Template t -> {
                sb.append('"');
                templateParts(t);
                sb.append('"');
            }
            case Expr.TemplateWrap w -> {
                sb.append("\"${");
                expr(w.wrapped());
                sb.append("}\"");
            }
            case Expr.TemplateJoin j -> {
                sb.append('"');
                templatePart(j, false);
                sb.append('"');
            }
            case Expr.TupleCons t -> {
                sb.append('[');
                for (int i = 0; i < t.elements().size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    expr(t.elements().get(i));
                }
                sb.append(']');
            }
            case Expr.ObjectCons o -> {
                sb.append('{');
                for (int i = 0; i < o.items().size(); i++) {
                    sb.append(i > 0 ? ", " : "");
                    expr(o.items().get(i).key());
                    sb.append(" = ");
                    expr(o.items().get(i).value());
                }
                sb.append('}');
            }
            case Expr.ObjectKey k -> {
                if (k.forceNonLiteral() && !(k.wrapped() instanceof Expr.Parentheses)) {
                    sb.append('(');
                    expr(k.wrapped());
                    sb.append(')');
                } else {
                    expr(k.wrapped());
                }
            }
            case Expr.ForExpr f -> {
                sb.append(f.isObject() ? "{for " : "[for ");
                if (f.keyVar() != null) {
                    sb.append(f.keyVar()).append(", ");
                }
                sb.append(f.valVar()).append(" in ");
                expr(f.collection());
                sb.append(" : ");
                if (f.isObject()) {
                    operand(f.keyExpr());
                    sb.append(" => ");
                }
                operand(f.valueExpr());
                if (f.group()) {
                    sb.append("...");
                }
                if (f.condition() != null) {
                    sb.append(" if ");
                    expr(f.condition());
                }
                sb.append(f.isObject() ? "}" : "]");
            }
            case Expr.Index i -> {
                operand(i.collection());
                sb.append('[');
                expr(i.key());
                sb.append(']');
            }
            case Expr.Splat s -> {
                operand(s.source());
                sb.append("[*]");
                splatEach(s.each());
            }
            case Expr.AnonSymbol a -> {}
            case Expr.Parentheses p -> {
                sb.append('(');
                expr(p.expr());
                sb.append(')');
            }
        }
    }

    /** The steps a splat applies to each element, printed after the {@code [*]} marker. */
    private void splatEach(Expr each) {
        switch (each) {
            case Expr.AnonSymbol a -> {}
            case Expr.RelativeTraversal r -> {
                splatEach(r.source());
                r.steps().forEach(this::step);
            }
            case Expr.Index i -> {
                splatEach(i.collection());
                sb.append('[');
                expr(i.key());
                sb.append(']');
            }
            case Expr.Splat s -> {
                splatEach(s.source());
                sb.append("[*]");
                splatEach(s.each());
            }
            default ->
                throw new IllegalArgumentException(
                        "not a splat step: " + each.getClass().getSimpleName());
        }
    }

    /** Compound operands get parentheses, so the printed text needs no precedence rules to read back. */
    private void operand(Expr e) {
        boolean simple = e instanceof Expr.LiteralValue
                || e instanceof Expr.ScopeTraversal
                || e instanceof Expr.FunctionCall
                || e instanceof Expr.TupleCons
                || e instanceof Expr.ObjectCons
                || e instanceof Expr.ForExpr
                || e instanceof Expr.Parentheses
                || e instanceof Expr.Template
                || e instanceof Expr.TemplateWrap;
        if (simple) {
            expr(e);
        } else {
            sb.append('(');
            expr(e);
            sb.append(')');
        }
    }

    private void step(Traverser t) {
        switch (t) {
            case Traverser.Root r -> sb.append(r.name());
            case Traverser.Attr a -> sb.append('.').append(a.name());
            case Traverser.Index i -> {
                sb.append('[');
                literal(i.key());
                sb.append(']');
            }
            case Traverser.Splat s -> sb.append("[*]");
        }
    }

    private void templateParts(Expr.Template t) {
        Expr previous = null;
        for (Expr part : t.parts()) {
            templatePart(part, endsWithPercent(previous));
            previous = part;
        }
    }

    /**
     * A literal ending in "%" cannot stand before a directive: "%%{" always reads as an escaped "%{". A
     * conditional is then printed as an interpolation ({@code ${c ? "a" : "b"}}), which parses to the
     * same tree.
     */
    private static boolean endsWithPercent(Expr part) {
        return part instanceof Expr.LiteralValue l
                && l.value() instanceof Literal.StringLit s
                && s.value().endsWith("%");
    }

    private static boolean endsWithPercent(Expr.Template t) {
        return !t.parts().isEmpty() && endsWithPercent(t.parts().getLast());
    }

    private void templatePart(Expr part, boolean afterPercent) {
        switch (part) {
            case Expr.LiteralValue l when l.value() instanceof Literal.StringLit s -> escaped(s.value());
            case Expr.Conditional c
            when c.trueResult() instanceof Expr.Template tt
                    && c.falseResult() instanceof Expr.Template ft
                    && !afterPercent
                    && !endsWithPercent(tt)
                    && !endsWithPercent(ft) -> {
                sb.append("%{if ");
                expr(c.condition());
                sb.append('}');
                templateParts(tt);
                if (!ft.parts().isEmpty()) {
                    sb.append("%{else}");
                    templateParts(ft);
                }
                sb.append("%{endif}");
            }
            case Expr.TemplateJoin j -> {
                sb.append("%{for ");
                if (j.tuple().keyVar() != null) {
                    sb.append(j.tuple().keyVar()).append(", ");
                }
                sb.append(j.tuple().valVar()).append(" in ");
                expr(j.tuple().collection());
                sb.append('}');
                templateParts((Expr.Template) j.tuple().valueExpr());
                sb.append("%{endfor}");
            }
            default -> {
                sb.append("${");
                expr(part);
                sb.append('}');
            }
        }
    }

    private void literal(Literal l) {
        switch (l) {
            case Literal.NumberLit n -> sb.append(number(n.value()));
            case Literal.StringLit s -> quoted(s.value());
            case Literal.BoolLit b -> sb.append(b.value());
            case Literal.NullLit n -> sb.append("null");
        }
    }

    private static String number(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return s.scale() <= 0 ? s.toBigIntegerExact().toString() : s.toPlainString();
    }

    private void quoted(String s) {
        sb.append('"');
        escaped(s);
        sb.append('"');
    }

    private void escaped(String s) {
        sb.append(dev.strata.hcl.HclStrings.escape(s));
    }
}
