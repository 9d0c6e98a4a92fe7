package dev.strata.sdk;

import java.util.Optional;

/** A bool: a literal, a reference or a comparison. */
public record BoolValue(Expr expr, Site site) implements Value {
    public BoolValue {
        Exprs.require(expr, site);
    }

    public static BoolValue of(boolean literal) {
        return new BoolValue(new Expr.Bool(literal), Site.capture());
    }

    public Optional<Boolean> literal() {
        return expr instanceof Expr.Bool b ? Optional.of(b.value()) : Optional.empty();
    }

    public BoolValue and(BoolValue other) {
        return new BoolValue(new Expr.Binary(Expr.Op.AND, expr, other.expr()), Site.capture());
    }

    public BoolValue or(BoolValue other) {
        return new BoolValue(new Expr.Binary(Expr.Op.OR, expr, other.expr()), Site.capture());
    }

    public BoolValue not() {
        return new BoolValue(new Expr.Unary(false, expr), Site.capture());
    }
}
