package dev.strata.addr;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version number of Terraform, a provider or a module, as HashiCorp's version libraries read it:
 * one to three numeric segments (missing ones count as zero), an optional pre-release and ignored
 * build metadata. A pre-release sorts before its release and pre-release identifiers compare as
 * semantic versioning says (numeric ones numerically, below alphanumeric ones). Equality is by
 * precedence: {@code 1.2} equals {@code 1.2.0}.
 */
public record Version(List<Long> segments, String prerelease) implements Comparable<Version> {
    private static final Pattern SYNTAX = Pattern.compile(
            "v?([0-9]+(?:\\.[0-9]+){0,2})(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?");

    /** {@code segments} as written, one to three. */
    public Version {
        segments = List.copyOf(segments);
        if (segments.isEmpty() || segments.size() > 3) {
            throw new IllegalArgumentException("a version has one to three numbers");
        }
        prerelease = prerelease == null ? "" : prerelease;
    }

    public static Optional<Version> parse(String s) {
        Matcher m = SYNTAX.matcher(s.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        List<Long> segs = new ArrayList<>(3);
        for (String p : m.group(1).split("\\.")) {
            try {
                segs.add(Long.parseLong(p));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.of(new Version(segs, m.group(2)));
    }

    public static Version of(String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException("not a version: " + text));
    }

    /** Segment {@code i}, zero when the version was written with fewer. */
    public long segment(int i) {
        return i < segments.size() ? segments.get(i) : 0;
    }

    /** How many numbers were written; {@code ~>} lets only the last of them grow. */
    public int specifiedSegments() {
        return segments.size();
    }

    public boolean isPrerelease() {
        return !prerelease.isEmpty();
    }

    /** The same version without its pre-release part. */
    Version core() {
        return new Version(segments, "");
    }

    @Override
    public int compareTo(Version o) {
        for (int i = 0; i < 3; i++) {
            int c = Long.compare(segment(i), o.segment(i));
            if (c != 0) {
                return c;
            }
        }
        if (prerelease.isEmpty() || o.prerelease.isEmpty()) {
            return Boolean.compare(prerelease.isEmpty(), o.prerelease.isEmpty());
        }
        String[] a = prerelease.split("\\.");
        String[] b = o.prerelease.split("\\.");
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            boolean an = a[i].chars().allMatch(Character::isDigit);
            boolean bn = b[i].chars().allMatch(Character::isDigit);
            int c;
            if (an && bn) {
                c = new BigInteger(a[i]).compareTo(new BigInteger(b[i]));
            } else if (an != bn) {
                c = an ? -1 : 1;
            } else {
                c = a[i].compareTo(b[i]);
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length, b.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Version v && compareTo(v) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(segment(0), segment(1), segment(2), prerelease);
    }

    /** Always three numbers, as Terraform and registries show versions. */
    @Override
    public String toString() {
        String s = segment(0) + "." + segment(1) + "." + segment(2);
        return prerelease.isEmpty() ? s : s + "-" + prerelease;
    }
}
