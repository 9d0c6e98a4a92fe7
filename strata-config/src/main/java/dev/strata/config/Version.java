package dev.strata.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version number as Terraform's version constraints read it (HashiCorp's go-version): up to three
 * numeric segments (missing ones are zero), an optional pre-release and ignored build metadata. A
 * pre-release sorts before its release, and pre-release identifiers compare as semantic versioning
 * says.
 */
public record Version(List<Long> segments, String prerelease, int specifiedSegments) implements Comparable<Version> {
    private static final Pattern SYNTAX = Pattern.compile(
            "v?([0-9]+(?:\\.[0-9]+){0,2})(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?");

    public Version {
        segments = List.copyOf(segments);
        prerelease = prerelease == null ? "" : prerelease;
    }

    public static Optional<Version> parse(String s) {
        Matcher m = SYNTAX.matcher(s.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        String[] parts = m.group(1).split("\\.");
        List<Long> segs = new ArrayList<>(3);
        for (String p : parts) {
            try {
                segs.add(Long.parseLong(p));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        int specified = segs.size();
        while (segs.size() < 3) {
            segs.add(0L);
        }
        return Optional.of(new Version(segs, m.group(2), specified));
    }

    public boolean isPrerelease() {
        return !prerelease.isEmpty();
    }

    /** The same version without its pre-release part. */
    Version core() {
        return new Version(segments, "", specifiedSegments);
    }

    @Override
    public int compareTo(Version o) {
        for (int i = 0; i < 3; i++) {
            int c = Long.compare(segments.get(i), o.segments.get(i));
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
                c = new java.math.BigInteger(a[i]).compareTo(new java.math.BigInteger(b[i]));
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

    /** Equality by precedence, as constraints compare: {@code 1.2} equals {@code 1.2.0}. */
    boolean sameAs(Version o) {
        return compareTo(o) == 0;
    }

    @Override
    public String toString() {
        String s = segments.get(0) + "." + segments.get(1) + "." + segments.get(2);
        return prerelease.isEmpty() ? s : s + "-" + prerelease;
    }
}
