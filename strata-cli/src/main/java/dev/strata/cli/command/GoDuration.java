package dev.strata.cli.command;

import java.time.Duration;

/** Go's duration syntax for the CLI's flags; the one parser lives in the engine (resource timeouts use it too). */
final class GoDuration {
    private GoDuration() {}

    /** The duration, or null when the text is not one (negative durations are refused too). */
    static Duration parse(String s) {
        return dev.strata.engine.GoDuration.parse(s);
    }
}
