package dev.strata.cli.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ResourceMode;
import dev.strata.engine.Action;
import dev.strata.engine.Plan;
import dev.strata.engine.ResourceChange;
import java.util.List;

/**
 * {@code plan -json}: Terraform's machine-readable UI stream, one JSON object per line.
 *
 * <p>During an engine call the messages of its events (a refresh and an apply of each instance,
 * thousands in a large apply, from every operation's thread) are not written one flushed line at a
 * time: they wait in the {@link PendingOutput} of the {@link ApplyView} the command holds open around
 * the call ({@link #during}), and that view's thread writes them in batches, at most {@link
 * PendingOutput#DELAY_MS} later, in order. Whatever else is written (a diagnostic on either stream, a
 * summary) writes them first ({@link #flushPending()}); the command flushes that view before an
 * interrupt's notice and closes it after the call, which writes the rest. Outside engine calls each
 * message is written at once, except a plan's, which {@link #changes} writes a {@link Batch} at a time.
 */
public final class PlanJsonView extends View implements dev.strata.engine.EngineEvents {

    private final java.io.PrintStream stdout;
    /** Where messages wait during an engine call; null before the first (written at once). */
    private volatile PendingOutput pending;

    /** Apply operations still running, for their {@code apply_progress} every ten seconds. */
    private final java.util.Map<AbsResourceInstance, Running> running = new java.util.concurrent.ConcurrentHashMap<>();
    /** Where the clock reads nanoseconds; the tests drive it by hand. */
    private final java.util.function.LongSupplier nanos;

    private final boolean schedule;
    private java.util.concurrent.ScheduledExecutorService ticker;

    /** {@code beats}: how many {@code apply_progress} messages were written for this operation so far. */
    private record Running(Action action, String id, long startNanos, int beats) {}

    public PlanJsonView(Terminal context) {
        this(context, System::nanoTime, true);
    }

    /** With {@code schedule} false nothing runs by itself: the tests call {@link #tick()}. */
    PlanJsonView(Terminal context, java.util.function.LongSupplier nanos, boolean schedule) {
        super(context);
        this.stdout = context.stdout();
        this.nanos = nanos;
        this.schedule = schedule;
    }

    /**
     * This view, its messages held with {@code progress}'s lines until they are written (see the class
     * comment): for the engine call {@code progress} is open around. After that view is closed, each
     * message is written at once again.
     */
    PlanJsonView during(ApplyView progress) {
        this.progress = progress;
        PendingOutput p = progress.pending();
        // Only if both write to the same stream; otherwise the messages could not be held in order there.
        if (p.writesTo(stdout)) {
            pending = p;
        }
        return this;
    }

    /** The progress view of the engine call under way, which keeps what a failed plan planned. */
    private ApplyView progress;

    @Override
    public void planErrored(dev.strata.engine.Plan partial) {
        if (progress != null) {
            progress.planErrored(partial);
        }
    }

    @Override
    void flushPending() {
        PendingOutput p = pending;
        if (p != null) {
            p.write();
        }
    }

    private static ObjectNode message(String level, String text, String type) {
        return UiJson.message(level, text, type);
    }

    private void emit(ObjectNode n) {
        write(n.toString());
    }

    /**
     * Writes {@code lines} (one message, or several joined by line separators) and a line separator:
     * held during an engine call, at once otherwise.
     */
    private void write(String lines) {
        PendingOutput p = pending;
        if (p != null) {
            p.println(lines);
            return;
        }
        synchronized (this) {
            java.io.PrintStream out = out();
            out.println(lines);
            out.flush();
        }
    }

    /**
     * The messages of a plan (one per changing instance, thousands in a large plan), written together
     * when they reach 64 KB and at the end ({@link #write()}), instead of one flushed write each; the
     * bound keeps the memory of a plan of any size small.
     */
    private final class Batch {
        private final StringBuilder lines = new StringBuilder();

