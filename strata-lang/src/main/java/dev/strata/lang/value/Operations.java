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
    return arithmetic(a, b, BigDecimal::add);
  }

  public static OpResult subtract(Value a, Value b) {
    return arithmetic(a, b, BigDecimal::subtract);
  }

  public static OpResult multiply(Value a, Value b) {
    return arithmetic(a, b, BigDecimal::multiply);
  }

  /** Division; dividing by zero fails, where Terraform would produce an infinity. */
  public static OpResult divide(Value a, Value b) {
    Operands o = numbers(a, b);
    if (o.failure != null) {
      return o.failure;
    }
    if (o.unknown) {
      return ok(Value.unknown(Type.NUMBER), o.marks);
    }
    Optional<BigDecimal> q = Numbers.divide(o.x, o.y);
    if (q.isEmpty()) {
      return new OpResult.Failed(1, "Can't divide by zero");
    }
    return ok(Value.number(q.get()), o.marks);
  }

  public static OpResult modulo(Value a, Value b) {
    return arithmetic(a, b, Numbers::modulo);
  }

  public static OpResult negate(Value a) {
    OpResult r = arithmetic(Value.number(0), a, BigDecimal::subtract);
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
      return Value.bool(ua.isNull() && ub.isNull()).withMarks(marks);
    }
    if (!ua.isWhollyKnown() || !ub.isWhollyKnown()) {
      return Value.unknown(Type.BOOL).withMarks(marks);
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

  private record Operands(BigDecimal x, BigDecimal y, boolean unknown, Set<Mark> marks, OpResult failure) {}

  private static Operands numbers(Value a, Value b) {
    Set<Mark> marks = union(a.marks(), b.marks());
    Value[] vs = {a.unmark(), b.unmark()};
    boolean unknown = false;
    BigDecimal[] ns = new BigDecimal[2];
    for (int i = 0; i < 2; i++) {
      ConversionResult c = Convert.convert(vs[i], Type.NUMBER);
      if (!c.isOk()) {
        return new Operands(null, null, false, marks, new OpResult.Failed(i, "a number is required"));
      }
      Value v = c.value();
      if (v.isNull()) {
        return new Operands(null, null, false, marks, new OpResult.Failed(i, "a number is required"));
      }
      if (!v.isKnown()) {
        unknown = true;
      } else {
        ns[i] = v.asNumber();
      }
    }
    return new Operands(ns[0], ns[1], unknown, marks, null);
  }

  private static OpResult arithmetic(Value a, Value b, BinaryOperator<BigDecimal> op) {
    Operands o = numbers(a, b);
    if (o.failure != null) {
      return o.failure;
    }
    if (o.unknown) {
      return ok(Value.unknown(Type.NUMBER), o.marks);
    }
    return ok(Value.number(Numbers.round512(op.apply(o.x, o.y))), o.marks);
  }

  private static OpResult compare(Value a, Value b, java.util.function.IntPredicate test) {
    Operands o = numbers(a, b);
    if (o.failure != null) {
      return o.failure;
    }
    if (o.unknown) {
      return ok(Value.unknown(Type.BOOL), o.marks);
    }
    return ok(Value.bool(test.test(o.x.compareTo(o.y))), o.marks);
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
