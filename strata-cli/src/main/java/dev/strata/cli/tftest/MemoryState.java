package dev.strata.cli.tftest;

import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import dev.strata.state.JournalEntry;
import dev.strata.state.LockInfo;
import dev.strata.state.StateManager;
import dev.strata.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of one state key of a test file, kept in memory only: {@code terraform test} writes no
 * state file and takes no lock, and the state is gone when the file's runs are cleaned up.
 */
final class MemoryState implements StateManager {
    private StateSnapshot current;
    private boolean exists;
    private final List<JournalEntry.Intent> intents = new ArrayList<>();

    MemoryState(String engineVersion) {
        this.current = StateSnapshot.empty(engineVersion);
    }

    @Override
    public String workspace() {
        return "default";
    }

    @Override
    public synchronized StateSnapshot state() {
        return current;
    }

    @Override
    public synchronized boolean exists() {
        return exists;
    }

    @Override
    public LockInfo lock() {
        return null;
    }

    @Override
    public synchronized Result<StateSnapshot> persist(StateSnapshot next) {
        current = next.withLineage(current.lineage()).withSerial(current.serial() + 1);
        exists = true;
        // Open intents stay open across a write (StateManager#persist): nothing here empties a journal.
        return Result.of(current);
    }

    @Override
    public synchronized Result<StateSnapshot> replace(StateSnapshot incoming, boolean force) {
        current = incoming.withSerial(Math.max(incoming.serial(), current.serial()));
        exists = true;
        return Result.of(current);
    }

    @Override
    public synchronized Result<StateSnapshot> append(JournalEntry entry) {
        if (entry instanceof JournalEntry.Intent i) {
            intents.add(i);
        } else if (entry instanceof JournalEntry.Completed c) {
            intents.removeIf(i -> i.operationId().equals(c.operationId()));
        }
        current = current.with(entry);
        exists = true;
        return Result.of(current);
    }

    @Override
    public synchronized Result<StateSnapshot> compact() {
        return Result.of(current, Diagnostics.NONE);
    }

    @Override
    public synchronized int journalSize() {
        return 0;
    }

    @Override
    public synchronized List<JournalEntry.Intent> openIntents() {
        return List.copyOf(intents);
    }

    @Override
    public void close() {}
}
