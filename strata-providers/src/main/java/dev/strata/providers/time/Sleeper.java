package dev.strata.providers.time;

import java.time.Duration;

/** Waits; a seam so that tests of {@code time_sleep} need not wait for real. */
@FunctionalInterface
interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
}
