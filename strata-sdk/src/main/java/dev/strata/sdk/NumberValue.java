package dev.strata.sdk;

import java.math.BigDecimal;
import java.util.Optional;

/** A number: a literal, a reference ({@code count.index}) or arithmetic over them. */
public record NumberValue(Expr expr, Site site) implements Value {
    public NumberValue {
        Exprs.require(expr, site);
    }

    public static NumberValue of(long literal) {
        return new NumberValue(new Expr.Num(BigDecimal.valueOf(literal)), Site.capture());
    }

    public static NumberValue of(BigDecimal literal) {
        return new NumberValue(new Expr.Num(literal), Site.capture());
    }

    public Optional<BigDecimal> literal() {
        return expr instanceof Expr.Num n ? Optional.of(n.value()) : Optional.empty();
    }

    public NumberValue plus(NumberValue other) {
        return op(Expr.Op.ADD, other);
    }

    public NumberValue plus(long other) {
        return op(Expr.Op.ADD, new NumberValue(new Expr.Num(BigDecimal.valueOf(other)), site));
    }

    public NumberValue minus(NumberValue other) {
        return op(Expr.Op.SUB, other);
    }

    public NumberValue times(NumberValue other) {
        return op(Expr.Op.MUL, other);
    }

    public BoolValue greaterThan(NumberValue other) {
        return new BoolValue(new Expr.Binary(Expr.Op.GT, expr, other.expr()), Site.capture());
    }

    public BoolValue lessThan(NumberValue other) {
        return new BoolValue(new Expr.Binary(Expr.Op.LT, expr, other.expr()), Site.capture());
    }

    private NumberValue op(Expr.Op op, NumberValue other) {
        return new NumberValue(new Expr.Binary(op, expr, other.expr()), Site.capture());
    }
}
