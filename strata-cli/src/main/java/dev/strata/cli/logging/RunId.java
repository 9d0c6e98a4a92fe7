package dev.strata.cli.logging;

import java.util.concurrent.ThreadLocalRandom;

/** The id of one {@code strata} invocation, carried by every log line so one run can be followed across components. */
public final class RunId {
    /** MDC key and logger-context property under which the id is published. */
    public static final String KEY = "run_id";

    private RunId() {}

    /**
     * Twelve random hex digits: short enough to read in a log line, and a clash between two runs whose
     * logs are read together is negligible (one in 2^48). The id only tells runs apart, it guards
     * nothing, so it comes from the thread-local generator (seeded from the clocks) rather than from
     * {@code UUID.randomUUID()}, whose SecureRandom set-up costs every command about 25 ms of CPU.
     */
    public static String generate() {
        long bits = ThreadLocalRandom.current().nextLong() & 0xFFFF_FFFF_FFFFL;
        // The leading 1 keeps the zeros Long.toHexString would drop; substring removes it again.
        return Long.toHexString(bits | (1L << 48)).substring(1);
    }
}
