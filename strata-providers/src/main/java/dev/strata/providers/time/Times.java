package dev.strata.providers.time;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.sdk.Attrs;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Timestamp and duration handling shared by the time resources, with Go's semantics. */
final class Times {

    private Times() {}

    /** Go's {@code time.RFC3339} layout: seconds precision, {@code Z} for UTC. */
    static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");

    static final String[] PARTS = {"year", "month", "day", "hour", "minute", "second", "unix"};

    static void partAttributes(Block.Builder b) {
        b.attribute("year", Attribute.computed(Type.NUMBER).withDescription("Number year of timestamp."))
                .attribute("month", Attribute.computed(Type.NUMBER).withDescription("Number month of timestamp."))
                .attribute("day", Attribute.computed(Type.NUMBER).withDescription("Number day of timestamp."))
                .attribute("hour", Attribute.computed(Type.NUMBER).withDescription("Number hour of timestamp."))
                .attribute("minute", Attribute.computed(Type.NUMBER).withDescription("Number minute of timestamp."))
                .attribute("second", Attribute.computed(Type.NUMBER).withDescription("Number second of timestamp."))
                .attribute(
                        "unix",
                        Attribute.computed(Type.NUMBER)
                                .withDescription("Number of seconds since epoch time, e.g. `1581489373`."));
    }

    /** The base timestamp argument of {@code time_static}, {@code time_offset} and {@code time_rotating}. */
    static Attribute baseTimestamp() {
        return Attribute.optionalComputed(Type.STRING)
                .withDescription(
                        "Base timestamp in RFC3339 format (see RFC3339 time string e.g., `YYYY-MM-DDTHH:MM:SSZ`). Defaults"
                                + " to the current time.");
    }

    static Attribute triggers() {
        return Attribute.optional(Type.map(Type.STRING))
                .withDescription(
                        "Arbitrary map of values that, when changed, will trigger a new base timestamp value to be saved.");
    }

    /** The given base timestamp, or without one the current time in UTC to the second. */
    static OffsetDateTime givenOrNow(String given, Clock clock) {
        return given == null
                ? OffsetDateTime.now(clock)
                        .withOffsetSameInstant(ZoneOffset.UTC)
                        .withNano(0)
                : parse(given).orElseThrow();
    }

    /** The error for a known value of {@code attribute} in {@code config} that is not an RFC 3339 timestamp. */
    static void checkRfc3339(Value config, String attribute, ProviderDiagnostics.Builder diags) {
        Value v = Attrs.get(config, attribute).unmarkDeep();
        if (v.isKnownAndNotNull() && parse(v.asString()).isEmpty()) {
            diags.error(
                    "Invalid Attribute Value",
                    "Attribute " + attribute + " value must be a string in RFC3339 format",
                    AttributePath.of(attribute));
        }
    }

    static Optional<OffsetDateTime> parse(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static String format(OffsetDateTime t) {
        return RFC3339.format(t);
    }

    /** Alternating names and values of the part attributes of {@code t}. */
    static Object[] parts(OffsetDateTime t) {
        return new Object[] {
            "year", Value.number(t.getYear()), "month", Value.number(t.getMonthValue()), "day",
                    Value.number(t.getDayOfMonth()),
            "hour", Value.number(t.getHour()), "minute", Value.number(t.getMinute()), "second",
                    Value.number(t.getSecond()),
            "unix", Value.number(t.toEpochSecond()),
        };
    }

    /** Go's {@code AddDate}: months and days overflow into the next month instead of clamping (Jan 31 + 1 month = Mar 3). */
    static OffsetDateTime addDate(OffsetDateTime t, long years, long months, long days) {
        LocalDate first =
                LocalDate.of(t.getYear(), t.getMonthValue(), 1).plusYears(years).plusMonths(months);
        LocalDate date = first.plusDays(t.getDayOfMonth() - 1L + days);
        return OffsetDateTime.of(date, t.toLocalTime(), t.getOffset());
    }

    static long whole(BigDecimal n) {
        return n == null ? 0 : n.longValueExact();
    }

    private static final Pattern DURATION_PART = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)");

    /** Parses Go's duration syntax ({@code 30s}, {@code 1h30m}, {@code 1.5h}, {@code 300ms}). */
    static Optional<Duration> parseDuration(String text) {
        String s = text;
        boolean neg = false;
        if (s.startsWith("-") || s.startsWith("+")) {
            neg = s.startsWith("-");
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        if (s.isEmpty()) {
            return Optional.empty();
        }
        Matcher m = DURATION_PART.matcher(s);
        BigDecimal nanos = BigDecimal.ZERO;
        int pos = 0;
        while (pos < s.length()) {
            if (!m.find(pos)
                    || m.start() != pos
                    || m.group(1).isEmpty()
                    || m.group(1).equals(".")) {
                return Optional.empty();
            }
            long unit = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us", "µs", "μs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit)));
            pos = m.end();
        }
        Duration d = Duration.ofNanos(nanos.longValue());
        return Optional.of(neg ? d.negated() : d);
    }
}
