package dev.strata.resilience;

import java.time.Duration;

/**
 * How Strata waits: between retries, before a paced request, and where waiting is the feature
 * ({@code time_sleep}). The one seam tests replace, to advance a simulated clock or record the waits
 * instead of sleeping. A wait ends early with {@link InterruptedException} when the thread is
 * interrupted (Ctrl-C, SIGTERM), so every caller stops promptly.
 */
@FunctionalInterface
public interface Sleeper {

    /** Really waits, on the thread's own time. */
    Sleeper SYSTEM = Thread::sleep;

    void sleep(Duration d) throws InterruptedException;
}
