package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Quote;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code format} and {@code formatlist}: Go-style verbs ({@code %v %#v %t %d %b %o %x %X %e %E %f
 * %g %G %s %q}), flags {@code - + # 0 space}, width, precision and explicit argument indexes
 * {@code %[n]v}. Floating-point verbs round the number's nearest 512-bit binary value, as
 * Terraform does, so {@code %.1f} of 0.05 gives {@code 0.1}.
 */
final class Format {
    private Format() {}

    static void register(Functions.Registry r) {
        r.add(Function.builder("format")
                .param("format", Type.STRING)
                .varParam(new Param("args", Type.DYNAMIC, true, true, false).rejectingDynamicType())
                .returns(Type.STRING)
                .impl((a, t) -> {
                    for (Value v : a.subList(1, a.size())) {
                        if (!v.isWhollyKnown()) {
                            return Value.unknown(Type.STRING);
                        }
                    }
                    return Value.string(format(a.get(0).asString(), a.subList(1, a.size())));
                })
                .build());
        r.add(Function.builder("formatlist")
                .param("format", Type.STRING)
                .varParam(new Param("args", Type.DYNAMIC, true, true, false).rejectingDynamicType())
                .returns(Type.list(Type.STRING))
                .impl(Format::formatlist)
                .build());
    }

    private static Value formatlist(List<Value> a, Type t) {
        int n = -1;
        int lenArg = -1;
        for (int i = 1; i < a.size(); i++) {
            Value v = a.get(i);
            if (!CollectionFuncs.isSeq(v.type())) {
                continue;
            }
            if (!v.isKnown()) {
                return Value.unknown(t);
            }
            if (v.isNull()) {
                // As in Terraform, a null list is one value repeated, printed "null" by %v.
                continue;
            }
            if (n < 0) {
                n = v.length();
                lenArg = i;
            } else if (v.length() != n) {
                throw FunctionError.arg(
                        i,
                        "argument " + i + " has length " + v.length() + ", which is inconsistent with argument "
                                + lenArg + " of length " + n);
            }
        }
        if (n < 0) {
            n = 1;
        }
        List<Value> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            List<Value> iter = new ArrayList<>();
            boolean unknown = false;
            for (int i = 1; i < a.size(); i++) {
                Value v = a.get(i);
                Value e = v.isKnown() && !v.isNull() && CollectionFuncs.isSeq(v.type())
                        ? v.elements().get(k)
                        : v;
                unknown |= !e.isWhollyKnown();
                iter.add(e);
            }
            if (unknown) {
                out.add(Value.unknown(Type.STRING));
                continue;
            }
            try {
                out.add(Value.string(format(a.get(0).asString(), iter)));
            } catch (FunctionError e) {
                throw FunctionError.callRevealing("error on format iteration " + k + ": " + e.getMessage());
            }
        }
        return Value.list(Type.STRING, out);
    }

    static String format(String f, List<Value> args) {
        StringBuilder out = new StringBuilder();
        int nextArg = 0;
        int i = 0;
        while (i < f.length()) {
            char c = f.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            int start = i;
            i++;
            if (i < f.length() && f.charAt(i) == '%') {
                out.append('%');
                i++;
                continue;
            }
            boolean minus = false;
            boolean plus = false;
            boolean sharp = false;
            boolean zero = false;
            boolean space = false;
            flags:
            while (i < f.length()) {
                switch (f.charAt(i)) {
                    case '-' -> minus = true;
                    case '+' -> plus = true;
                    case '#' -> sharp = true;
                    case '0' -> zero = true;
                    case ' ' -> space = true;
                    default -> {
                        break flags;
                    }
                }
                i++;
            }
            if (i < f.length() && f.charAt(i) == '[') {
                int close = f.indexOf(']', i);
                if (close < 0) {
                    throw FunctionError.call("unterminated argument index at offset " + start);
                }
                try {
                    nextArg = Integer.parseInt(f.substring(i + 1, close)) - 1;
                } catch (NumberFormatException e) {
                    nextArg = -1;
                }
                if (nextArg < 0) {
                    throw FunctionError.callRevealing(
                            "unrecognized format character '" + f.charAt(i + 1) + "' at offset " + (i + 1));
                }
                i = close + 1;
            }
            int width = -1;
            int ws = i;
            while (i < f.length() && Character.isDigit(f.charAt(i))) {
                i++;
            }
            if (i > ws) {
                width = Integer.parseInt(f.substring(ws, i));
            }
            int prec = -1;
            if (i < f.length() && f.charAt(i) == '.') {
                i++;
                int ps = i;
                while (i < f.length() && Character.isDigit(f.charAt(i))) {
                    i++;
                }
                prec = i > ps ? Integer.parseInt(f.substring(ps, i)) : 0;
            }
            if (i >= f.length()) {
                throw FunctionError.call("invalid format string starting at offset " + (start + 1));
            }
            int verb = f.codePointAt(i);
            i += Character.charCount(verb);
            String spec = f.substring(start, i);
            if ("vtbdoxXeEfgGsq".indexOf(verb) < 0) {
                throw FunctionError.callRevealing("unsupported format verb '" + new String(Character.toChars(verb))
                        + "' in " + Quote.quote(spec) + " at offset " + start);
            }
            if (nextArg >= args.size() || nextArg < 0) {
                throw FunctionError.callRevealing("not enough arguments for " + Quote.quote(spec) + " at " + start
                        + ": need index " + (nextArg + 1) + " but have " + args.size() + " total");
            }
            Value arg = args.get(nextArg++);
            String body;
            boolean numeric = false;
            String where = " for " + Quote.quote(spec) + " at " + start;
            if (arg.isNull() && verb != 'v') {
                throw FunctionError.call("unsupported value" + where + ": null value cannot be formatted");
            }
            switch (verb) {
                case 'v' -> {
                    if (arg.isNull()) {
                        body = "null";
                    } else if (sharp) {
                        body = Json.encode(arg);
                    } else if (arg.type().equals(Type.STRING)) {
                        body = arg.asString();
                    } else if (arg.type().equals(Type.NUMBER)) {
                        // %v prints numbers like %g with the shortest digits: 1e+06, 0.0001, 1e-05.
                        // cty prints the number first, then pads it as text: no sign flags, zeros not sign-aware.
                        body = arg.isInfinite() ? arg.numberText() : general(arg.asNumber(), -1, false);
                    } else if (arg.type().equals(Type.BOOL)) {
                        body = Boolean.toString(arg.asBool());
                    } else {
                        body = Json.encode(arg);
                    }
                }
                case 't' ->
                    body = Boolean.toString(
                            convert(arg, Type.BOOL, "a bool is required", where).asBool());
                case 's' ->
                    body = truncate(
                            convert(arg, Type.STRING, "string required", where).asString(), prec);
                case 'q' -> {
                    // cty quotes with JSON string syntax, not Go's %q.
                    StringBuilder q = new StringBuilder();
                    Json.string(
                            truncate(
                                    convert(arg, Type.STRING, "string required", where)
                                            .asString(),
                                    prec),
                            q);
                    body = q.toString();
                }
                case 'd', 'b', 'o', 'x', 'X' -> {
                    BigDecimal n = convert(arg, Type.NUMBER, "a number is required", where)
                            .asNumber();
                    if (!Args.isWhole(n)) {
                        throw FunctionError.call("unsupported value" + where + ": an integer is required");
                    }
                    BigInteger bi = n.toBigIntegerExact();
                    int radix = switch (verb) {
                        case 'b' -> 2;
                        case 'o' -> 8;
                        case 'x', 'X' -> 16;
                        default -> 10;
                    };
                    String digits = bi.abs().toString(radix);
                    if (verb == 'X') {
                        digits = digits.toUpperCase(java.util.Locale.ROOT);
                    }
                    if (sharp) {
                        digits = switch (verb) {
                            case 'b' -> "0b" + digits;
                            case 'o' -> "0" + digits;
                            case 'x' -> "0x" + digits;
                            case 'X' -> "0X" + digits;
                            default -> digits;
                        };
                    }
                    body = (bi.signum() < 0 ? "-" : "") + digits;
                    numeric = true;
                }
                default -> {
                    BigDecimal raw = convert(arg, Type.NUMBER, "a number is required", where)
                            .asNumber();
                    BigDecimal n = (verb == 'g' || verb == 'G') && prec < 0 ? raw : binary512(raw);
                    body = switch (verb) {
                        case 'f' ->
                            n.setScale(prec < 0 ? 6 : prec, RoundingMode.HALF_EVEN)
                                    .toPlainString();
                        case 'e', 'E' -> sci(n, prec < 0 ? 6 : prec, verb == 'E');
                        default -> general(n, prec, verb == 'G');
                    };
                    numeric = true;
                }
            }
            if (numeric && !body.startsWith("-")) {
                if (plus) {
                    body = "+" + body;
                } else if (space) {
                    body = " " + body;
                }
            }
            if (verb == 't') {
                out.append(body);
            } else if (verb == 'v' || verb == 's' || verb == 'q') {
                // Text is padded with the zero flag's zeros on whichever side the minus flag picks, as cty does.
                out.append(padText(body, width, minus, zero));
            } else {
                out.append(pad(body, width, minus, zero && numeric && !minus));
            }
        }
        return out.toString();
    }

    private static Value convert(Value v, Type t, String msg, String where) {
        ConversionResult r = Convert.convert(v, t);
        if (!r.isOk()) {
            throw FunctionError.call("unsupported value" + where + ": " + ((ConversionResult.Failed) r).message());
        }
        return r.value();
    }

    /** Precision of text counts user-perceived characters, so an emoji with a modifier is one. */
    private static String truncate(String s, int prec) {
        if (prec < 0) {
            return s;
        }
        List<String> chars = Args.graphemes(s);
        return chars.size() <= prec ? s : String.join("", chars.subList(0, prec));
    }

    /** Width of text also counts user-perceived characters (grapheme clusters), as Terraform does. */
    private static String padText(String s, int width, boolean left, boolean zeros) {
        int len = Args.graphemeCount(s);
        if (width <= len) {
            return s;
        }
        String fill = (zeros ? "0" : " ").repeat(width - len);
        return left ? s + fill : fill + s;
    }

    private static String pad(String s, int width, boolean left, boolean zeros) {
        int len = s.codePointCount(0, s.length());
        if (width <= len) {
            return s;
        }
        String fill = (zeros ? "0" : " ").repeat(width - len);
        if (left) {
            return s + fill;
        }
        if (zeros && !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+' || s.charAt(0) == ' ')) {
            return s.charAt(0) + fill + s.substring(1);
        }
        return fill + s;
    }

    static BigDecimal binary512(BigDecimal x) {
        return dev.strata.lang.value.Numbers.binary512(x);
    }

    private static String sci(BigDecimal n, int prec, boolean upper) {
        String digits;
        int exp;
        if (n.signum() == 0) {
            digits = "0".repeat(prec + 1);
            exp = 0;
        } else {
            BigDecimal r = n.abs().round(new MathContext(prec + 1, RoundingMode.HALF_EVEN));
            String u = r.unscaledValue().toString();
            exp = u.length() - r.scale() - 1;
            digits = (u + "0".repeat(prec + 1)).substring(0, prec + 1);
        }
        return (n.signum() < 0 ? "-" : "") + mantissa(digits) + expText(exp, upper);
    }

    private static String mantissa(String digits) {
        return digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    }

    private static String expText(int exp, boolean upper) {
        String e = String.format("%02d", Math.abs(exp));
        return (upper ? "E" : "e") + (exp < 0 ? "-" : "+") + e;
    }

    /** Go's %g: shortest digits, exponent form when the exponent is below -4 or too large. */
    private static String general(BigDecimal n, int prec, boolean upper) {
        BigDecimal a = n.abs();
        if (prec == 0) {
            prec = 1;
        }
        if (prec > 0 && a.signum() != 0) {
            a = a.round(new MathContext(prec, RoundingMode.HALF_EVEN));
        }
        String digits;
        int decExp;
        if (a.signum() == 0) {
            digits = "0";
            decExp = 1;
        } else {
            BigDecimal s = a.stripTrailingZeros();
            digits = s.unscaledValue().toString();
            decExp = digits.length() - s.scale();
        }
        int eprec = prec;
        if (eprec > digits.length() && digits.length() >= decExp) {
            eprec = digits.length();
        }
        if (prec < 0) {
            eprec = 6;
        }
        int exp = decExp - 1;
        String sign = n.signum() < 0 ? "-" : "";
        if (exp < -4 || exp >= eprec) {
            return sign + mantissa(digits) + expText(exp, upper);
        }
        int fprec = Math.max(digits.length() - decExp, 0);
        return sign + a.setScale(fprec, RoundingMode.HALF_EVEN).toPlainString();
    }
}
