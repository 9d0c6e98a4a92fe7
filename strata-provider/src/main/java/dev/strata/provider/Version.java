package dev.strata.provider;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A provider version, {@code MAJOR.MINOR.PATCH} with an optional pre-release suffix, ordered as
 * semantic versions are (a pre-release sorts before its release).
 */
public record Version(List<Integer> segments, String prerelease) implements Comparable<Version> {

    private static final Pattern FORM = Pattern.compile("v?(\\d+(?:\\.\\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\\+[0-9A-Za-z.-]+)?");

    public Version {
        segments = List.copyOf(segments);
        if (segments.isEmpty() || segments.size() > 3) {
            throw new IllegalArgumentException("a version has one to three numbers");
        }
        prerelease = prerelease == null ? "" : prerelease;
    }

    public static Optional<Version> parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        List<Integer> segs = new ArrayList<>();
        for (String p : m.group(1).split("\\.")) {
            try {
                segs.add(Integer.parseInt(p));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        if (segs.size() > 3) {
            return Optional.empty();
        }
        return Optional.of(new Version(segs, m.group(2)));
    }

    public static Version of(String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException("not a version: " + text));
    }

    /** Segment {@code i}, zero when the version was written with fewer. */
    public int segment(int i) {
        return i < segments.size() ? segments.get(i) : 0;
    }

    public boolean isPrerelease() {
        return !prerelease.isEmpty();
    }

    @Override
    public int compareTo(Version o) {
        for (int i = 0; i < 3; i++) {
            int c = Integer.compare(segment(i), o.segment(i));
            if (c != 0) {
                return c;
            }
        }
        if (prerelease.equals(o.prerelease)) {
            return 0;
        }
        if (prerelease.isEmpty()) {
            return 1;
        }
        if (o.prerelease.isEmpty()) {
            return -1;
        }
        return prerelease.compareTo(o.prerelease);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Version v && compareTo(v) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(segment(0), segment(1), segment(2), prerelease);
    }

    /** Always three numbers, as registries list versions. */
    @Override
    public String toString() {
        return segment(0) + "." + segment(1) + "." + segment(2) + (prerelease.isEmpty() ? "" : "-" + prerelease);
    }
}