        void add(ObjectNode n) {
            if (!lines.isEmpty()) {
                lines.append(System.lineSeparator());
            }
            lines.append(n);
            if (lines.length() >= 65_536) {
                write();
            }
        }

        void write() {
            if (!lines.isEmpty()) {
                PlanJsonView.this.write(lines.toString());
                lines.setLength(0);
            }
        }
    }

    /** The outcome of checking the plan against policies, with each check that did not pass. */
    public void policies(dev.strata.policy.PolicyReport report) {
        ObjectNode m = message("info", report.summaryLine(), "policy_summary");
        m.set("policies", report.toJson());
        emit(m);
    }

    /** The first message of every stream. */
    public void version() {
        emit(UiJson.version());
    }

    private static String action(Action a) {
        return switch (a) {
            case CREATE -> "create";
            case UPDATE -> "update";
            case DELETE -> "delete";
            case READ -> "read";
            case DELETE_THEN_CREATE, CREATE_THEN_DELETE -> "replace";
            case NO_OP -> "noop";
            case FORGET -> "remove";
        };
    }

    private static String gerund(Action a) {
        return switch (a) {
            case CREATE -> "Creating...";
            case UPDATE -> "Modifying...";
            case DELETE -> "Destroying...";
            case READ -> "Reading...";
            default -> "Applying...";
        };
    }

    @Override
    public void applyStart(AbsResourceInstance addr, Action a, String deposed) {
        applyStart(addr, a, deposed, null);
    }

    @Override
    public void applyStart(AbsResourceInstance addr, Action a, String deposed, String priorId) {
        String id = a == Action.UPDATE || a == Action.DELETE ? priorId : null;
        running.put(addr, new Running(a, id, nanos.getAsLong(), 0));
        startTicker();
        ObjectNode m = message("info", addr + ": " + gerund(a) + (id == null ? "" : " [id=" + id + "]"), "apply_start");
        ObjectNode h = m.putObject("hook");
        h.set("resource", resource(addr));
        h.put("action", action(a));
        if (id != null) {
            h.put("id_key", "id");
            h.put("id_value", id);
        }
        emit(m);
    }

