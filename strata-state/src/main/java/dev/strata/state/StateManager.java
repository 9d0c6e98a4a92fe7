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

    /**
     * Writes {@code next} (same lineage as {@link #state()}) with the next serial, which also empties the
     * journal (its entries are expected to be part of {@code next}); returns what was written. The
     * {@linkplain #openIntents() open intents} stay open: a manager whose journal this empties writes each
     * of them into the new journal, once, before returning, so that a crash right after still finds them.
     * Callers never append them again.
     */
    Result<StateSnapshot> persist(StateSnapshot next);

    /**
     * Replaces the state with one from elsewhere ({@code state push}). Without {@code force}, refuses a
     * different lineage or an older serial. The serial written is never below the current one.
     */
    Result<StateSnapshot> replace(StateSnapshot incoming, boolean force);

    /**
     * Durably appends one change to the journal beside the snapshot and returns the state with it
     * applied; durable when this returns, at a cost proportional to the entry (ARCHITECTURE §3.8).
     * Needs the lock. The first append to a workspace without a stored state writes the (empty)
     * snapshot first, to fix its lineage.
     */
    Result<StateSnapshot> append(JournalEntry entry);

    /**
     * Durably appends several changes, in order, as one step: all of them are durable when this returns,
     * and a crash before leaves at most the first ones, as separate appends would. A manager may make them
     * durable together (one sync for all: an apply records an object and the end of its operation's intent
     * at once); this default appends them one by one. Stops at the first error.
     */
    default Result<StateSnapshot> appendAll(java.util.List<JournalEntry> entries) {
        Result<StateSnapshot> last = Result.of(state());
        for (JournalEntry e : entries) {
            last = append(e);
            if (last.hasErrors()) {
                return last;
            }
        }
        return last;
    }

    /**
     * Folds the journal into the snapshot (a normal write with the next serial) and empties it; the open
     * intents are carried into the new journal as with {@link #persist}.
     */
    Result<StateSnapshot> compact();

    /** Journal entries not yet folded into the snapshot. */
    int journalSize();

    /**
     * Intents in the journal without their {@link JournalEntry.Completed}: operations that may have run
     * without their result being recorded (after a crash, the engine checks these objects first).
     */
    java.util.List<JournalEntry.Intent> openIntents();

    /**
     * Checks, without changing anything, that the next writes can succeed: the files this state is
     * written to exist writable or can be created. Errors name the path and the operating system's
     * reason. Commands call it before their first change to infrastructure.
     */
    default dev.strata.hcl.Diagnostics checkWritable() {
        return dev.strata.hcl.Diagnostics.NONE;
    }

    /** Releases the lock. */
    @Override
    void close();
}
