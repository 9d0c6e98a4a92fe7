package dev.strata.lang.value;

import dev.strata.lang.types.Type;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.BinaryOperator;

/**
 * The language's operators on values, for the evaluator: arithmetic, comparison, equality and
 * logic. Operands are converted as Terraform converts them ({@code 1 + "2"} is 3); an unknown
 * operand gives an unknown result of the operator's type; marks of the operands (at any depth,
 * for equality) move onto the result.
 */
public final class Operations {
    private Operations() {}

    public static OpResult add(Value a, Value b) {
        return arithmetic(a, b, BigDecimal::add, (x, y) -> x + y);
    }

    public static OpResult subtract(Value a, Value b) {
        return arithmetic(a, b, BigDecimal::subtract, (x, y) -> x - y);
    }

    public static OpResult multiply(Value a, Value b) {
        return arithmetic(a, b, BigDecimal::multiply, (x, y) -> x * y);
    }

    /** Division; a non-zero number divided by zero is an infinity, as in Terraform. */
    public static OpResult divide(Value a, Value b) {
        Operands o = numbers(a, b);
        if (o.failure != null) {
            return o.failure;
        }
        if (o.unknown) {
            return ok(Value.unknown(Type.NUMBER), o.marks);
        }
        if (o.dx != null) {
            return arithmetic(a, b, BigDecimal::divide, (x, y) -> x / y);
        }
        Optional<BigDecimal> q = Numbers.divide(Numbers.binary512(o.x), Numbers.binary512(o.y));
        if (q.isEmpty()) {
            if (o.x.signum() == 0) {
                return new OpResult.Failed(1, "the result is not a number");
            }
            return ok(o.x.signum() > 0 ? Value.POSITIVE_INFINITY : Value.NEGATIVE_INFINITY, o.marks);
        }
        return ok(Value.number(q.get()), o.marks);
    }

    public static OpResult modulo(Value a, Value b) {
        return arithmetic(a, b, Numbers::modulo);
    }

    /** Unary minus; as in Terraform, {@code -0} is negative zero. */
    public static OpResult negate(Value a) {
        Value u = a.unmark();
        if (u.type().equals(Type.NUMBER)
                && u.isKnown()
                && !u.isNull()
                && !u.isInfinite()
                && u.asNumber().signum() == 0) {
            return ok(u.numberText().equals("-0") ? Value.number(0) : Value.NEGATIVE_ZERO, a.marks());
        }
        OpResult r = arithmetic(Value.number(0), a, BigDecimal::subtract, (x, y) -> x - y);
        return r instanceof OpResult.Failed f ? new OpResult.Failed(0, f.message()) : r;
    }

    public static OpResult lessThan(Value a, Value b) {
        return compare(a, b, c -> c < 0);
    }

    public static OpResult lessThanOrEqual(Value a, Value b) {
        return compare(a, b, c -> c <= 0);
    }

    public static OpResult greaterThan(Value a, Value b) {
        return compare(a, b, c -> c > 0);
    }

    public static OpResult greaterThanOrEqual(Value a, Value b) {
        return compare(a, b, c -> c >= 0);
    }

    /**
     * {@code ==}: true when type and value are the same ({@code tolist([1]) == [1]} is false, and
     * {@code 1 == 1.0} is true); unknown if either side is not wholly known.
     */
    public static Value equal(Value a, Value b) {
        Set<Mark> marks = union(a.deepMarks(), b.deepMarks());
        Value ua = a.unmarkDeep();
        Value ub = b.unmarkDeep();
        if (ua.isNull() || ub.isNull()) {
            // An unknown may turn out to be null, so comparing it with null is unknown too (as cty does
            // for unknowns without a "not null" refinement): `var.x == null` at validate time.
            if (!ua.isKnown() || !ub.isKnown()) {
                return Value.unknown(Type.BOOL).withMarks(marks);
            }
            return Value.bool(ua.isNull() && ub.isNull()).withMarks(marks);
        }
        if (!ua.isWhollyKnown() || !ub.isWhollyKnown()) {
            return Value.unknown(Type.BOOL).withMarks(marks);
        }
        if (ua.type().equals(Type.NUMBER) && ub.type().equals(Type.NUMBER)) {
            boolean same = ua.isInfinite() || ub.isInfinite()
                    ? ua.asDouble() == ub.asDouble()
                    : ua.asNumber().compareTo(ub.asNumber()) == 0;
            return Value.bool(same).withMarks(marks);
        }
        return Value.bool(ua.equals(ub)).withMarks(marks);
    }

    public static Value notEqual(Value a, Value b) {
        Value e = equal(a, b);
        return e.isKnown() ? Value.bool(!e.unmark().asBool()).withMarks(e.marks()) : e;
    }

    public static OpResult and(Value a, Value b) {
        return logic(a, b, Boolean::logicalAnd);
    }

    public static OpResult or(Value a, Value b) {
        return logic(a, b, Boolean::logicalOr);
    }

