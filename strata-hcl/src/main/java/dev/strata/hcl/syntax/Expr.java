package dev.strata.hcl.syntax;

import dev.strata.hcl.Expression;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.SourceRange;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.util.List;
import java.util.Optional;

/**
 * The native-syntax expression tree. Closed: evaluators switch over it exhaustively, so a new node
 * kind breaks the build until every consumer handles it.
 */
public sealed interface Expr extends Expression {

    @Override
    SourceRange range();

    /**
     * Where a diagnostic about this expression as a function argument points: its first token or
     * construct rather than all of it (HCL's StartRange), e.g. the string inside {@code "b"}, the
     * {@code [} of a tuple, {@code name(} of a call.
     */
    default SourceRange startRange() {
        return switch (this) {
            case LiteralValue l -> l.range();
            case ScopeTraversal t -> t.range();
            case RelativeTraversal t -> t.range();
            case FunctionCall f -> SourceRange.between(f.nameRange(), f.openParenRange());
            case Conditional c -> c.condition().startRange();
            case Binary b -> b.lhs().startRange();
            case Unary u -> u.symbolRange();
            case Template t ->
                t.parts().isEmpty() ? t.range() : t.parts().get(0).startRange();
            case TemplateWrap w -> w.range();
            case TemplateJoin j -> j.tuple().startRange();
            case TupleCons t -> t.openRange();
            case ObjectCons o -> o.openRange();
            case ObjectKey k -> k.wrapped().startRange();
            case ForExpr f -> f.openRange();
            case Index i -> i.openRange();
            case Splat s -> s.markerRange();
            case AnonSymbol a -> a.range();
            case Parentheses p -> p.expr().startRange();
        };
    }

    @Override
    default List<Traversal> variables() {
        return Variables.of(this);
    }

    @Override
    default Result<Expr> syntax() {
        return Result.of(this);
    }

    @Override
    default Result<Optional<Traversal>> asTraversal() {
        return StaticExprs.traversal(this);
    }

    @Override
    default Optional<List<Expression>> asList() {
        return this instanceof TupleCons t ? Optional.of(List.copyOf(t.elements())) : Optional.empty();
    }

    @Override
    default Optional<List<KeyValue>> asMap() {
        if (this instanceof ObjectCons o) {
            return Optional.of(o.items().stream()
                    .map(i -> new KeyValue(i.key(), i.value()))
                    .toList());
        }
        return Optional.empty();
    }

    @Override
    default Optional<String> asKeyword() {
        if (this instanceof ScopeTraversal s
                && s.traversal().steps().size() == 1
                && s.traversal().steps().get(0) instanceof Traverser.Root r) {
            return Optional.of(r.name());
        }
        return Optional.empty();
    }

    /** {@code 1}, {@code true}, {@code null}, or a string that needed no template processing. */
    record LiteralValue(Literal value, SourceRange range) implements Expr {}

    /** {@code a.b[0].c}: a reference rooted at a variable name. */
    record ScopeTraversal(Traversal traversal, SourceRange range) implements Expr {}

    /** {@code expr.b[0]}: attribute/index steps applied to the result of another expression. */
    record RelativeTraversal(Expr source, List<Traverser> steps, SourceRange range) implements Expr {
        public RelativeTraversal {
            steps = List.copyOf(steps);
        }
    }

    /**
     * {@code name(args...)}; {@code expandFinal} when the last argument is followed by {@code ...}.
     * {@code name} may be namespaced ({@code provider::aws::arn_parse}).
     */
    record FunctionCall(
            String name,
            List<Expr> args,
            boolean expandFinal,
            SourceRange nameRange,
            SourceRange openParenRange,
            SourceRange closeParenRange)
            implements Expr {
        public FunctionCall {
            args = List.copyOf(args);
        }

        @Override
        public SourceRange range() {
            return SourceRange.between(nameRange, closeParenRange);
        }

        @Override
        public SourceRange startRange() {
            return SourceRange.between(nameRange, openParenRange);
        }
    }

    record Conditional(Expr condition, Expr trueResult, Expr falseResult, SourceRange range) implements Expr {}

