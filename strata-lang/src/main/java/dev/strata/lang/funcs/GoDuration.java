package dev.strata.lang.funcs;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/** Go's {@code time.ParseDuration} syntax, which Terraform's duration flags (-lock-timeout) and resource {@code timeouts} use: {@code 10s}, {@code 1m30s}, {@code 1.5h}, {@code 0}. */
public final class GoDuration {
    private static final Map<String, Long> UNIT_NANOS = Map.of(
            "ns", 1L, "us", 1_000L, "µs", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L,
            "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {}

    /** The duration, or null when the text is not one (negative durations are refused too). */
    public static Duration parse(String s) {
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            return null;
        }
        BigDecimal total = BigDecimal.ZERO;
        int i = 0;
        if (s.charAt(0) == '+') {
            i++;
        }
        if (i >= s.length()) {
            return null;
        }
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            if (start == i) {
                return null;
            }
            BigDecimal number;
            try {
                number = new BigDecimal(s.substring(start, i));
            } catch (NumberFormatException e) {
                return null;
            }
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            Long nanos = UNIT_NANOS.get(s.substring(unitStart, i));
            if (nanos == null) {
                return null;
            }
            total = total.add(number.multiply(BigDecimal.valueOf(nanos)));
        }
        try {
            return Duration.ofNanos(total.longValueExact());
        } catch (ArithmeticException e) {
            return total.signum() > 0 ? Duration.ofNanos(Long.MAX_VALUE) : null;
        }
    }
}
