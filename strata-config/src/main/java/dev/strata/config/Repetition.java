package dev.strata.config;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.SourceRange;
import dev.strata.lang.types.MapType;
import dev.strata.lang.types.ObjectType;
import dev.strata.lang.types.SetType;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.ConversionResult;
import dev.strata.lang.value.Convert;
import dev.strata.lang.value.Mark;
import dev.strata.lang.value.Value;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The one decision on the value of a {@code count} or {@code for_each} argument: how many instances
 * (or which keys), not known yet, or why the value is unusable. Static validation and expansion both
 * ask here, so a value gets the same diagnostic whichever phase meets it first, with Terraform's
 * texts. Only a value that is not known may wait for a later phase (§3.6): a known value is
 * decided, and rejected, at once.
 */
public sealed interface Repetition {
    /** The largest count Strata expands: instance indexes are Java ints. */
    int MAX_COUNT = Integer.MAX_VALUE;

    /** {@code count} is known: this many instances, keyed 0 to count - 1. */
    record Count(int count) implements Repetition {}

    /** {@code for_each} keys are known: {@code each.value} by {@code each.key}, in key order (values may be unknown). */
    record ForEach(SortedMap<String, Value> each) implements Repetition {
        public ForEach {
            each = Collections.unmodifiableSortedMap(new TreeMap<>(each));
        }
    }

    /** Not known yet: the instances are decided when the value is (a plan defers them to the apply). */
    record Unknown() implements Repetition {}

    /** The value cannot be used; {@code error} says why and where. */
    record Invalid(Diagnostic error) implements Repetition {}

    /** Decides a {@code count} value evaluated from the expression at {@code at}. */
    static Repetition checkCount(Value v, SourceRange at) {
        // Terraform converts to a number first, so a value of the wrong type is a type error even while unknown.
        ConversionResult c = Convert.convert(v.unmarkDeep(), Type.NUMBER);
        if (c instanceof ConversionResult.Failed f) {
            return invalid("Incorrect value type", "Invalid expression value: " + f.message() + ".", at);
        }
        if (v.hasMarkDeep(Mark.EPHEMERAL)) {
            // Instances persist between plan and apply, so their number may not come from a value that does not.
            return invalid(
                    "Invalid count argument",
                    "The given \"count\" is derived from an ephemeral value, which means that Strata cannot persist it "
                            + "between plan/apply rounds. Use only non-ephemeral values to specify the number of "
                            + "resource instances.",
                    at);
        }
        Value n = c.value();
        if (n.isNull()) {
            return invalid(
                    "Invalid count argument",
                    "The given \"count\" argument value is null. An integer is " + "required.",
                    at);
        }
        if (!n.isKnown()) {
            return new Unknown();
        }
        // A sensitive count is allowed, as in Terraform: instance indexes do not show the value's text.
        if (n.isInfinite() || !isWholeInt64(n.asNumber())) {
            return unsuitableCount(
                    "value must be a whole number, between -9223372036854775808 and " + "9223372036854775807.", at);
        }
        BigDecimal d = n.asNumber();
        if (d.signum() < 0) {
            return unsuitableCount("must be greater than or equal to zero.", at);
        }
        if (d.compareTo(BigDecimal.valueOf(MAX_COUNT)) > 0) {
            return unsuitableCount(
                    "Strata supports at most " + MAX_COUNT + " instances of one resource or module.", at);
        }
        return new Count(d.intValueExact());
    }

    /** Decides a {@code for_each} value evaluated from the expression at {@code at}. */
    static Repetition checkForEach(Value v, SourceRange at) {
        if (v.hasMarkDeep(Mark.EPHEMERAL)) {
            return invalid(
                    "Invalid for_each argument",
                    "The given \"for_each\" value is derived from an ephemeral value, which means that Strata cannot "
                            + "persist it between plan/apply rounds. Use only non-ephemeral values to specify a "
                            + "resource's instance keys.",
                    at);
        }
        if (v.isNull()) {
            return invalid(
                    "Invalid for_each argument",
                    "The given \"for_each\" argument value is unsuitable: the "
                            + "given \"for_each\" argument value is null. A map, or set of strings is allowed.",
                    at);
        }
        if (!v.isKnown()) {
            return new Unknown();
        }
        Type t = v.type();
        boolean mapLike = t instanceof MapType || t instanceof ObjectType;
        // Keys become part of instance addresses, shown everywhere; values (each.value) may be sensitive.
        if (v.hasMark(Mark.SENSITIVE) || t instanceof SetType && v.hasMarkDeep(Mark.SENSITIVE)) {
            return invalid(
                    "Invalid for_each argument",
                    "Sensitive values, or values derived from sensitive values, "
                            + "cannot be used as for_each arguments. If used, the sensitive value could be exposed as a "
                            + "resource instance key.",
                    at);
        }
        if (t instanceof SetType st && st.elem() != Type.STRING && st.elem() != Type.DYNAMIC) {
            return invalid(
                    "Invalid for_each set argument",
                    "The given \"for_each\" argument value is unsuitable: "
                            + "\"for_each\" supports maps and sets of strings, but you have provided a set containing type "
                            + st.elem().friendlyName() + ".",
                    at);
        }
        if (!mapLike && !(t instanceof SetType)) {
            return invalid(
                    "Invalid for_each argument",
                    "The given \"for_each\" argument value is unsuitable: the "
                            + "\"for_each\" argument must be a map, or set of strings, and you have provided a value of type "
                            + t.friendlyName() + ".",
                    at);
        }
        Value raw = v.unmark();
        SortedMap<String, Value> each = new TreeMap<>();
        if (mapLike) {
            // Known keys are enough: unknown values are each.value, known later.
            each.putAll(raw.attributes());
            return new ForEach(each);
        }
        if (!raw.isWhollyKnown()) {
            return new Unknown();
        }
        for (Value el : raw.elements()) {
            if (el.isNull()) {
                return invalid(
                        "Invalid for_each set argument",
                        "The given \"for_each\" argument value is "
                                + "unsuitable: \"for_each\" sets must not contain null values.",
                        at);
            }
            Value key = el.unmark();
            if (key.type() != Type.STRING) {
                ConversionResult s = Convert.convert(key, Type.STRING);
                if (s instanceof ConversionResult.Failed) {
                    return invalid(
                            "Invalid for_each set argument",
                            "The given \"for_each\" argument value is "
                                    + "unsuitable: \"for_each\" supports maps and sets of strings, but you have provided a "
                                    + "set containing type " + key.type().friendlyName() + ".",
                            at);
                }
                key = s.value();
            }
            each.put(key.asString(), el);
        }
        return new ForEach(each);
    }

    private static boolean isWholeInt64(BigDecimal d) {
        if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
            return false;
        }
        return d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
    }

    private static Repetition unsuitableCount(String why, SourceRange at) {
        return invalid("Invalid count argument", "The given \"count\" argument value is unsuitable: " + why, at);
    }

    private static Repetition invalid(String summary, String detail, SourceRange at) {
        return new Invalid(Diagnostic.error(summary, detail, at));
    }
}
