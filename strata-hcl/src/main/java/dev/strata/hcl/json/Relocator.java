package dev.strata.hcl.json;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import dev.strata.hcl.json.JsonValue.OffsetMap;
import dev.strata.hcl.syntax.Expr;
import java.util.List;

/**
 * Moves the ranges of a tree parsed from a string's decoded content to where that content is written
 * in the JSON file. The native parser sees the decoded text (escapes already replaced), parsed from a
 * virtual start at byte 0; each position's byte offset into that text is looked up in the string's
 * {@link OffsetMap}, so ranges stay exact even when escapes made the source longer than the text.
 */
final class Relocator {
    /** Where the native parser is told the decoded text starts; only byte offsets are used from it. */
    static final SourcePos VIRTUAL_START = new SourcePos(1, 1, 0);

    private final OffsetMap map;

    Relocator(OffsetMap map) {
        this.map = map;
    }

    SourcePos pos(SourcePos p) {
        return map.at(p.byteOffset());
    }

    SourceRange range(SourceRange r) {
        if (r == null) {
            return null;
        }
        return new SourceRange(r.filename(), pos(r.start()), pos(r.end()));
    }

    Diagnostics diagnostics(Diagnostics ds) {
        Diagnostics.Builder b = Diagnostics.builder();
        for (Diagnostic d : ds) {
            b.add(new Diagnostic(
                    d.severity(),
                    d.summary(),
                    d.detail(),
                    range(d.subject()),
                    range(d.context()),
                    d.values(),
                    d.functionCall()));
        }
        return b.build();
    }

    Traversal traversal(Traversal t) {
        return new Traversal(steps(t.steps()));
    }

    List<Traverser> steps(List<Traverser> steps) {
        return steps.stream().map(this::step).toList();
    }

    Traverser step(Traverser t) {
        return switch (t) {
            case Traverser.Root r -> new Traverser.Root(r.name(), range(r.range()));
            case Traverser.Attr a -> new Traverser.Attr(a.name(), range(a.range()));
            case Traverser.Index i -> new Traverser.Index(i.key(), range(i.range()));
            case Traverser.Splat s -> new Traverser.Splat(range(s.range()));
        };
    }

    Expr expr(Expr e) {
        if (e == null) {
            return null;
        }
        return switch (e) {
            case Expr.LiteralValue l -> new Expr.LiteralValue(l.value(), range(l.range()));
            case Expr.ScopeTraversal s -> new Expr.ScopeTraversal(traversal(s.traversal()), range(s.range()));
            case Expr.RelativeTraversal r ->
                new Expr.RelativeTraversal(expr(r.source()), steps(r.steps()), range(r.range()));
            case Expr.FunctionCall f ->
                new Expr.FunctionCall(
                        f.name(),
                        exprs(f.args()),
                        f.expandFinal(),
                        range(f.nameRange()),
                        range(f.openParenRange()),
                        range(f.closeParenRange()));
            case Expr.Conditional c ->
                new Expr.Conditional(
                        expr(c.condition()), expr(c.trueResult()), expr(c.falseResult()), range(c.range()));
            case Expr.Binary b -> new Expr.Binary(expr(b.lhs()), b.op(), expr(b.rhs()), range(b.range()));
            case Expr.Unary u -> new Expr.Unary(u.op(), expr(u.operand()), range(u.symbolRange()), range(u.range()));
            case Expr.Template t -> new Expr.Template(exprs(t.parts()), range(t.range()));
            case Expr.TemplateWrap w -> new Expr.TemplateWrap(expr(w.wrapped()), range(w.range()));
            case Expr.TemplateJoin j -> new Expr.TemplateJoin((Expr.ForExpr) expr(j.tuple()), range(j.range()));
            case Expr.TupleCons t -> new Expr.TupleCons(exprs(t.elements()), range(t.openRange()), range(t.range()));
            case Expr.ObjectCons o ->
                new Expr.ObjectCons(
                        o.items().stream()
                                .map(i -> new Expr.ObjectItem((Expr.ObjectKey) expr(i.key()), expr(i.value())))
                                .toList(),
                        range(o.openRange()),
                        range(o.range()));
            case Expr.ObjectKey k -> new Expr.ObjectKey(expr(k.wrapped()), k.forceNonLiteral());
            case Expr.ForExpr f ->
                new Expr.ForExpr(
                        f.keyVar(),
                        f.valVar(),
                        expr(f.collection()),
                        expr(f.keyExpr()),
                        expr(f.valueExpr()),
                        expr(f.condition()),
                        f.group(),
                        range(f.openRange()),
                        range(f.closeRange()),
                        range(f.range()));
            case Expr.Index i ->
                new Expr.Index(
                        expr(i.collection()),
                        expr(i.key()),
                        range(i.openRange()),
                        range(i.bracketRange()),
                        range(i.range()));
            case Expr.Splat s ->
                new Expr.Splat(
                        expr(s.source()),
                        expr(s.each()),
                        (Expr.AnonSymbol) expr(s.item()),
                        range(s.markerRange()),
                        range(s.range()));
            case Expr.AnonSymbol a -> new Expr.AnonSymbol(range(a.range()));
            case Expr.Parentheses p -> new Expr.Parentheses(expr(p.expr()), range(p.range()));
        };
    }

    private List<Expr> exprs(List<Expr> es) {
        return es.stream().map(this::expr).toList();
    }
}
