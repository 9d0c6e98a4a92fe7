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

    /**
     * The value cannot be used; {@code error} says why and where, and {@code shown} what Terraform shows
     * under its snippet.
     */
    record Invalid(Diagnostic error, Shown shown) implements Repetition {
        /** The error, with what {@code expression}'s references hold in {@code scope} where Terraform shows it. */
        public Diagnostic diagnostic(dev.strata.hcl.Expression expression, dev.strata.lang.eval.Scope scope) {
            return switch (shown) {
                case NOTHING -> error;
                case VALUES -> error.withValues(dev.strata.lang.eval.ExpressionValues.of(expression, scope));
                case SENSITIVE_VALUES ->
                    error.withValues(dev.strata.lang.eval.ExpressionValues.ofSensitiveCause(expression, scope));
            };
        }
    }

    /**
     * What Terraform shows under the snippet of an {@link Invalid} value's error: the references' values for a
     * count that is no number and for every for_each problem (sensitive ones too when sensitivity is the
     * problem), nothing for a count number out of range.
     */
    enum Shown {
        NOTHING,
        VALUES,
        SENSITIVE_VALUES
    }

    /** Decides a {@code count} value evaluated from the expression at {@code at}. */
    static Repetition checkCount(Value v, SourceRange at) {
        // Terraform converts to a number first, so a value of the wrong type is a type error even while unknown.
        ConversionResult c = Convert.convert(v.unmarkDeep(), Type.NUMBER);
        if (c instanceof ConversionResult.Failed f) {
            return invalid("Incorrect value type", "Invalid expression value: " + f.message() + ".", at, Shown.VALUES);
        }
        if (v.hasMarkDeep(Mark.EPHEMERAL)) {
            // Instances persist between plan and apply, so their number may not come from a value that does not.
            return invalid(
                    "Invalid count argument",
                    "The given \"count\" is derived from an ephemeral value, which means that Strata cannot persist it "
                            + "between plan/apply rounds. Use only non-ephemeral values to specify the number of "
                            + "resource instances.",
                    at,
                    Shown.NOTHING);
        }
        Value n = c.value();
        if (n.isNull()) {
            return invalid(
                    "Invalid count argument",
                    "The given \"count\" argument value is null. An integer is " + "required.",
                    at,
                    Shown.NOTHING);
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
                    at,
                    Shown.VALUES);
        }
        if (v.isNull()) {
            return invalid(
                    "Invalid for_each argument",
                    "The given \"for_each\" argument value is unsuitable: the "
                            + "given \"for_each\" argument value is null. A map, or set of strings is allowed.",
                    at,
                    Shown.VALUES);
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
                    at,
                    Shown.SENSITIVE_VALUES);
        }
        if (t instanceof SetType st && st.elem() != Type.STRING && st.elem() != Type.DYNAMIC) {
            return setOf(st.elem(), at);
        }
        if (!mapLike && !(t instanceof SetType)) {
            return invalid(
                    "Invalid for_each argument",
                    "The given \"for_each\" argument value is unsuitable: the "
                            + "\"for_each\" argument must be a map, or set of strings, and you have provided a value of type "
                            + t.friendlyName() + ".",
                    at,
                    Shown.VALUES);
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
        if (t instanceof SetType st && st.elem() == Type.DYNAMIC) {
            // Known, yet of no element type: a set of nulls only (toset([null])), refused for its type, as Terraform.
            return setOf(st.elem(), at);
        }
        for (Value el : raw.elements()) {
            if (el.isNull()) {
                return invalid(
                        "Invalid for_each set argument",
                        "The given \"for_each\" argument value is "
                                + "unsuitable: \"for_each\" sets must not contain null values.",
                        at,
                        Shown.VALUES);
            }
            Value key = el.unmark();
            if (key.type() != Type.STRING) {
                ConversionResult s = Convert.convert(key, Type.STRING);
                if (s instanceof ConversionResult.Failed) {
                    return setOf(key.type(), at);
                }
                key = s.value();
            }
            each.put(key.asString(), el);
        }
        return new ForEach(each);
    }

    private static Repetition setOf(Type elem, SourceRange at) {
        return invalid(
                "Invalid for_each set argument",
                "The given \"for_each\" argument value is unsuitable: \"for_each\" supports maps and sets of strings, "
                        + "but you have provided a set containing type " + elem.friendlyName() + ".",
                at,
                Shown.VALUES);
    }

    private static boolean isWholeInt64(BigDecimal d) {
        if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
            return false;
        }
        return d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
    }

    private static Repetition unsuitableCount(String why, SourceRange at) {
        return invalid(
                "Invalid count argument",
                "The given \"count\" argument value is unsuitable: " + why,
                at,
                Shown.NOTHING);
    }

    private static Repetition invalid(String summary, String detail, SourceRange at, Shown shown) {
        return new Invalid(Diagnostic.error(summary, detail, at), shown);
    }
}
