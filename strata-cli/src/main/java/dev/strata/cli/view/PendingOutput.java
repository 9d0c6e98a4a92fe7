package dev.strata.cli.view;

import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Lines held back for at most {@link #DELAY_MS} and written together, in the order they were added, by
 * a view's own thread: one encoded, flushed write for a burst of lines instead of one per line from
 * each operation's thread (whose file-I/O write makes the virtual thread scheduler compensate with
 * another carrier). A view that holds lines here writes them first whenever it writes anything else,
 * through {@link View#flushPending()}; after {@link #close()} a line is written at once (nothing would
 * write it later). What writes to the terminal without a view, the log on stderr, writes every
 * instance's lines first ({@link #writeAll()}).
 */
final class PendingOutput {
    /**
     * The longest a line waits before it is written. A person watching sees nothing of 20 ms (a fifth of
     * the 0.1 s a response still feels instantaneous in), a CI log or a program reading {@code -json} even
     * less; the lines of an operation burst share one write (about 50 writes a second at most, instead of
     * two per operation).
     */
    static final long DELAY_MS = 20;

    /**
     * The instances holding lines now, for {@link #writeAll()}: one is added when its first pending line
     * comes and removed when they are written, so that an instance nothing writes any more is not kept.
     */
    private static final Set<PendingOutput> HOLDING = ConcurrentHashMap.newKeySet();

    private final PrintStream out;
    private final ScheduledExecutorService writer;
    /** Lines added and not yet written; guarded by this object's monitor. */
    private final StringBuilder pending = new StringBuilder();
    /** Whether a write of {@link #pending} is scheduled on {@link #writer}; guarded by the monitor. */
    private boolean scheduled;
    /** After {@link #close()}: lines are written at once. */
    private boolean closed;

    /** Lines for {@code out}, written by {@code writer} (the view's thread, which the view shuts down). */
    PendingOutput(PrintStream out, ScheduledExecutorService writer) {
        this.out = out;
        this.writer = writer;
    }

    /** Whether the lines go to {@code stream}: a view holds its lines here only if they do. */
    boolean writesTo(PrintStream stream) {
        return out == stream;
    }

    /** Adds {@code text} and a line separator, to be written within {@link #DELAY_MS}. */
    synchronized void println(String text) {
        if (pending.isEmpty()) {
            HOLDING.add(this);
        }
        pending.append(text).append(System.lineSeparator());
        if (closed) {
            write();
        } else if (!scheduled) {
            scheduled = true;
            try {
                writer.schedule(this::write, DELAY_MS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // The view is closing meanwhile; its close() writes what is pending.
                scheduled = false;
            }
        }
    }

    /** Writes the lines not written yet, now, in one go. */
    synchronized void write() {
        scheduled = false;
        if (pending.isEmpty()) {
            return;
        }
        out.print(pending);
        out.flush();
        pending.setLength(0);
        HOLDING.remove(this);
    }

    /** Writes the lines every instance holds, now. */
    static void writeAll() {
        for (PendingOutput p : HOLDING) {
            p.write();
        }
    }

    /** Writes what is pending; from now on each line is written as it is added. */
    synchronized void close() {
        closed = true;
        write();
    }
}
