package dev.strata.lang.value;

import dev.strata.lang.types.PrimitiveType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The order of set elements, as Terraform's value library (cty) lists them (and so as plans, plan
 * JSON and state show them): non-null known values first, then unknowns, then nulls; among known
 * values strings by Unicode code point (the byte order of their UTF-8 encodings), numbers by
 * value, {@code false} before {@code true}, and every other type (objects, lists, maps, tuples,
 * sets) by the bytes of cty's set-hash serialization ({@link SetHashBytes}). Elements that compare
 * equal (two unknowns, or two objects holding unknowns in the same places) keep the order they
 * were given in. Elements of different types, which only a set of the dynamic type can hold,
 * are ordered by their type expression first.
 */
public final class ValueOrder implements Comparator<Value> {
    public static final ValueOrder INSTANCE = new ValueOrder();

    private ValueOrder() {}

    /** Compares strings by code point, the byte order of their UTF-8 encodings. */
    public static int compareStrings(String a, String b) {
        // UTF-16 code units order as code points except where a surrogate meets a unit above it
        // (U+E000..U+FFFF): only a first difference involving a surrogate needs the code point walk.
        int n = Math.min(a.length(), b.length());
        for (int k = 0; k < n; k++) {
            char ca = a.charAt(k);
            char cb = b.charAt(k);
            if (ca != cb) {
                if (Character.isSurrogate(ca) || Character.isSurrogate(cb)) {
                    return compareCodePoints(a, b);
                }
                return Integer.compare(ca, cb);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /** The plain walk by code points; also what the fast path is tested against. */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /**
     * The distinct elements of a set in cty's order. As in cty, a value that is not wholly known
     * never equals another, so {@code [unknown, unknown]} stays two elements; wholly known equal
     * values collapse into the first. Elements must already be unmarked.
     */
    static List<Value> setElements(Iterable<Value> elems) {
        List<Keyed> keyed = new ArrayList<>();
        Set<Value> seen = new HashSet<>();
        for (Value e : elems) {
            if (e.isWhollyKnown() && !seen.add(e)) {
                continue;
            }
            keyed.add(new Keyed(e));
        }
        // List.sort is stable: ties keep the given order, as cty's stable sort does.
        keyed.sort(Keyed::compareTo);
        List<Value> out = new ArrayList<>(keyed.size());
        for (Keyed k : keyed) {
            out.add(k.value);
        }
        return out;
    }

    @Override
    public int compare(Value a, Value b) {
        return new Keyed(a).compareTo(new Keyed(b));
    }

    /** A value with its serialization computed once, for sorting. */
    private static final class Keyed {
        final Value value;
        final int state;
        byte[] bytes;

        Keyed(Value v) {
            value = v;
            state = !v.isKnown() ? 1 : v.isNull() ? 2 : 0;
        }

        int compareTo(Keyed o) {
            if (!value.type().equals(o.value.type())) {
                return value.type().typeExpr().compareTo(o.value.type().typeExpr());
            }
            if (state != 0 || o.state != 0) {
                return Integer.compare(state, o.state);
            }
            if (value.type() instanceof PrimitiveType p) {
                return switch (p) {
                    case STRING -> compareStrings(value.asString(), o.value.asString());
                    case NUMBER -> compareNumbers(value, o.value);
                    case BOOL -> Boolean.compare(value.asBool(), o.value.asBool());
                };
            }
            return Arrays.compareUnsigned(bytes(), o.bytes());
        }

        byte[] bytes() {
            if (bytes == null) {
                bytes = SetHashBytes.of(value);
            }
            return bytes;
        }
    }

    /** By value, with -Inf below and +Inf above every finite number, and -0 just below 0. */
    static int compareNumbers(Value a, Value b) {
        int ra = rank(a);
        int rb = rank(b);
        if (ra != 0 || rb != 0) {
            return Integer.compare(ra, rb);
        }
        int c = a.asNumber().compareTo(b.asNumber());
        // -0 and 0 are distinct elements; Terraform lists -0 first.
        return c != 0
                ? c
                : Boolean.compare(!a.numberText().equals("-0"), !b.numberText().equals("-0"));
    }

    private static int rank(Value v) {
        if (!v.isInfinite()) {
            return 0;
        }
        return v.asDouble() > 0 ? 1 : -1;
    }
}
