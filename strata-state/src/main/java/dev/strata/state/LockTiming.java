package dev.strata.state;

import java.time.Clock;
import java.time.Duration;

/**
 * Timing of local locks. The defaults suit people; tests shorten them and inject a clock so that
 * staleness is decided by the clock they control, never by how fast the machine is.
 *
 * @param heartbeatInterval how often the holder refreshes its heartbeat
 * @param staleAfter        a heartbeat older than this marks a holder on another host (or a hung one) as gone
 * @param initialBackoff    first wait between attempts while waiting for a held lock
 * @param maxBackoff        the longest wait between attempts
 * @param clock             the time written into lock info and used to judge staleness
 */
record LockTiming(
        Duration heartbeatInterval, Duration staleAfter, Duration initialBackoff, Duration maxBackoff, Clock clock) {
    static final LockTiming DEFAULT = new LockTiming(
            Duration.ofSeconds(10),
            Duration.ofMinutes(2),
            Duration.ofMillis(50),
            Duration.ofSeconds(1),
            Clock.systemUTC());

    LockTiming withClock(Clock c) {
        return new LockTiming(heartbeatInterval, staleAfter, initialBackoff, maxBackoff, c);
    }
}
