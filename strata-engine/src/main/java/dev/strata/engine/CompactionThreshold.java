package dev.strata.engine;

import dev.strata.state.ResourceState;
import dev.strata.state.StateSnapshot;

/**
 * When a running apply folds its journal into the snapshot. Each compaction writes the whole state, so
 * a fixed number of entries between compactions makes their total cost grow with the square of the
 * estate; waiting for a number of entries proportional to the state's objects keeps it linear (each
 * compaction is paid for by at least {@link #PER_OBJECT} entries per object it writes), while the
 * minimum still bounds the journal of a small state.
 */
final class CompactionThreshold {
    /** Journal entries per object in the state before the next compaction. */
    static final int PER_OBJECT = 2;

    private final int minimum;
    private volatile int entries;

    CompactionThreshold(int minimum, StateSnapshot state) {
        if (minimum < 1) {
            throw new IllegalArgumentException("minimum must be at least 1");
        }
        this.minimum = minimum;
        this.entries = of(minimum, state);
    }

    /** Whether a journal of {@code journalSize} entries is due to be compacted. */
    boolean reached(int journalSize) {
        return journalSize >= entries;
    }

    /** Sets the next threshold from the state a compaction wrote. */
    void compacted(StateSnapshot state) {
        entries = of(minimum, state);
    }

    /** The number of entries that makes the next compaction due. */
    int entries() {
        return entries;
    }

    static int of(int minimum, StateSnapshot state) {
        long objects = 0;
        for (ResourceState r : state.resources()) {
            objects += r.instances().size();
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(minimum, objects * PER_OBJECT));
    }
}
