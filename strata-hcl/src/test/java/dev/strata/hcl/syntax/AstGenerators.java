package dev.strata.hcl.syntax;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.Block;
import dev.strata.hcl.Literal;
import dev.strata.hcl.SourcePos;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of syntax trees in the normal form the parser produces (adjacent template literals
 * merged, no empty literal parts, a lone interpolation as a wrap), so that printing and parsing
 * again must give back the same tree.
 */
final class AstGenerators {
    private AstGenerators() {}

    static final SourceRange R = new SourceRange("gen.tf", SourcePos.START, SourcePos.START);

    static Arbitrary<String> idents() {
        return Arbitraries.of("a", "b", "foo", "bar_1", "x-y", "_z", "web", "each", "count", "var", "ναι");
    }

    static Arbitrary<Expr> literals() {
        Arbitrary<Expr> ints = Arbitraries.longs()
                .between(0, 10_000_000)
                .map(n -> new Expr.LiteralValue(new Literal.NumberLit(BigDecimal.valueOf(n)), R));
        Arbitrary<Expr> decimals = Arbitraries.bigDecimals()
                .between(BigDecimal.ZERO, BigDecimal.valueOf(1000))
                .ofScale(3)
                .map(n -> new Expr.LiteralValue(new Literal.NumberLit(n), R));
        Arbitrary<Expr> bools = Arbitraries.of(true, false).map(b -> new Expr.LiteralValue(new Literal.BoolLit(b), R));
        Arbitrary<Expr> nul = Arbitraries.just(new Expr.LiteralValue(Literal.NULL, R));
        return Arbitraries.oneOf(ints, decimals, bools, nul, strings());
    }

    static Arbitrary<String> text() {
        return Arbitraries.strings()
                .withChars("abcxyz \"\\\n\t$%{}é~")
                .ofMinLength(1)
                .ofMaxLength(8);
    }

    static Arbitrary<Expr> strings() {
        return Arbitraries.oneOf(
                Arbitraries.just(new Expr.Template(List.of(), R)),
                text().map(s -> new Expr.Template(List.of(new Expr.LiteralValue(new Literal.StringLit(s), R)), R)));
    }

    static Arbitrary<Expr> traversals() {
        Arbitrary<Traverser> step = Arbitraries.oneOf(
                idents().map(n -> new Traverser.Attr(n, R)),
                Arbitraries.integers().between(0, 99).map(i -> new Traverser.Index(Literal.of(i), R)),
                text().map(s -> new Traverser.Index(new Literal.StringLit(s), R)));
        return Combinators.combine(idents(), step.list().ofMaxSize(3)).as((root, steps) -> {
            List<Traverser> all = new ArrayList<>();
            all.add(new Traverser.Root(root, R));
            all.addAll(steps);
            return new Expr.ScopeTraversal(new Traversal(all), R);
        });
    }

