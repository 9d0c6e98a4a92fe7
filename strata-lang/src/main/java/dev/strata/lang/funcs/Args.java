package dev.strata.lang.funcs;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;

/** Small helpers shared by function implementations. */
final class Args {
    private Args() {}

    static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    static String str(List<Value> args, int i) {
        return args.get(i).asString();
    }

    static BigDecimal num(List<Value> args, int i) {
        return args.get(i).asNumber();
    }

    static boolean isWhole(BigDecimal n) {
        return n.signum() == 0 || n.stripTrailingZeros().scale() <= 0;
    }

    /** A whole number that fits in an int, or a call error with cty's wording. */
    static int integer(List<Value> args, int i, boolean blameArg, String what) {
        BigDecimal n = num(args, i);
        if (!isWhole(n)
                || n.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0
                || n.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            String msg = "invalid " + what
                    + ": value must be a whole number, between -9223372036854775808 and 9223372036854775807";
            throw blameArg ? FunctionError.arg(i, msg) : FunctionError.call(msg);
        }
        return n.intValueExact();
    }

    static Value strList(List<String> items) {
        List<Value> vs = new ArrayList<>(items.size());
        for (String s : items) {
            vs.add(Value.string(s));
        }
        return Value.list(Type.STRING, vs);
    }

    /** User-perceived characters (extended grapheme clusters), as Terraform counts them. */
    static List<String> graphemes(String s) {
        List<String> out = new ArrayList<>();
        BreakIterator it = BreakIterator.getCharacterInstance(java.util.Locale.ROOT);
        it.setText(s);
        int start = it.first();
        for (int end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
            out.add(s.substring(start, end));
        }
        return out;
    }

    /**
     * How many user-perceived characters {@link #graphemes} finds, without building them. In ASCII
     * text every character is a cluster of its own except CR LF, which is one; any other text goes
     * through the break iterator.
     */
    static int graphemeCount(String s) {
        int n = s.length();
        int crlf = 0;
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch >= 0x80) {
                return graphemes(s).size();
            }
            if (ch == '\n' && i > 0 && s.charAt(i - 1) == '\r') {
                crlf++;
            }
        }
        return n - crlf;
    }

    /** Union of the marks on the arguments themselves (not inside them). */
    static java.util.Set<dev.strata.lang.value.Mark> topMarks(List<Value> args) {
        java.util.EnumSet<dev.strata.lang.value.Mark> m = java.util.EnumSet.noneOf(dev.strata.lang.value.Mark.class);
        args.forEach(a -> m.addAll(a.marks()));
        return m;
    }

    /** The arguments without their own marks; marks inside them stay where they are. */
    static List<Value> unmarkTop(List<Value> args) {
        List<Value> out = new ArrayList<>(args.size());
        args.forEach(a -> out.add(a.unmark()));
        return out;
    }

    static String q(String s) {
        return dev.strata.lang.value.Quote.quote(s);
    }
}
