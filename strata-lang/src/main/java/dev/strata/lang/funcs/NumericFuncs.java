package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Args.num;
import static dev.strata.lang.funcs.Args.str;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;

/** abs, ceil, floor, log, max, min, parseint, pow, signum. */
final class NumericFuncs {
    private NumericFuncs() {}

    static void register(Functions.Registry r) {
        r.add(unary("abs", n -> n.abs(), Value.POSITIVE_INFINITY));
        r.add(unary("ceil", n -> n.setScale(0, RoundingMode.CEILING), null));
        r.add(unary("floor", n -> n.setScale(0, RoundingMode.FLOOR), null));
        r.add(Function.builder("signum")
                .param("num", Type.NUMBER)
                .returns(Type.NUMBER)
                .impl((a, t) -> {
                    BigDecimal n = num(a, 0);
                    if (!Args.isWhole(n) || n.compareTo(Args.LONG_MIN) < 0 || n.compareTo(Args.LONG_MAX) > 0) {
                        throw FunctionError.call(
                                "value must be a whole number, between -9223372036854775808 and 9223372036854775807");
                    }
                    return Value.number(n.signum());
                })
                .build());
        r.add(Function.builder("log")
                .param("num", Type.NUMBER)
                .param("base", Type.NUMBER)
                .returns(Type.NUMBER)
                .impl((a, t) ->
                        finite(Math.log(a.get(0).asDouble()) / Math.log(a.get(1).asDouble())))
                .build());
        r.add(Function.builder("pow")
                .param("num", Type.NUMBER)
                .param("power", Type.NUMBER)
                .returns(Type.NUMBER)
                .impl((a, t) -> pow(a.get(0), a.get(1)))
                .build());
        r.add(extreme("max", true));
        r.add(extreme("min", false));
        r.add(Function.builder("parseint")
                .param(Param.of("number", Type.DYNAMIC).rejectingDynamicType())
                .param("base", Type.NUMBER)
                .returns(Type.NUMBER)
                .impl(NumericFuncs::parseint)
                .build());
    }

    /** {@code ofInfinity} is the result for an infinite argument; null means the argument itself. */
    private static Function unary(String name, java.util.function.UnaryOperator<BigDecimal> op, Value ofInfinity) {
        return Function.builder(name)
                .param("num", Type.NUMBER)
                .returns(Type.NUMBER)
                .impl((a, t) -> {
                    Value v = a.get(0);
                    if (v.isInfinite()) {
                        return ofInfinity == null ? v : ofInfinity;
                    }
                    return Value.number(op.apply(num(a, 0)));
                })
                .build();
    }

    /** Integer powers are exact; other powers go through binary floats, as in Terraform. */
    private static Value pow(BigDecimal base, BigDecimal exp) {
        if (Args.isWhole(exp) && exp.abs().compareTo(BigDecimal.valueOf(1000)) <= 0) {
            int e = exp.intValueExact();
            if (e >= 0) {
                return Value.number(base.pow(e));
            }
            if (base.signum() != 0) {
                BigDecimal d = BigDecimal.ONE.divide(base.pow(-e), java.math.MathContext.DECIMAL128);
                return Value.number(
                        Math.pow(base.doubleValue(), exp.doubleValue()) == d.doubleValue()
                                ? new BigDecimal(Double.toString(d.doubleValue()))
                                : d);
            }
        }
        return finite(Math.pow(base.doubleValue(), exp.doubleValue()));
    }

    private static Value pow(Value base, Value exp) {
        if (base.isInfinite() || exp.isInfinite()) {
            return finite(Math.pow(base.asDouble(), exp.asDouble()));
        }
        return pow(base.asNumber(), exp.asNumber());
    }

    private static Value finite(double d) {
        if (Double.isNaN(d)) {
            throw FunctionError.call("the result is not a number");
        }
        return Value.number(d);
    }

    private static Function extreme(String name, boolean max) {
        return Function.builder(name)
                .varParam(Dsl.p("numbers", Type.NUMBER))
                .returns(Type.NUMBER)
                .impl((a, t) -> {
                    if (a.isEmpty()) {
                        throw FunctionError.call("must pass at least one number");
                    }
                    BigDecimal best = num(a, 0);
                    for (int i = 1; i < a.size(); i++) {
                        BigDecimal n = num(a, i);
                        if (max ? n.compareTo(best) > 0 : n.compareTo(best) < 0) {
                            best = n;
                        }
                    }
                    return Value.number(best);
                })
                .build();
    }

    private static Value parseint(List<Value> a, Type t) {
        Value nv = a.get(0);
        if (!nv.type().equals(Type.STRING)) {
            throw FunctionError.arg(
                    0, "first argument must be a string, not " + nv.type().friendlyName());
        }
        BigDecimal b = num(a, 1);
        if (!Args.isWhole(b) || b.compareTo(BigDecimal.valueOf(2)) < 0 || b.compareTo(BigDecimal.valueOf(62)) > 0) {
            throw FunctionError.arg(1, "base must be a whole number between 2 and 62 inclusive");
        }
        int base = b.intValueExact();
        String s = str(a, 0);
        BigInteger parsed = parseBase(s, base);
        if (parsed == null) {
            throw FunctionError.argRevealing(0, "cannot parse " + Args.q(s) + " as a base " + base + " integer");
        }
        return Value.number(parsed);
    }

    /** Digits 0-9, then a-z (either case up to base 36), then A-Z as 36-61 above base 36. */
    private static BigInteger parseBase(String s, int base) {
        int i = 0;
        boolean neg = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            neg = s.charAt(0) == '-';
            i = 1;
        }
        if (i >= s.length()) {
            return null;
        }
        BigInteger r = BigInteger.ZERO;
        BigInteger bb = BigInteger.valueOf(base);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            int d;
            if (c >= '0' && c <= '9') {
                d = c - '0';
            } else if (c >= 'a' && c <= 'z') {
                d = c - 'a' + 10;
            } else if (c >= 'A' && c <= 'Z') {
                d = base <= 36 ? c - 'A' + 10 : c - 'A' + 36;
            } else {
                return null;
            }
            if (d >= base) {
                return null;
            }
            r = r.multiply(bb).add(BigInteger.valueOf(d));
        }
        return neg ? r.negate() : r;
    }
}
