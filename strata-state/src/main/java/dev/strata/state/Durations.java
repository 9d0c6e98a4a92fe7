package dev.strata.state;

import java.time.Duration;

/** Durations for people: {@code 3s}, {@code 2m5s}, {@code 1h2m}. */
final class Durations {
    private Durations() {}

    static String human(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + (s % 60 == 0 ? "" : (s % 60) + "s");
        }
        return (s / 3600) + "h" + ((s % 3600) / 60 == 0 ? "" : ((s % 3600) / 60) + "m");
    }
}