    enum BinaryOp {
        OR("||"),
        AND("&&"),
        EQUAL("=="),
        NOT_EQUAL("!="),
        LESS_THAN("<"),
        LESS_THAN_OR_EQUAL("<="),
        GREATER_THAN(">"),
        GREATER_THAN_OR_EQUAL(">="),
        ADD("+"),
        SUBTRACT("-"),
        MULTIPLY("*"),
        DIVIDE("/"),
        MODULO("%");

        private final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    record Binary(Expr lhs, BinaryOp op, Expr rhs, SourceRange range) implements Expr {}

    enum UnaryOp {
        NOT("!"),
        NEGATE("-");

        private final String symbol;

        UnaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    record Unary(UnaryOp op, Expr operand, SourceRange symbolRange, SourceRange range) implements Expr {}

    /** A template: literal parts, interpolations, and directives (as conditionals and joins). */
    record Template(List<Expr> parts, SourceRange range) implements Expr {
        public Template {
            parts = List.copyOf(parts);
        }

        /** True when the template is one literal string, or empty. */
        public boolean isStringLiteral() {
            return parts.isEmpty() || (parts.size() == 1 && parts.get(0) instanceof LiteralValue);
        }
    }

    /**
     * {@code "${expr}"}: a template that is exactly one interpolation, whose value is the wrapped
     * expression's value, of whatever type, rather than a string.
     */
    record TemplateWrap(Expr wrapped, SourceRange range) implements Expr {}

    /** A {@code %{for}} directive: joins the strings the for expression produces. */
    record TemplateJoin(ForExpr tuple, SourceRange range) implements Expr {}

    record TupleCons(List<Expr> elements, SourceRange openRange, SourceRange range) implements Expr {
        public TupleCons {
            elements = List.copyOf(elements);
        }
    }

    record ObjectCons(List<ObjectItem> items, SourceRange openRange, SourceRange range) implements Expr {
        public ObjectCons {
            items = List.copyOf(items);
        }
    }

    record ObjectItem(ObjectKey key, Expr value) {}

    /**
     * An object constructor key. A bare identifier is a literal name unless the key was
     * parenthesised ({@code forceNonLiteral}), in which case it is an expression.
     */
    record ObjectKey(Expr wrapped, boolean forceNonLiteral) implements Expr {
        @Override
        public SourceRange range() {
            return wrapped.range();
        }

        /**
         * The literal key name when the key is a bare identifier that is not forced to be an expression.
         * The keywords {@code true}, {@code false} and {@code null} are names here too ({@code {null = 1}}
         * has the key "null"), as in HashiCorp's implementation.
         */
        public Optional<String> literalName() {
            if (forceNonLiteral) {
                return Optional.empty();
            }
            if (wrapped instanceof LiteralValue l
                    && (l.value() instanceof Literal.BoolLit || l.value() instanceof Literal.NullLit)) {
                return Optional.of(l.value().toString());
            }
            return wrapped.asKeyword();
        }
    }

    /**
     * {@code [for k, v in coll : val if cond]} or {@code {for k, v in coll : key => val... if cond}};
     * {@code keyExpr} is null for the tuple form, {@code keyVar} when only one variable is named.
     */
    record ForExpr(
            String keyVar,
            String valVar,
            Expr collection,
            Expr keyExpr,
            Expr valueExpr,
            Expr condition,
            boolean group,
            SourceRange openRange,
            SourceRange closeRange,
            SourceRange range)
            implements Expr {
        public boolean isObject() {
            return keyExpr != null;
        }
    }

    /** {@code coll[key]} with a key that is not a literal (literal keys become traversal steps). */
    record Index(Expr collection, Expr key, SourceRange openRange, SourceRange bracketRange, SourceRange range)
            implements Expr {}

    /**
     * {@code source.*.attr} or {@code source[*].attr}: {@code each} is evaluated once per element,
     * with {@code item} standing for the element.
     */
    record Splat(Expr source, Expr each, AnonSymbol item, SourceRange markerRange, SourceRange range) implements Expr {}

    /** The element placeholder inside a splat's {@code each} expression. */
    record AnonSymbol(SourceRange range) implements Expr {}

    /** {@code (expr)}: kept so that ranges and the "force expression" rule for object keys work. */
    record Parentheses(Expr expr, SourceRange range) implements Expr {}
}
