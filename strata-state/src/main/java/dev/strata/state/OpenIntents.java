package dev.strata.state;

import dev.strata.hcl.Result;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The operations a journal has an {@link JournalEntry.Intent} for and no {@link JournalEntry.Completed} yet,
 * in the order they started: what a crash may have left half done. Not thread-safe; each state manager
 * guards it with its own monitor.
 */
final class OpenIntents {
    private final Map<String, JournalEntry.Intent> open = new LinkedHashMap<>();

    /** Opens an intent, closes it on its completion; other entries leave the set alone. */
    void track(JournalEntry entry) {
        switch (entry) {
            case JournalEntry.Intent i -> open.put(i.operationId(), i);
            case JournalEntry.Completed c -> open.remove(c.operationId());
            case JournalEntry.SetObject o -> {}
            case JournalEntry.RemoveObject o -> {}
            case JournalEntry.SetOutput o -> {}
            case JournalEntry.RemoveOutput o -> {}
        }
    }

    void addAll(Collection<JournalEntry.Intent> intents) {
        intents.forEach(this::track);
    }

    List<JournalEntry.Intent> list() {
        return List.copyOf(open.values());
    }

    /**
     * After a compaction emptied the journal: writes each intent still open into the new journal (with
     * {@code append}, which tracks it again), so that a crash after the compaction still finds it. Returns
     * the first failed append, or null when all were written.
     */
    Result<StateSnapshot> reappend(Function<JournalEntry, Result<StateSnapshot>> append) {
        List<JournalEntry.Intent> still = list();
        open.clear();
        for (JournalEntry.Intent i : still) {
            Result<StateSnapshot> r = append.apply(i);
            if (r.hasErrors()) {
                return r;
            }
        }
        return null;
    }
}