    static Arbitrary<Expr> exprs(int depth) {
        if (depth <= 0) {
            return Arbitraries.oneOf(literals(), traversals());
        }
        Arbitrary<Expr> sub = Arbitraries.lazy(() -> exprs(depth - 1));
        Arbitrary<Expr> call = Combinators.combine(
                        Arbitraries.of("max", "f", "provider::aws::arn_parse", "ns::g"),
                        sub.list().ofMaxSize(3),
                        Arbitraries.of(true, false))
                .as((n, args, expand) -> new Expr.FunctionCall(n, args, expand && !args.isEmpty(), R, R, R));
        Arbitrary<Expr> cond = Combinators.combine(sub, sub, sub).as((a, b, c) -> new Expr.Conditional(a, b, c, R));
        Arbitrary<Expr> binary = Combinators.combine(sub, Arbitraries.of(Expr.BinaryOp.class), sub)
                .as((l, op, r) -> new Expr.Binary(l, op, r, R));
        Arbitrary<Expr> unary =
                Combinators.combine(Arbitraries.of(Expr.UnaryOp.class), sub).as((op, e) -> new Expr.Unary(op, e, R, R));
        Arbitrary<Expr> tuple = sub.list().ofMaxSize(4).map(l -> new Expr.TupleCons(l, R, R));
        Arbitrary<Expr.ObjectKey> key = Arbitraries.oneOf(
                idents().map(n -> new Expr.ObjectKey(
                        new Expr.ScopeTraversal(new Traversal(List.of(new Traverser.Root(n, R))), R), false)),
                strings().map(s -> new Expr.ObjectKey(s, false)),
                traversals().map(t -> new Expr.ObjectKey(new Expr.Parentheses(t, R), true)));
        Arbitrary<Expr> object = Combinators.combine(key, sub)
                .as(Expr.ObjectItem::new)
                .list()
                .ofMaxSize(3)
                .map(items -> new Expr.ObjectCons(items, R, R));
        Arbitrary<Expr> forTuple = Combinators.combine(idents(), idents(), sub, sub, sub, Arbitraries.of(true, false))
                .as((k, v, coll, val, c, hasCond) -> new Expr.ForExpr(
                        k.equals(v) ? null : k, v, coll, null, val, hasCond ? c : null, false, R, R, R));
        Arbitrary<Expr> forObject = Combinators.combine(idents(), sub, sub, sub, Arbitraries.of(true, false))
                .as((v, coll, k, val, group) -> new Expr.ForExpr(null, v, coll, k, val, null, group, R, R, R));
        Arbitrary<Expr> index =
                Combinators.combine(traversals(), traversals()).as((c, k) -> new Expr.Index(c, k, R, R, R));
        Arbitrary<Expr> splat = Combinators.combine(
                        traversals(), idents().list().ofMaxSize(2))
                .as((src, attrs) -> {
                    Expr.AnonSymbol item = new Expr.AnonSymbol(R);
                    Expr each = attrs.isEmpty()
                            ? item
                            : new Expr.RelativeTraversal(
                                    item,
                                    attrs.stream()
                                            .map(a -> (Traverser) new Traverser.Attr(a, R))
                                            .toList(),
                                    R);
                    return new Expr.Splat(src, each, item, R, R);
                });
        Arbitrary<Expr> wrap = sub.map(e -> new Expr.TemplateWrap(e, R));
        // A literal cannot end in "$" before "${" (or "%" before "%{"): "$${" is always an escape, so
        // such a tree has no source form.
        Arbitrary<String> beforeSeq = text().map(t -> t.replaceAll("[$%]+$", "x"));
        Arbitrary<Expr> template = Combinators.combine(beforeSeq, sub, text())
                .as((a, e, b) -> new Expr.Template(List.of(lit(a), e, lit(b)), R));
        Arbitrary<Expr> ifTemplate = Combinators.combine(beforeSeq, sub, beforeSeq, beforeSeq)
                .as((a, c, t, f) -> new Expr.Template(
                        List.of(
                                lit(a),
                                new Expr.Conditional(
                                        c,
                                        new Expr.Template(List.of(lit(t)), R),
                                        new Expr.Template(List.of(lit(f)), R),
                                        R)),
                        R));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, literals()),
                net.jqwik.api.Tuple.of(4, traversals()),
                net.jqwik.api.Tuple.of(2, call),
                net.jqwik.api.Tuple.of(1, cond),
                net.jqwik.api.Tuple.of(2, binary),
                net.jqwik.api.Tuple.of(1, unary),
                net.jqwik.api.Tuple.of(1, tuple),
                net.jqwik.api.Tuple.of(1, object),
                net.jqwik.api.Tuple.of(1, forTuple),
                net.jqwik.api.Tuple.of(1, forObject),
                net.jqwik.api.Tuple.of(1, index),
                net.jqwik.api.Tuple.of(1, splat),
                net.jqwik.api.Tuple.of(1, wrap),
                net.jqwik.api.Tuple.of(1, template),
                net.jqwik.api.Tuple.of(1, ifTemplate));
    }

    private static Expr lit(String s) {
        return new Expr.LiteralValue(new Literal.StringLit(s), R);
    }

    static Arbitrary<SyntaxBody> bodies(int depth) {
        Arbitrary<Map<String, Expr>> attrs =
                Arbitraries.maps(idents(), exprs(2)).ofMaxSize(4).map(LinkedHashMap::new);
        Arbitrary<List<Block>> blocks = depth <= 0
                ? Arbitraries.just(List.of())
                : Combinators.combine(idents(), text().list().ofMaxSize(2), Arbitraries.lazy(() -> bodies(depth - 1)))
                        .as((type, labels, body) -> new Block(
                                type,
                                labels,
                                body,
                                R,
                                labels.stream().map(l -> R).toList(),
                                R,
                                R))
                        .list()
                        .ofMaxSize(3);
        return Combinators.combine(attrs, blocks)
                .as((a, b) -> new SyntaxBody(
                        a.entrySet().stream()
                                .map(en -> new Attribute(en.getKey(), en.getValue(), R, R))
                                .toList(),
                        b,
                        R,
                        R));
    }
}