    private synchronized void startTicker() {
        if (schedule && ticker == null) {
            ticker = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "apply-progress-json");
                t.setDaemon(true);
                return t;
            });
            // Checked every half second, so each message comes within that of its operation's 10 s mark.
            ticker.scheduleAtFixedRate(this::tick, 500, 500, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /**
     * As Terraform: every ten seconds of each operation's own running time an {@code apply_progress}
     * message says it is still running, with the elapsed time in whole tens of seconds.
     */
    void tick() {
        long now = nanos.getAsLong();
        new java.util.TreeMap<>(running).forEach((addr, r) -> {
            long s = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(now - r.startNanos());
            long due = 10L * (r.beats() + 1);
            if (s >= due && running.replace(addr, r, new Running(r.action(), r.id(), r.startNanos(), r.beats() + 1))) {
                ObjectNode m = message(
                        "info",
                        addr + ": Still " + gerund(r.action()).toLowerCase(java.util.Locale.ROOT) + " ["
                                + (r.id() == null ? "" : "id=" + r.id() + ", ") + elapsed(due) + " elapsed]",
                        "apply_progress");
                ObjectNode h = m.putObject("hook");
                h.set("resource", resource(addr));
                h.put("action", action(r.action()));
                h.put("elapsed_seconds", due);
                emit(m);
            }
        });
    }

    private static String elapsed(long s) {
        return s < 60 ? s + "s" : (s / 60) + "m" + (s % 60) + "s";
    }

    /** No more {@code apply_progress}: the apply is over. */
    synchronized void stopTicker() {
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
    }

    @Override
    public void ephemeralStart(AbsResourceInstance addr, dev.strata.engine.EphemeralAction a) {
        ObjectNode m = message("info", addr + ": " + a.progress() + "...", "ephemeral_op_start");
        ephemeralHook(m, addr, a);
        emit(m);
    }

    @Override
    public void ephemeralComplete(
            AbsResourceInstance addr, dev.strata.engine.EphemeralAction a, java.time.Duration elapsed) {
        ObjectNode m = message(
                "info", addr + ": " + a.complete() + " after " + elapsed.toSeconds() + "s", "ephemeral_op_complete");
        ephemeralHook(m, addr, a).put("elapsed_seconds", elapsed.toSeconds());
        emit(m);
    }

    /** At "info", as Terraform writes it: the failure itself comes as a diagnostic. */
    @Override
    public void ephemeralErrored(
            AbsResourceInstance addr, dev.strata.engine.EphemeralAction a, java.time.Duration elapsed) {
        ObjectNode m = message(
                "info", addr + ": " + a.errored() + " after " + elapsed.toSeconds() + "s", "ephemeral_op_errored");
        ephemeralHook(m, addr, a).put("elapsed_seconds", elapsed.toSeconds());
        emit(m);
    }

    private ObjectNode ephemeralHook(ObjectNode m, AbsResourceInstance addr, dev.strata.engine.EphemeralAction a) {
        ObjectNode h = m.putObject("hook");
        h.set("resource", resource(addr));
        h.put("action", ephemeralAction(a));
        return h;
    }

    private static String ephemeralAction(dev.strata.engine.EphemeralAction a) {
        return switch (a) {
            case OPEN -> "open";
            case RENEW -> "renew";
            case CLOSE -> "close";
        };
    }

    @Override
    public void applyComplete(AbsResourceInstance addr, Action a, String id, java.time.Duration elapsed) {
        running.remove(addr);
        ObjectNode m = message(
                "info",
                addr + ": "
                        + switch (a) {
                            case CREATE -> "Creation complete";
                            case UPDATE -> "Modifications complete";
                            case DELETE -> "Destruction complete";
                            default -> "Complete";
                        }
                        + " after " + elapsed.toSeconds() + "s" + (id == null ? "" : " [id=" + id + "]"),
                "apply_complete");
        ObjectNode h = m.putObject("hook");
        h.set("resource", resource(addr));
        h.put("action", action(a));
        if (id != null) {
            h.put("id_key", "id");
            h.put("id_value", id);
        }
        h.put("elapsed_seconds", elapsed.toSeconds());
        emit(m);
    }

    @Override
    public void applyErrored(
            AbsResourceInstance addr, Action a, java.time.Duration elapsed, dev.strata.hcl.Diagnostics diagnostics) {
        running.remove(addr);
        ObjectNode m = message(
                "error", addr + ": " + action(a) + " errored after " + elapsed.toSeconds() + "s", "apply_errored");
        ObjectNode h = m.putObject("hook");
        h.set("resource", resource(addr));
        h.put("action", action(a));
        h.put("elapsed_seconds", elapsed.toSeconds());
        emit(m);
    }

    @Override
    public void provisionStart(AbsResourceInstance addr, String type) {
        ObjectNode m = message("info", addr + ": Provisioning with '" + type + "'...", "provision_start");
        provisionHook(m, addr, type);
        emit(m);
    }

    @Override
    public void provisionOutput(AbsResourceInstance addr, String type, String line) {
        ObjectNode m = message("info", addr + ": (" + type + "): " + line, "provision_progress");
        provisionHook(m, addr, type).put("output", line);
        emit(m);
    }

    @Override
    public void provisionComplete(AbsResourceInstance addr, String type, boolean failed) {
        // Terraform logs a failed provisioner at "info" too: the error comes as its own diagnostic.
        ObjectNode m = message(
                "info",
                addr + ": (" + type + ") Provisioning " + (failed ? "errored" : "complete"),
                failed ? "provision_errored" : "provision_complete");
        provisionHook(m, addr, type);
        emit(m);
    }

    private ObjectNode provisionHook(ObjectNode m, AbsResourceInstance addr, String type) {
        ObjectNode h = m.putObject("hook");
        h.set("resource", resource(addr));
        h.put("provisioner", type);
        return h;
    }

    /** As Terraform: the id in {@code refresh_start} is the one the state holds, before the read. */
    @Override
    public void refreshStart(AbsResourceInstance addr, String priorId) {
        ObjectNode m = message(
                "info",
                addr + ": Refreshing state..." + (priorId == null ? "" : " [id=" + priorId + "]"),
                "refresh_start");
        ObjectNode h = m.putObject("hook");
        h.set("resource", resource(addr));
        if (priorId != null) {
            h.put("id_key", "id");
            h.put("id_value", priorId);
        }
        emit(m);
    }

    @Override
    public void refreshComplete(AbsResourceInstance addr, String id) {
        ObjectNode m = message(
                "info", addr + ": Refresh complete" + (id == null ? "" : " [id=" + id + "]"), "refresh_complete");
        ObjectNode h = m.putObject("hook");
        h.set("resource", resource(addr));
        if (id != null) {
            h.put("id_key", "id");
            h.put("id_value", id);
        }
        emit(m);
    }

    @Override
    public void diagnostics(dev.strata.hcl.Diagnostics ds, dev.strata.hcl.DiagnosticRenderer.Sources sources) {
        for (dev.strata.hcl.Diagnostic d : ds.inPlaceOrder()) {
            emit(UiJson.diagnostic(d, sources));
        }
    }

    @Override
    public void diagnostics(List<CliDiagnostic> list) {
        diagnostics(dev.strata.hcl.Diagnostics.of(
                list.stream().map(CliDiagnostic::toDiagnostic).toList()));
    }

    /** Diagnostics as {@code diagnostic} messages without snippets (their files are not at hand; the range is). */
    public void diagnostics(dev.strata.hcl.Diagnostics ds) {
        diagnostics(ds, null);
    }

    private final java.util.concurrent.atomic.AtomicInteger imported = new java.util.concurrent.atomic.AtomicInteger();

    /** As Terraform: no message per import in the JSON stream, only the count in the summary. */
    @Override
    public void importComplete(AbsResourceInstance addr, String id) {
        imported.incrementAndGet();
    }

    /** The closing summary of an apply, destroy or refresh. */
    public void applySummary(dev.strata.engine.ApplyResult r, OperationView.Closing closing) {
        stopTicker();
        boolean destroy = closing == OperationView.Closing.DESTROY;
        int imports = destroy ? 0 : imported.get();
        // As Terraform: a destroy counts only what it destroyed, and is not followed by the outputs; a refresh
        // gives only the outputs.
        if (closing != OperationView.Closing.REFRESH) {
            emit(changeSummary(r, destroy, imports));
        }
        if (destroy) {
            return;
        }
        ObjectNode outs = message("info", "Outputs: " + r.state().outputs().size(), "outputs");
        ObjectNode o = outs.putObject("outputs");
        r.state().outputs().forEach((k, ov) -> {
            ObjectNode x = o.putObject(k);
            x.put("sensitive", ov.sensitive());
            x.set("type", dev.strata.engine.StateValues.jsonNode(ov.type()));
            if (!ov.sensitive()) {
                x.set("value", dev.strata.engine.StateValues.jsonNode(ov.value()));
            }
        });
        emit(outs);
    }

    private ObjectNode changeSummary(dev.strata.engine.ApplyResult r, boolean destroy, int imports) {
        ObjectNode sum = message(
                "info",
                destroy
                        ? "Destroy complete! Resources: " + r.destroyed() + " destroyed."
                        : "Apply complete! Resources: " + (imports == 0 ? "" : imports + " imported, ") + r.added()
                                + " added, " + r.changed() + " changed, " + r.destroyed() + " destroyed.",
                "change_summary");
        ObjectNode changes = sum.putObject("changes");
        changes.put("add", r.added());
        changes.put("change", r.changed());
        changes.put("import", imports);
        changes.put("remove", r.destroyed());
        changes.put("operation", destroy ? "destroy" : "apply");
        return sum;
    }

    public void stream(Plan plan) {
        version();
        changes(plan);
    }

    /** {@code planned_change} messages and the plan's {@code change_summary} and {@code outputs}. */
    public void changes(Plan plan) {
        Batch batch = new Batch();
        // As Terraform: every object that changed outside, relevant to the plan or not (a reader filters
        // with the plan JSON's relevant_attributes), before the planned changes.
        for (ResourceChange c : plan.drift()) {
            String action = c.action() == Action.DELETE ? "delete" : "update";
            ObjectNode m = message("info", c.addr() + ": Drift detected (" + action + ")", "resource_drift");
            ObjectNode ch = m.putObject("change");
            ch.set("resource", resource(c.addr()));
            ch.put("action", action);
            batch.add(m);
        }
        for (ResourceChange c : plan.changes()) {
            if (c.action() == Action.NO_OP && c.importId() == null && c.previousAddr() == null) {
                continue;
            }
            String action = switch (c.action()) {
                case CREATE -> "create";
                case UPDATE -> "update";
                case DELETE -> "delete";
                case READ -> "read";
                case DELETE_THEN_CREATE, CREATE_THEN_DELETE -> "replace";
                case NO_OP -> c.importId() != null ? "import" : c.previousAddr() != null ? "move" : "noop";
                case FORGET -> "remove";
            };
            ObjectNode m = message("info", c.addr() + ": Plan to " + action, "planned_change");
            ObjectNode ch = m.putObject("change");
            ch.set("resource", resource(c.addr()));
            ch.put("action", action);
            if (c.reason() != null) {
                ch.put("reason", c.reason());
            }
            batch.add(m);
        }
        Plan.Summary s = plan.summary();
        ObjectNode sum = message(
                "info",
                "Plan: " + (s.importing() == 0 ? "" : s.importing() + " to import, ") + s.add() + " to add, "
                        + s.change() + " to change, " + s.destroy() + " to destroy.",
                "change_summary");
        ObjectNode changes = sum.putObject("changes");
        changes.put("add", s.add());
        changes.put("change", s.change());
        changes.put("import", s.importing());
        changes.put("remove", s.destroy());
        changes.put("operation", "plan");
        batch.add(sum);
        if (plan.outputs().isEmpty()) {
            batch.write();
            return; // as Terraform: a plan with no root output changes (not even no-ops) has no outputs message
        }
        ObjectNode outs = message("info", "Outputs: " + plan.outputs().size(), "outputs");
        ObjectNode o = outs.putObject("outputs");
        plan.outputs().forEach((k, oc) -> {
            ObjectNode x = o.putObject(k);
            x.put("sensitive", oc.sensitive());
            x.put(
                    "action",
                    oc.action() == Action.NO_OP
                            ? "noop"
                            : oc.action().jsonActions().getFirst());
        });
        batch.add(outs);
        batch.write();
    }

    static ObjectNode resource(AbsResourceInstance a) {
        ObjectNode r = UiJson.object();
        r.put("addr", a.toString());
        r.put("module", a.module().isRoot() ? "" : a.module().toString());
        r.put("resource", a.resource().toString());
        r.put("implied_provider", a.resource().resource().impliedProviderName());
        r.put("resource_type", a.resource().resource().type());
        r.put("resource_name", a.resource().resource().name());
        switch (a.resource().key()) {
            case InstanceKey.IntKey i -> r.put("resource_key", i.index());
            case InstanceKey.StringKey s -> r.put("resource_key", s.key());
            case InstanceKey.NoKey n -> r.putNull("resource_key");
        }
        if (a.resource().resource().mode() == ResourceMode.DATA) {
            r.put("resource", a.resource().toString());
        }
        return r;
    }
}
