package dev.strata.lang.value;

import dev.strata.lang.types.DynamicType;
import dev.strata.lang.types.ListType;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.PrimitiveType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.TupleType;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The byte serialization that Terraform's value library (cty) computes for a set element. cty
 * buckets set elements by a checksum of these bytes and orders elements that have no natural
 * order (objects, lists, maps, tuples, sets) by comparing the bytes themselves, so reproducing
 * them is what makes a set of objects list in Terraform's order.
 *
 * <p>The format: {@code ?} for an unknown, {@code ~} for a null; numbers as Go's
 * {@code big.Float} prints them (10 significant digits, {@code %g} style); {@code T}/{@code F};
 * strings quoted as Go's {@code %q} does; lists, tuples and sets as {@code [} each element then
 * {@code ;} {@code ]}; maps as <code>{</code> quoted key {@code :} value {@code ;} <code>}</code>
 * in key order; objects as {@code <} each attribute value (in name order) then {@code ;}
 * {@code >}. Marks are ignored.
 */
final class SetHashBytes {
    private static final MathContext TEN_DIGITS = new MathContext(10, RoundingMode.HALF_EVEN);

    private SetHashBytes() {}

    static byte[] of(Value v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        append(v, out);
        return out.toByteArray();
    }

    private static void append(Value v, ByteArrayOutputStream out) {
        if (!v.isKnown()) {
            out.write('?');
            return;
        }
        if (v.isNull()) {
            out.write('~');
            return;
        }
        switch (v.type()) {
            case PrimitiveType p -> {
                switch (p) {
                    case STRING -> ascii(Quote.quote(v.asString()), out);
                    case NUMBER -> ascii(number(v), out);
                    case BOOL -> out.write(v.asBool() ? 'T' : 'F');
                }
            }
            case ListType l -> sequence(v, out);
            case SetType s -> sequence(v, out);
            case TupleType t -> sequence(v, out);
            case MapType m -> {
                out.write('{');
                for (Map.Entry<String, Value> e : v.attributes().entrySet()) {
                    ascii(Quote.quote(e.getKey()), out);
                    out.write(':');
                    append(e.getValue(), out);
                    out.write(';');
                }
                out.write('}');
            }
            case ObjectType o -> {
                out.write('<');
                for (Value a : v.attributes().values()) {
                    append(a, out);
                    out.write(';');
                }
                out.write('>');
            }
            case DynamicType d -> throw new IllegalStateException("a known value has a concrete type");
        }
    }

    private static void sequence(Value v, ByteArrayOutputStream out) {
        out.write('[');
        for (Value e : v.elements()) {
            append(e, out);
            out.write(';');
        }
        out.write(']');
    }

    private static void ascii(String s, ByteArrayOutputStream out) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
    }

    /**
     * A number as Go's {@code big.Float.String()} prints it: {@code %g} with 10 significant digits,
     * trailing zeros dropped, exponent form below 1e-4 or from 10 integer digits on.
     */
    static String number(Value v) {
        String text = v.numberText();
        if (text.equals("-0") || text.endsWith("Inf")) {
            return text;
        }
        BigDecimal n = v.asNumber();
        if (n.signum() == 0) {
            return "0";
        }
        BigDecimal r = n.abs().round(TEN_DIGITS).stripTrailingZeros();
        String mant = r.unscaledValue().toString();
        int exp = mant.length() - r.scale(); // value = 0.mant × 10^exp
        int prec = 10;
        int eprec = prec;
        if (eprec > mant.length() && mant.length() >= exp) {
            eprec = mant.length();
        }
        StringBuilder b = new StringBuilder(n.signum() < 0 ? "-" : "");
        int x = exp - 1;
        if (x < -4 || x >= eprec) {
            b.append(mant.charAt(0));
            if (mant.length() > 1) {
                b.append('.').append(mant, 1, mant.length());
            }
            b.append('e').append(x < 0 ? '-' : '+');
            String digits = Integer.toString(Math.abs(x));
            b.append(digits.length() < 2 ? "0" : "").append(digits);
            return b.toString();
        }
        if (prec > exp) {
            prec = mant.length();
        }
        int decimals = Math.max(prec - exp, 0);
        if (exp > 0) {
            for (int i = 0; i < exp; i++) {
                b.append(i < mant.length() ? mant.charAt(i) : '0');
            }
        } else {
            b.append('0');
        }
        if (decimals > 0) {
            b.append('.');
            for (int i = 1; i <= decimals; i++) {
                int at = exp - 1 + i;
                b.append(at >= 0 && at < mant.length() ? mant.charAt(at) : '0');
            }
        }
        return b.toString();
    }
}
