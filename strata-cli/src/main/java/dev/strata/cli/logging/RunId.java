package dev.strata.cli.logging;

import java.util.UUID;

/** The id of one {@code strata} invocation, carried by every log line so one run can be followed across components. */
public final class RunId {
    /** MDC key and logger-context property under which the id is published. */
    public static final String KEY = "run_id";

    private RunId() {}

    /**
     * Twelve hex digits of a random UUID: short enough to read in a log line, and a clash between two runs
     * whose logs are read together is negligible (one in 2^48).
     */
    public static String generate() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }
}
