package dev.strata.lang.funcs;

import java.math.BigDecimal;
import java.time.Duration;

/** Go's {@code time.ParseDuration} syntax, which Terraform's duration flags (-lock-timeout) and resource {@code timeouts} use: {@code 10s}, {@code 1m30s}, {@code 1.5h}, {@code 0}. */
public final class GoDuration {
    private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

    private GoDuration() {}

    /** What parsing gives: a duration, which may be negative, or Go's error text. */
    sealed interface Outcome permits Valid, Invalid {}

    record Valid(Duration duration) implements Outcome {}

    /** @param overflow whether the text is well-formed but its value beyond what a duration holds (±292 years) */
    record Invalid(String message, boolean overflow) implements Outcome {}

    /**
     * The duration, or null when the text is not one. Negative durations are refused, and one too large
     * for a duration is the largest one (a wait that never ends in practice).
     */
    public static Duration parse(String s) {
        if (s.startsWith("-")) {
            return null;
        }
        return switch (parseSigned(s)) {
            case Valid v -> v.duration();
            case Invalid i -> i.overflow() ? Duration.ofNanos(Long.MAX_VALUE) : null;
        };
    }

    /** Go's {@code time.ParseDuration}: an optional sign, then one or more decimal numbers each with a unit. */
    static Outcome parseSigned(String text) {
        String s = text;
        Invalid invalid = new Invalid("time: invalid duration " + Args.q(text), false);
        boolean neg = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            neg = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return new Valid(Duration.ZERO);
        }
        if (s.isEmpty()) {
            return invalid;
        }
        BigDecimal totalNanos = BigDecimal.ZERO;
        int i = 0;
        while (i < s.length()) {
            int st = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String num = s.substring(st, i);
            if (num.isEmpty() || num.equals(".") || num.indexOf('.') != num.lastIndexOf('.')) {
                return invalid;
            }
            int us = i;
            while (i < s.length() && !(Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String unit = s.substring(us, i);
            if (unit.isEmpty()) {
                return new Invalid("time: missing unit in duration " + Args.q(text), false);
            }
            long scale;
            switch (unit) {
                case "ns" -> scale = 1L;
                case "us", "\u00b5s", "\u03bcs" -> scale = 1_000L;
                case "ms" -> scale = 1_000_000L;
                case "s" -> scale = 1_000_000_000L;
                case "m" -> scale = 60_000_000_000L;
                case "h" -> scale = 3_600_000_000_000L;
                default -> {
                    return new Invalid("time: unknown unit " + Args.q(unit) + " in duration " + Args.q(text), false);
                }
            }
            totalNanos = totalNanos.add(
                    new BigDecimal(num.endsWith(".") ? num + "0" : num).multiply(BigDecimal.valueOf(scale)));
        }
        BigDecimal whole = totalNanos.setScale(0, java.math.RoundingMode.DOWN);
        if (whole.compareTo(MAX_NANOS) > 0) {
            return new Invalid(invalid.message(), true);
        }
        long nanos = whole.longValueExact();
        return new Valid(Duration.ofNanos(neg ? -nanos : nanos));
    }
}
