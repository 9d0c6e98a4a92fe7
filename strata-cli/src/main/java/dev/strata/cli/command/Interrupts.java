package dev.strata.cli.command;

import dev.strata.hcl.Result;
import dev.strata.state.Backend;
import dev.strata.state.LockInfo;
import dev.strata.state.LockRequest;
import dev.strata.state.StateManager;
import dev.strata.tfplugin.PluginProcess;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a command that plans, changes infrastructure or holds a state lock reacts to SIGINT (Ctrl-C),
 * SIGTERM (CI cancellation, {@code timeout}, {@code kill}) and SIGHUP (the terminal went away): all
 * three alike. The first asks the running plan or apply to start nothing new and lets the running
 * operations finish, so the command ends its normal way: state persisted, lock released, the
 * "interrupted" summary printed. The second exits at once, after releasing the locks the command
 * holds (every completed operation is already durable in the journal).
 *
 * <p>While installed, the handlers replace the JVM's own for TERM and HUP, which would run the
 * shutdown hooks and exit with 143 or 129 at once, abandoning operations in flight and leaving the
 * lock information behind. Terraform handles INT and TERM this way; HUP kills it, which we do not copy.
 */
public final class Interrupts implements AutoCloseable {
    static final List<String> SIGNALS = List.of("INT", "TERM", "HUP");
    /** How long provider plugins get to exit after SIGTERM when a second signal ends the command. */
    static final Duration SECOND_SIGNAL_GRACE = Duration.ofMillis(500);

    private final PrintStream err;
    private final Runnable exit;
    /** Signal name to the handler it replaced; empty when no OS handler was installed. */
    private final Map<String, sun.misc.SignalHandler> previous = new TreeMap<>();

    private final AtomicInteger received = new AtomicInteger();
    private final List<Runnable> stops = new CopyOnWriteArrayList<>();
    private final List<Runnable> beforeNotices = new CopyOnWriteArrayList<>();
    private final List<StateManager> held = new CopyOnWriteArrayList<>();

    private Interrupts(PrintStream err, Runnable exit) {
        this.err = err;
        this.exit = exit;
    }

    /**
     * Takes over INT, TERM and HUP for the command about to run. Only a real process does (its stdin is
     * the JVM's, or {@code -Dstrata.signals=true}); a command run in-process by a test gets handling
     * without OS handlers, driven by {@link #deliver}.
     */
    public static Interrupts install(CommandContext context) {
        Interrupts i = new Interrupts(context.stderr(), () -> {
            // halt() runs no shutdown hook, so the plugins' last-resort stop must run here.
            PluginProcess.stopAllForExit(SECOND_SIGNAL_GRACE);
            Runtime.getRuntime().halt(1);
        });
        if (context.stdin() != System.in && !Boolean.getBoolean("strata.signals")) {
            return i;
        }
        for (String name : SIGNALS) {
            try {
                i.previous.put(name, sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> i.deliver(name)));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // The platform lacks the signal, or the JVM runs with -Xrs: that signal keeps its default.
            }
        }
        return i;
    }

    /** Handling without OS handlers; {@code exit} stands for the immediate exit of a second signal. */
    static Interrupts forTest(PrintStream err, Runnable exit) {
        return new Interrupts(err, exit);
    }

    /** Whether a signal came since the command started. */
    public boolean interrupted() {
        return received.get() > 0;
    }

    /**
     * Runs {@code stop} on the first signal (at once when one came already) until the returned
     * registration is closed: planners and appliers stop starting operations.
     */
    public Registration onStop(Runnable stop) {
        stops.add(stop);
        if (interrupted()) {
            stop.run();
        }
        return () -> stops.remove(stop);
    }

    /**
     * Runs {@code flush} before each signal's notice is written, until the returned registration is
     * closed: a view that holds output back for a moment (the apply's progress lines) writes it first, so
     * that on a terminal the notice follows everything that happened before the signal.
     */
    public Registration beforeNotice(Runnable flush) {
        beforeNotices.add(flush);
        return () -> beforeNotices.remove(flush);
    }

    /** Records that the command holds {@code state}'s lock, which a second signal releases before exiting. */
    public StateManager holding(StateManager state) {
        if (state != null) {
            held.add(state);
        }
        return state;
    }

    /**
     * {@code backend}, with every state it opens recorded as {@link #holding held}: for commands that
     * only lock a state (state rm, workspace delete), which a first signal lets finish.
     */
    Backend tracking(Backend backend) {
        return backend == null ? null : new Tracked(backend, this);
    }

    /** What {@link #tracking} wrapped, for what only one kind of backend offers (the pg backend's history). */
    static Backend unwrap(Backend backend) {
        return backend instanceof Tracked t ? t.inner() : backend;
    }

    /** A backend whose opened states are recorded as held by {@code owner}. */
    private record Tracked(Backend inner, Interrupts owner) implements Backend {
        @Override
        public Result<List<String>> workspaces() {
            return inner.workspaces();
        }

        @Override
        public Result<String> createWorkspace(String name) {
            return inner.createWorkspace(name);
        }

        @Override
        public Result<String> deleteWorkspace(String name) {
            return inner.deleteWorkspace(name);
        }

        @Override
        public Result<StateManager> open(String workspace, LockRequest lock) {
            Result<StateManager> r = inner.open(workspace, lock);
            owner.holding(r.value());
            return r;
        }

        @Override
        public Result<LockInfo> forceUnlock(String workspace, String lockId) {
            return inner.forceUnlock(workspace, lockId);
        }
    }

    /** What the handler does for one signal; called by the OS handler's thread (and tests). */
    void deliver(String signal) {
        int n = received.incrementAndGet();
        if (n <= 2) {
            beforeNotices.forEach(Runnable::run);
        }
        if (n == 1) {
            err.println("\nInterrupt received.\nPlease wait for Strata to exit or data loss may occur.\n"
                    + "Gracefully shutting down...\n");
            err.flush();
            stops.forEach(Runnable::run);
        } else if (n == 2) {
            err.println("\nTwo interrupts received. Exiting immediately. Every operation that completed is saved "
                    + "in the state journal; operations still running were abandoned and are checked on the next run.");
            err.flush();
            releaseAndExit();
        }
    }

    /** Releases the locks the command holds and exits with status 1 at once. */
    void releaseAndExit() {
        for (StateManager s : held) {
            try {
                s.close();
            } catch (RuntimeException e) {
                // Exiting anyway: a lock that cannot be released now is taken over as stale later.
            }
        }
        exit.run();
    }

    @Override
    public void close() {
        previous.forEach((name, handler) -> sun.misc.Signal.handle(new sun.misc.Signal(name), handler));
        previous.clear();
    }

    /** A stop hook's registration; closing it removes the hook. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
