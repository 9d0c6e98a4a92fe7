package dev.strata.lang.eval;

import dev.strata.hcl.syntax.Expr;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;

/**
 * Number operators on known, non-null, unmarked numbers: arbitrary precision, with Terraform's
 * infinities (division by zero gives an infinity, as in Terraform).
 */
final class Arithmetic {
    private Arithmetic() {}

    /** The result, or null when the operation has no result (the caller reports {@link #failure}). */
    static Value apply(Expr.BinaryOp op, Value l, Value r) {
        if (l.isInfinite() || r.isInfinite()) {
            return withDoubles(op, l.asDouble(), r.asDouble());
        }
        BigDecimal a = l.asNumber();
        BigDecimal b = r.asNumber();
        return switch (op) {
            case ADD -> Value.number(a.add(b, Evaluator.PRECISION));
            case SUBTRACT -> Value.number(a.subtract(b, Evaluator.PRECISION));
            case MULTIPLY -> Value.number(a.multiply(b, Evaluator.PRECISION));
            case DIVIDE -> {
                if (b.signum() == 0) {
                    yield a.signum() == 0 ? null : (a.signum() > 0 ? Value.POSITIVE_INFINITY : Value.NEGATIVE_INFINITY);
                }
                yield Value.number(a.divide(b, Evaluator.PRECISION));
            }
            case MODULO -> b.signum() == 0 ? null : Value.number(a.remainder(b, Evaluator.PRECISION));
            case LESS_THAN -> Value.bool(a.compareTo(b) < 0);
            case LESS_THAN_OR_EQUAL -> Value.bool(a.compareTo(b) <= 0);
            case GREATER_THAN -> Value.bool(a.compareTo(b) > 0);
            case GREATER_THAN_OR_EQUAL -> Value.bool(a.compareTo(b) >= 0);
            case OR, AND, EQUAL, NOT_EQUAL -> throw new IllegalArgumentException("not a number operator: " + op);
        };
    }

    private static Value withDoubles(Expr.BinaryOp op, double a, double b) {
        double d = switch (op) {
            case ADD -> a + b;
            case SUBTRACT -> a - b;
            case MULTIPLY -> a * b;
            case DIVIDE -> a / b;
            case MODULO -> a % b;
            case LESS_THAN -> a < b ? 1 : 0;
            case LESS_THAN_OR_EQUAL -> a <= b ? 1 : 0;
            case GREATER_THAN -> a > b ? 1 : 0;
            case GREATER_THAN_OR_EQUAL -> a >= b ? 1 : 0;
            case OR, AND, EQUAL, NOT_EQUAL -> throw new IllegalArgumentException("not a number operator: " + op);
        };
        boolean comparison = switch (op) {
            case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
            default -> false;
        };
        if (comparison) {
            return Value.bool(d == 1);
        }
        return Double.isNaN(d) ? null : Value.number(d);
    }

    static String failure(Expr.BinaryOp op, Value divisor) {
        return op == Expr.BinaryOp.MODULO ? "can't use zero as divisor in modulo" : "can't divide zero by zero";
    }

    static Value negate(Value v) {
        if (v.isInfinite()) {
            return Value.number(-v.asDouble());
        }
        return Value.number(v.asNumber().negate());
    }
}
