package dev.strata.cli.view;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.engine.Action;
import dev.strata.engine.ApplyResult;
import dev.strata.engine.EngineEvents;
import dev.strata.hcl.Diagnostics;
import dev.strata.lang.value.Value;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Progress and results of an apply, as Terraform prints them: one line when an operation starts
 * and one when it ends, "Still creating..." every ten seconds while it runs, then the summary.
 *
 * <p>Progress lines come from every operation's thread (a hundred virtual threads at -parallelism=100),
 * thousands in a large apply. They are held in a {@link PendingOutput} and written in batches by the
 * view's own platform thread, so a line reaches the terminal or pipe at most {@link #FLUSH_DELAY_MS}
 * after it happened, in the order the lines were produced. Everything else the view writes ({@link
 * #out()}, {@link #err()}, diagnostics, a question, the summary, {@link #close()}) writes the pending
 * lines first ({@link #flushPending()}), and a command flushes them ({@link #flush()}) before it writes
 * a notice of its own to stderr, such as the one for an interrupt. While the view is open, the
 * {@code -json} stream holds its lines in the same place ({@link #pending()}).
 */
public final class ApplyView extends View implements EngineEvents, AutoCloseable {
    private final Map<AbsResourceInstance, Running> running = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker;
    /** On a terminal: a status line under the progress lines, redrawn every second. */
    private final boolean live;

    private volatile int total;
    private final java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger imported = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean statusShown;

    /** The longest a progress line waits in {@link #pending} before it is written. */
    static final long FLUSH_DELAY_MS = PendingOutput.DELAY_MS;

    /** Lines written by {@link #println} and not yet to the stream, written by {@link #ticker}. */
    private final PendingOutput pending;

    /** Where the clock reads nanoseconds; the tests drive it by hand. */
    private final java.util.function.LongSupplier nanos;

    /** {@code beats}: how many "Still ..." lines were printed for this operation so far. */
    private record Running(Action action, String id, long startNanos, int beats) {}

    public ApplyView(Terminal context) {
        this(context, System::nanoTime, true);
    }

    /**
     * With {@code schedule} false nothing runs by itself: the tests call {@link #tick()} after moving
     * {@code nanos} on.
     */
    ApplyView(Terminal context, java.util.function.LongSupplier nanos, boolean schedule) {
        super(context);
        this.nanos = nanos;
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "apply-progress");
            t.setDaemon(true);
            return t;
        });
        pending = new PendingOutput(context.stdout(), ticker);
        live = context.colorAllowed();
        if (!schedule) {
            return;
        }
        // Checked every half second, so each operation's heartbeat comes within that of its own 10 s mark.
        ticker.scheduleAtFixedRate(this::tick, 500, 500, TimeUnit.MILLISECONDS);
        if (live) {
            ticker.scheduleAtFixedRate(this::redraw, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** How many operations the apply will run, for the live status's done/total. */
    public void expect(int operations) {
        total = operations;
    }

    private synchronized void redraw() {
        if (!live || total == 0 || (running.isEmpty() && done.get() == 0)) {
            return;
        }
        long now = System.nanoTime();
        StringBuilder b = new StringBuilder("  [")
                .append(done.get())
                .append('/')
                .append(Math.max(total, done.get()))
                .append(" done]");
        if (!running.isEmpty()) {
            b.append(" running: ");
            String list = running.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .limit(4)
                    .map(e -> e.getKey() + " ("
                            + elapsed(TimeUnit.NANOSECONDS.toSeconds(
                                    now - e.getValue().startNanos())) + ")")
                    .collect(java.util.stream.Collectors.joining(", "));
            b.append(list);
            if (running.size() > 4) {
                b.append(", +").append(running.size() - 4).append(" more");
            }
        }
        String line = b.toString();
        int max = Math.max(20, width() - 1);
        if (line.length() > max) {
            line = line.substring(0, max - 1) + "…";
        }
        PrintStream out = out();
        out.print("\r\u001b[K" + style(Style.BOLD, line));
        out.flush();
        statusShown = true;
    }

    /**
     * As Terraform does, every ten seconds of each operation's own running time one line says it is
     * still running (on a terminal or not), with the elapsed time in whole tens of seconds.
     */
    void tick() {
        long now = nanos.getAsLong();
        new java.util.TreeMap<>(running).forEach((addr, r) -> {
            long s = TimeUnit.NANOSECONDS.toSeconds(now - r.startNanos());
            long due = 10L * (r.beats() + 1);
            if (s >= due && running.replace(addr, r, new Running(r.action(), r.id(), r.startNanos(), r.beats() + 1))) {
                println(style(Style.BOLD, addr + ":") + " Still "
                        + gerund(r.action()).toLowerCase() + "... [" + (r.id() == null ? "" : "id=" + r.id() + ", ")
                        + elapsed(due) + " elapsed]");
            }
        });
    }

    private static String elapsed(long s) {
        return s < 60 ? s + "s" : (s / 60) + "m" + (s % 60) + "s";
    }

    /**
     * Adds a line to {@link #pending}, to be written within {@link #FLUSH_DELAY_MS}; after the live
     * status line, it clears that first.
     */
    private synchronized void println(String s) {
        if (statusShown) {
            s = "\r\u001b[K" + s;
            statusShown = false;
        }
        pending.println(s);
    }

    /** Writes the progress lines not written yet, now; a command calls it before a notice of its own. */
    public void flush() {
        flushPending();
    }

    /** What a plan that found errors planned all the same; null until then. */
    private volatile dev.strata.engine.Plan erroredPlan;

    @Override
    public void planErrored(dev.strata.engine.Plan partial) {
        erroredPlan = partial;
    }

    /** What the plan planned before it found errors, to show before them; empty if it did not fail so. */
    public java.util.Optional<dev.strata.engine.Plan> erroredPlan() {
        return java.util.Optional.ofNullable(erroredPlan);
    }

    @Override
    void flushPending() {
        pending.write();
    }

    /**
     * Where the lines wait while this view is open: the {@code -json} stream, whose events come while
     * the command holds this view open (and flushes it before an interrupt's notice), holds its own
     * lines here too, in order with anything this view writes.
     */
    PendingOutput pending() {
        return pending;
    }

    private static String gerund(Action a) {
        return switch (a) {
            case CREATE -> "Creating";
            case UPDATE -> "Modifying";
            case DELETE -> "Destroying";
            case READ -> "Reading";
            default -> "Applying";
        };
    }

    /** As Terraform: printed when the read starts, with the id the state holds. */
    @Override
    public void refreshStart(AbsResourceInstance addr, String priorId) {
        println(style(Style.BOLD, addr + ":") + " Refreshing state..."
                + (priorId == null ? "" : " [id=" + priorId + "]"));
    }

    @Override
    public void applyStart(AbsResourceInstance addr, Action action, String deposed) {
        applyStart(addr, action, deposed, null);
    }

    /** Terraform names the object being changed or destroyed by its id: {@code Modifying... [id=i-1]}. */
    @Override
    public void applyStart(AbsResourceInstance addr, Action action, String deposed, String id) {
        String shownId = action == Action.UPDATE || action == Action.DELETE ? id : null;
        running.put(addr, new Running(action, shownId, nanos.getAsLong(), 0));
        println(style(Style.BOLD, addr + (deposed == null ? "" : " (deposed object " + deposed + ")") + ":") + " "
                + gerund(action) + "..." + (shownId == null ? "" : " [id=" + shownId + "]"));
    }

    @Override
    public void importingFromId(AbsResourceInstance addr, String id) {
        println(style(Style.BOLD, addr + ": Importing from ID \"" + id + "\"..."));
    }

    @Override
    public void importPrepared(AbsResourceInstance addr, java.util.List<String> types) {
        println(style(Style.BOLD, style(Style.GREEN, addr + ": Import prepared!")));
        for (String t : types) {
            println(style(Style.GREEN, "  Prepared " + t + " for import"));
        }
    }

    @Override
    public void importPreparing(AbsResourceInstance addr, String id) {
        println(style(Style.BOLD, addr + ":") + " Preparing import... [id=" + id + "]");
    }

    @Override
    public void importStart(AbsResourceInstance addr, String id) {
        println(style(Style.BOLD, addr + ":") + " Importing... [id=" + id + "]");
    }

    /** As Terraform: imports are counted in the summary, apart from creations. */
    @Override
    public void importComplete(AbsResourceInstance addr, String id) {
        imported.incrementAndGet();
        println(style(Style.BOLD, addr + ":") + " Import complete [id=" + id + "]");
    }

    @Override
    public void instanceAdded(AbsResourceInstance addr, Action action) {
        println(style(Style.BOLD, addr + ":") + " Expanded during apply; will be "
                + (action == Action.CREATE ? "created" : "read"));
    }

    @Override
    public void applyComplete(AbsResourceInstance addr, Action action, String id, Duration elapsed) {
        running.remove(addr);
        done.incrementAndGet();
        String done = switch (action) {
            case CREATE -> "Creation complete";
            case UPDATE -> "Modifications complete";
            case DELETE -> "Destruction complete";
            case READ -> "Read complete";
            default -> "Complete";
        };
        println(style(Style.BOLD, addr + ":") + " " + done + " after " + elapsed(elapsed.toSeconds())
                + (id == null || action == Action.DELETE ? "" : " [id=" + id + "]"));
    }

    @Override
    public void applyErrored(AbsResourceInstance addr, Action action, Duration elapsed, Diagnostics diagnostics) {
        running.remove(addr);
        done.incrementAndGet();
    }

    @Override
    public void ephemeralStart(AbsResourceInstance addr, dev.strata.engine.EphemeralAction action) {
        println(style(Style.BOLD, addr + ":") + " " + action.progress() + "...");
    }

    @Override
    public void ephemeralComplete(
            AbsResourceInstance addr, dev.strata.engine.EphemeralAction action, Duration elapsed) {
        println(style(Style.BOLD, addr + ":") + " " + action.complete() + " after " + elapsed(elapsed.toSeconds()));
    }

    @Override
    public void retrying(AbsResourceInstance addr, int attempt, Duration delay, String why) {
        println(style(Style.BOLD, addr + ":") + " Retrying after " + delay.toMillis() + "ms (attempt " + (attempt + 1)
                + "): " + why);
    }

    @Override
    public void provisionStart(AbsResourceInstance addr, String type) {
        println(style(Style.BOLD, addr + ": Provisioning with '" + type + "'..."));
    }

    @Override
    public void provisionOutput(AbsResourceInstance addr, String type, String line) {
        println(style(Style.BOLD, addr + " (" + type + "):") + " " + line);
    }

    /**
     * The closing summary in the words of the command ({@code closing}): a refresh that did all it could says
     * nothing here (its outputs follow), as Terraform's.
     */
    public void summary(ApplyResult r, OperationView.Closing closing) {
        boolean destroy = closing == OperationView.Closing.DESTROY;
        synchronized (this) {
            if (statusShown) {
                out().print("\r\u001b[K");
                statusShown = false;
            }
        }
        if (!r.failed().isEmpty() || r.diagnostics().hasErrors()) {
            out().println();
            out().println(style(Style.BOLD, style(Style.RED, destroy ? "Destroy failed." : "Apply failed."))
                    + " Resources: " + r.added() + " added, " + r.changed() + " changed, " + r.destroyed()
                    + " destroyed; " + r.failed().size() + " failed"
                    + (r.skipped().isEmpty()
                            ? ""
                            : ", " + r.skipped().size() + " not started because something they depend on failed")
                    + ".");
            if (!r.failed().isEmpty()) {
                out().println("Failed: "
                        + String.join(
                                ", ", r.failed().stream().map(Object::toString).toList()));
            }
            if (!r.skipped().isEmpty()) {
                out().println("Not started: "
                        + String.join(
                                ", ", r.skipped().stream().map(Object::toString).toList()));
            }
            return;
        }
        if (closing == OperationView.Closing.REFRESH && !r.interrupted()) {
            return;
        }
        out().println();
        if (r.interrupted()) {
            out().println(style(Style.BOLD, "Apply interrupted.") + " Resources: " + r.added() + " added, "
                    + r.changed() + " changed, " + r.destroyed() + " destroyed. State saved; run apply again to "
                    + "finish.");
            return;
        }
        if (destroy) {
            out().println(style(Style.BOLD, style(Style.GREEN, "Destroy complete!")) + " Resources: " + r.destroyed()
                    + " destroyed.");
        } else {
            out().println(style(Style.BOLD, style(Style.GREEN, "Apply complete!")) + " Resources: "
                    + (imported.get() == 0 ? "" : imported.get() + " imported, ") + r.added()
                    + " added, " + r.changed() + " changed, " + r.destroyed() + " destroyed.");
        }
        if (!r.needsNewPlan().isEmpty()) {
            out().println();
            out().println(style(Style.BOLD, "Note:") + " a deferred expansion would change existing objects, which "
                    + "Strata does not do without a plan you have reviewed: "
                    + String.join(
                            ", ",
                            r.needsNewPlan().stream().map(Object::toString).toList())
                    + ". Run strata plan to review those changes.");
        }
    }

    /** The end of a successful {@code strata import}. */
    public void imported() {
        out().println();
        out().println(style(Style.BOLD, style(Style.GREEN, "Import successful!")));
        out().println();
        out().println("The resources that were imported are shown above. These resources are now in");
        out().println("your Strata state and will henceforth be managed by Strata.");
        out().println();
    }

    /** Root outputs after an apply, as {@code name = value} lines; sensitive ones as {@code <sensitive>}. */
    public void outputs(Map<String, Value> outputs) {
        if (outputs.isEmpty()) {
            return;
        }
        out().println();
        out().println(style(Style.BOLD, style(Style.GREEN, "Outputs:")));
        out().println();
        outputs.forEach((k, v) -> out().println(k + " = "
                + (v.hasMarkDeep(dev.strata.lang.value.Mark.SENSITIVE)
                        ? "<sensitive>"
                        : dev.strata.lang.value.ConsoleFormat.render(v))));
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        synchronized (this) {
            pending.close();
            PrintStream out = out();
            if (statusShown) {
                out.print("\r\u001b[K");
                out.flush();
                statusShown = false;
            }
        }
    }
}
