package dev.strata.lang.funcs;

import static dev.strata.lang.funcs.Args.str;

import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** formatdate, plantimestamp, timeadd, timecmp, timestamp. */
final class DateTimeFuncs {
    private DateTimeFuncs() {}

    static void register(Functions.Registry r, FunctionContext ctx) {
        r.add(Function.builder("timestamp")
                .returns(Type.STRING)
                .impl((a, t) -> Value.string(rfc3339(ctx.clock().instant().atOffset(ZoneOffset.UTC))))
                .build());
        r.add(Function.builder("plantimestamp")
                .returns(Type.STRING)
                .impl((a, t) -> ctx.planTimestamp()
                        .map(i -> Value.string(rfc3339(i.atOffset(ZoneOffset.UTC))))
                        .orElse(Value.unknown(Type.STRING)))
                .build());
        r.add(Function.builder("timeadd")
                .param("timestamp", Type.STRING)
                .param("duration", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    OffsetDateTime ts = parse(str(a, 0), -1);
                    Duration d = parseDuration(str(a, 1));
                    return Value.string(rfc3339(ts.plus(d)));
                })
                .build());
        r.add(Function.builder("timecmp")
                .param("timestamp_a", Type.STRING)
                .param("timestamp_b", Type.STRING)
                .returns(Type.NUMBER)
                .impl((a, t) -> {
                    Instant x = parse(str(a, 0), 0).toInstant();
                    Instant y = parse(str(a, 1), 1).toInstant();
                    return Value.number(Integer.signum(x.compareTo(y)));
                })
                .build());
        r.add(Function.builder("formatdate")
                .param("format", Type.STRING)
                .param("time", Type.STRING)
                .returns(Type.STRING)
                .impl((a, t) -> {
                    OffsetDateTime ts = parse(str(a, 1), 1);
                    return Value.string(formatdate(str(a, 0), ts));
                })
                .build());
    }

    /** RFC 3339 without fractional seconds, as Go's time.RFC3339 layout prints. */
    static String rfc3339(OffsetDateTime t) {
        OffsetDateTime s = t.truncatedTo(ChronoUnit.SECONDS);
        String base = String.format(
                "%04d-%02d-%02dT%02d:%02d:%02d",
                s.getYear(), s.getMonthValue(), s.getDayOfMonth(), s.getHour(), s.getMinute(), s.getSecond());
        return base
                + (s.getOffset().getTotalSeconds() == 0 ? "Z" : s.getOffset().getId());
    }

    /** Parses an RFC 3339 timestamp, field by field, for error messages in Terraform's words. */
    static OffsetDateTime parse(String s, int arg) {
        int[] pos = {0};
        int year = field(s, pos, 4, "year", arg);
        expect(s, pos, '-', arg);
        int month = field(s, pos, 2, "month", arg);
        expect(s, pos, '-', arg);
        int day = field(s, pos, 2, "day", arg);
        if (pos[0] >= s.length() || (s.charAt(pos[0]) != 'T' && s.charAt(pos[0]) != 't')) {
            throw err(arg, "not a valid RFC3339 timestamp: missing required time introducer 'T'");
        }
        pos[0]++;
        int hour = field(s, pos, 2, "hour", arg);
        expect(s, pos, ':', arg);
        int min = field(s, pos, 2, "minute", arg);
        expect(s, pos, ':', arg);
        int sec = field(s, pos, 2, "second", arg);
        int nanos = 0;
        if (pos[0] < s.length() && s.charAt(pos[0]) == '.') {
            int st = ++pos[0];
            while (pos[0] < s.length() && Character.isDigit(s.charAt(pos[0]))) {
                pos[0]++;
            }
            String frac = s.substring(st, pos[0]);
            if (frac.isEmpty()) {
                throw bad(s, pos, "second", arg);
            }
            nanos = Integer.parseInt((frac + "000000000").substring(0, 9));
        }
        ZoneOffset off;
        if (pos[0] >= s.length()) {
            throw err(arg, "not a valid RFC3339 timestamp: end of string before UTC offset");
        }
        String rest = s.substring(pos[0]);
        if (rest.equals("Z") || rest.equals("z")) {
            off = ZoneOffset.UTC;
        } else if (rest.length() == 6
                && (rest.charAt(0) == '+' || rest.charAt(0) == '-')
                && rest.charAt(3) == ':'
                && rest.substring(1, 3).chars().allMatch(Character::isDigit)
                && rest.substring(4).chars().allMatch(Character::isDigit)) {
            int sign = rest.charAt(0) == '-' ? -1 : 1;
            off = ZoneOffset.ofHoursMinutes(
                    sign * Integer.parseInt(rest.substring(1, 3)), sign * Integer.parseInt(rest.substring(4)));
        } else {
            throw errRevealing(arg, "not a valid RFC3339 timestamp: cannot use " + Args.q(rest) + " as UTC offset");
        }
        if (month < 1 || month > 12) {
            throw err(arg, "not a valid RFC3339 timestamp: month out of range");
        }
        if (hour > 23) {
            throw err(arg, "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive");
        }
        if (min > 59) {
            throw err(arg, "not a valid RFC3339 timestamp: minute must be between 0 and 59 inclusive");
        }
        if (sec > 59) {
            throw err(arg, "not a valid RFC3339 timestamp: second must be between 0 and 59 inclusive");
        }
        if (day < 1 || day > java.time.YearMonth.of(year, month).lengthOfMonth()) {
            throw err(arg, "not a valid RFC3339 timestamp: day out of range");
        }
        return OffsetDateTime.of(year, month, day, hour, min, sec, nanos, off);
    }

    /** An error about argument {@code arg}, or about the call when {@code arg} is -1 (timeadd). */
    private static FunctionError err(int arg, String msg) {
        return arg < 0 ? FunctionError.call(msg) : FunctionError.arg(arg, msg);
    }

    private static FunctionError errRevealing(int arg, String msg) {
        return arg < 0 ? FunctionError.callRevealing(msg) : FunctionError.argRevealing(arg, msg);
    }

    private static int field(String s, int[] pos, int width, String name, int arg) {
        if (pos[0] + width > s.length()) {
            throw bad(s, pos, name, arg);
        }
        String f = s.substring(pos[0], pos[0] + width);
        if (!f.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw bad(s, pos, name, arg);
        }
        pos[0] += width;
        return Integer.parseInt(f);
    }

    private static void expect(String s, int[] pos, char c, int arg) {
        if (pos[0] >= s.length() || s.charAt(pos[0]) != c) {
            throw errRevealing(
                    arg,
                    "not a valid RFC3339 timestamp: cannot use " + Args.q(s.substring(Math.min(pos[0], s.length())))
                            + " as " + Args.q(String.valueOf(c)));
        }
        pos[0]++;
    }

    private static FunctionError bad(String s, int[] pos, String name, int arg) {
        return errRevealing(
                arg,
                "not a valid RFC3339 timestamp: cannot use " + Args.q(s.substring(Math.min(pos[0], s.length())))
                        + " as " + name);
    }

    /** Go's time.ParseDuration: e.g. "1h30m", "-1.5s", "300ms"; units ns us µs ms s m h. */
    static Duration parseDuration(String text) {
        return switch (GoDuration.parseSigned(text)) {
            case GoDuration.Valid v -> v.duration();
            case GoDuration.Invalid i -> throw FunctionError.callRevealing(i.message());
        };
    }

    static String formatdate(String f, OffsetDateTime t) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < f.length()) {
            char c = f.charAt(i);
            if (c == '\'') {
                int j = i + 1;
                StringBuilder lit = new StringBuilder();
                boolean closed = false;
                while (j < f.length()) {
                    if (f.charAt(j) == '\'') {
                        if (j + 1 < f.length() && f.charAt(j + 1) == '\'' && j > i + 1) {
                            lit.append('\'');
                            j += 2;
                            continue;
                        }
                        closed = true;
                        break;
                    }
                    lit.append(f.charAt(j++));
                }
                if (!closed) {
                    throw FunctionError.arg(0, "unterminated literal '");
                }
                out.append(j == i + 1 ? "'" : lit);
                i = j + 1;
                continue;
            }
            if (!Character.isLetter(c)) {
                out.append(c);
                i++;
                continue;
            }
            int j = i;
            while (j < f.length() && f.charAt(j) == c) {
                j++;
            }
            String verb = f.substring(i, j);
            out.append(verb(verb, t));
            i = j;
        }
        return out.toString();
    }

    private static String verb(String v, OffsetDateTime t) {
        int n = v.length();
        String bad = "invalid date format verb " + Args.q(v);
        switch (v.charAt(0)) {
            case 'Y' -> {
                if (n == 2) {
                    return String.format("%02d", t.getYear() % 100);
                }
                if (n == 4) {
                    return String.format("%04d", t.getYear());
                }
                throw FunctionError.argRevealing(0, bad + ": year must either be \"YY\" or \"YYYY\"");
            }
            case 'M' -> {
                return switch (n) {
                    case 1 -> Integer.toString(t.getMonthValue());
                    case 2 -> String.format("%02d", t.getMonthValue());
                    case 3 -> t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
                    case 4 -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
                    default ->
                        throw FunctionError.argRevealing(
                                0, bad + ": month must be \"M\", \"MM\", \"MMM\", or \"MMMM\"");
                };
            }
            case 'D' -> {
                return switch (n) {
                    case 1 -> Integer.toString(t.getDayOfMonth());
                    case 2 -> String.format("%02d", t.getDayOfMonth());
                    default ->
                        throw FunctionError.argRevealing(0, bad + ": day of month must either be \"D\" or \"DD\"");
                };
            }
            case 'E' -> {
                return switch (n) {
                    case 3 -> t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
                    case 4 -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
                    default ->
                        throw FunctionError.argRevealing(0, bad + ": day of week must either be \"EEE\" or \"EEEE\"");
                };
            }
            case 'h' -> {
                return pad(t.getHour(), n, bad + ": 24-hour must either be \"h\" or \"hh\"");
            }
            case 'H' -> {
                int h12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
                return pad(h12, n, bad + ": 12-hour must either be \"H\" or \"HH\"");
            }
            case 'm' -> {
                return pad(t.getMinute(), n, bad + ": minute must either be \"m\" or \"mm\"");
            }
            case 's' -> {
                return pad(t.getSecond(), n, bad + ": second must either be \"s\" or \"ss\"");
            }
            case 'a' -> {
                if (n != 2) {
                    throw FunctionError.argRevealing(0, bad + ": must be \"aa\"");
                }
                return t.getHour() < 12 ? "am" : "pm";
            }
            case 'A' -> {
                if (n != 2) {
                    throw FunctionError.argRevealing(0, bad + ": must be \"AA\"");
                }
                return t.getHour() < 12 ? "AM" : "PM";
            }
            case 'Z' -> {
                int secs = t.getOffset().getTotalSeconds();
                String sign = secs < 0 ? "-" : "+";
                int abs = Math.abs(secs);
                String hh = String.format("%02d", abs / 3600);
                String mm = String.format("%02d", (abs / 60) % 60);
                return switch (n) {
                    case 1 -> secs == 0 ? "Z" : sign + hh + ":" + mm;
                    case 3 -> secs == 0 ? "UTC" : sign + hh + mm;
                    case 4 -> sign + hh + mm;
                    case 5 -> sign + hh + ":" + mm;
                    default -> throw FunctionError.argRevealing(0, bad + ": timezone must be Z, ZZZZ, or ZZZZZ");
                };
            }
            default -> throw FunctionError.argRevealing(0, bad);
        }
    }

    private static String pad(int v, int n, String err) {
        return switch (n) {
            case 1 -> Integer.toString(v);
            case 2 -> String.format("%02d", v);
            default -> throw FunctionError.argRevealing(0, err);
        };
    }
}