    public static OpResult not(Value a) {
        ConversionResult c = Convert.convert(a, Type.BOOL);
        if (!c.isOk() || c.value().isNull()) {
            return new OpResult.Failed(0, "a bool is required");
        }
        Value v = c.value();
        if (!v.isKnown()) {
            return ok(Value.unknown(Type.BOOL), v.marks());
        }
        return ok(Value.bool(!v.unmark().asBool()), v.marks());
    }

    /** The type of {@code cond ? a : b}: both results unified, as Terraform does. */
    public static Optional<Type> conditionalType(Type a, Type b) {
        return Unify.unify(java.util.List.of(a, b));
    }

    // ---- helpers -----------------------------------------------------------------------------

    /** Operands as exact numbers, or as doubles ({@code dx}, {@code dy}) when one is infinite. */
    private record Operands(
            BigDecimal x, BigDecimal y, Double dx, Double dy, boolean unknown, Set<Mark> marks, OpResult failure) {}

    private static Operands numbers(Value a, Value b) {
        Set<Mark> marks = union(a.marks(), b.marks());
        Value[] vs = {a.unmark(), b.unmark()};
        boolean unknown = false;
        boolean infinite = false;
        BigDecimal[] ns = new BigDecimal[2];
        double[] ds = new double[2];
        for (int i = 0; i < 2; i++) {
            ConversionResult c = Convert.convert(vs[i], Type.NUMBER);
            if (!c.isOk()) {
                return new Operands(
                        null, null, null, null, false, marks, new OpResult.Failed(i, "a number is required"));
            }
            Value v = c.value();
            if (v.isNull()) {
                return new Operands(
                        null, null, null, null, false, marks, new OpResult.Failed(i, "a number is required"));
            }
            if (!v.isKnown()) {
                unknown = true;
            } else if (v.isInfinite()) {
                infinite = true;
                ds[i] = v.asDouble();
            } else {
                ns[i] = v.asNumber();
                ds[i] = v.asDouble();
            }
        }
        if (infinite && !unknown) {
            return new Operands(null, null, ds[0], ds[1], false, marks, null);
        }
        return new Operands(ns[0], ns[1], null, null, unknown, marks, null);
    }

    private static OpResult arithmetic(Value a, Value b, BinaryOperator<BigDecimal> op) {
        return arithmetic(a, b, op, null);
    }

    /** {@code onDoubles} computes the result when an operand is infinite; null means the BigDecimal op. */
    private static OpResult arithmetic(
            Value a, Value b, BinaryOperator<BigDecimal> op, java.util.function.DoubleBinaryOperator onDoubles) {
        Operands o = numbers(a, b);
        if (o.failure != null) {
            return o.failure;
        }
        if (o.unknown) {
            return ok(Value.unknown(Type.NUMBER), o.marks);
        }
        if (o.dx != null) {
            double r = onDoubles != null ? onDoubles.applyAsDouble(o.dx, o.dy) : Double.NaN;
            if (Double.isNaN(r)) {
                return new OpResult.Failed(0, "the result is not a number");
            }
            return ok(Value.number(r), o.marks);
        }
        // Terraform computes on the 512-bit binary values of the operands, not on their decimals.
        BigDecimal exact = op.apply(Numbers.binary512(o.x), Numbers.binary512(o.y));
        return ok(Value.number(Numbers.round512(exact)), o.marks);
    }

    private static OpResult compare(Value a, Value b, java.util.function.IntPredicate test) {
        Operands o = numbers(a, b);
        if (o.failure != null) {
            return o.failure;
        }
        if (o.unknown) {
            return ok(Value.unknown(Type.BOOL), o.marks);
        }
        int c = o.dx != null ? Double.compare(o.dx, o.dy) : o.x.compareTo(o.y);
        return ok(Value.bool(test.test(c)), o.marks);
    }

    private static OpResult logic(Value a, Value b, BinaryOperator<Boolean> op) {
        Set<Mark> marks = union(a.marks(), b.marks());
        Value[] vs = {a.unmark(), b.unmark()};
        boolean unknown = false;
        boolean[] bs = new boolean[2];
        for (int i = 0; i < 2; i++) {
            ConversionResult c = Convert.convert(vs[i], Type.BOOL);
            if (!c.isOk() || c.value().isNull()) {
                return new OpResult.Failed(i, "a bool is required");
            }
            if (!c.value().isKnown()) {
                unknown = true;
            } else {
                bs[i] = c.value().asBool();
            }
        }
        if (unknown) {
            return ok(Value.unknown(Type.BOOL), marks);
        }
        return ok(Value.bool(op.apply(bs[0], bs[1])), marks);
    }

    private static OpResult ok(Value v, Set<Mark> marks) {
        return new OpResult.Ok(v.withMarks(marks));
    }

    private static Set<Mark> union(Set<Mark> a, Set<Mark> b) {
        EnumSet<Mark> s = EnumSet.noneOf(Mark.class);
        s.addAll(a);
        s.addAll(b);
        return s;
    }
}
