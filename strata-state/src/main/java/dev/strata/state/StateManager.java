package dev.strata.state;

import dev.strata.hcl.Result;

/**
 * An open workspace state: the snapshot read when it was opened, and the way to write the next one.
 * Holds the workspace's lock (if one was requested) until {@link #close()}.
 *
 * <p>Every write is atomic and durable before it returns, stamps the next serial (serials never go
 * backwards), refuses a snapshot of another lineage, and keeps the state as it was when opened in the
 * backup. Writing content equal to the current state is a no-op and keeps the serial.
 */
public interface StateManager extends AutoCloseable {

    String workspace();

    /** The current snapshot: as read, or as last written. Without a stored state, an empty one (serial 0, fresh lineage). */
    StateSnapshot state();

    /** Whether a state was stored when opened or has been written since. */
    boolean exists();

    /** The lock held, or null when opened with {@code -lock=false}. */
    LockInfo lock();

    /** Writes {@code next} (same lineage as {@link #state()}) with the next serial; returns what was written. */
    Result<StateSnapshot> persist(StateSnapshot next);

    /**
     * Replaces the state with one from elsewhere ({@code state push}). Without {@code force}, refuses a
     * different lineage or an older serial. The serial written is never below the current one.
     */
    Result<StateSnapshot> replace(StateSnapshot incoming, boolean force);

    /** Releases the lock. */
    @Override
    void close();
}
