package dev.strata.engine;

import dev.strata.addr.AbsResourceInstance;
import dev.strata.hcl.Diagnostic;
import dev.strata.provider.PrivateState;
import dev.strata.provider.Provider;
import dev.strata.provider.ProviderDiagnostic;
import dev.strata.provider.ProviderDiagnostics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ephemeral resource instances one walk has open. Each is renewed when the time its provider gave
 * passes while it is still open, and closed once every vertex that depends on it (directly or through
 * locals, providers and the resources that use those providers) has been visited; whatever is still
 * open when the walk ends (after a failure, a skipped dependent or an interrupt) is closed then, so
 * none is left open. An apply that deletes holds them all open until its deletions are done, as
 * the providers deleting may need them. Nothing here is ever written down: the results live in the run's values only.
 */
final class EphemeralResources implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EphemeralResources.class);

    /** One open instance; its private data changes with each renewal. */
    private static final class Open {
        final AbsResourceInstance addr;
        final Provider provider;
        final String type;
        final Set<Node> waitingFor;
        volatile PrivateState privateState;
        ScheduledFuture<?> renewal;

        Open(AbsResourceInstance addr, Provider provider, String type, Set<Node> waitingFor, PrivateState p) {
            this.addr = addr;
            this.provider = provider;
            this.type = type;
            this.waitingFor = waitingFor;
            this.privateState = p;
        }
    }

    private final EngineEvents events;
    private final Consumer<Diagnostic> diagnose;
    private final Clock clock;
    /** Sorted, so that what the walk's end closes is closed in address order. */
    private final Map<AbsResourceInstance, Open> open = new ConcurrentSkipListMap<>();

    private ScheduledExecutorService renewer;
    /**
     * Set for an apply that deletes objects: the deletions run after the walk (in reverse dependency
     * order), and the providers that delete may need what is open, so nothing is closed before the
     * apply's end ({@link #close()}).
     */
    private volatile boolean held;

    EphemeralResources(EngineEvents events, Consumer<Diagnostic> diagnose, Clock clock) {
        this.events = events;
        this.diagnose = diagnose;
        this.clock = clock;
    }

    /**
     * Records an instance the provider opened. {@code waitingFor} are the vertices that must be visited
     * before it is closed; {@code renewAt} (null for never) when the provider wants it renewed.
     */
    void opened(
            AbsResourceInstance addr,
            Provider provider,
            String type,
            PrivateState privateState,
            Instant renewAt,
            Set<Node> waitingFor) {
        Open o = new Open(addr, provider, type, java.util.concurrent.ConcurrentHashMap.newKeySet(), privateState);
        o.waitingFor.addAll(waitingFor);
        synchronized (this) {
            open.put(addr, o);
            schedule(o, renewAt);
        }
        if (o.waitingFor.isEmpty() && !held) {
            close(o);
        }
    }

    /** Keeps every instance open until {@link #close()}, whatever has been visited. */
    void holdUntilClosed() {
        held = true;
    }

    /** The walk is over: closes everything still open, unless {@link #holdUntilClosed() held}. */
    void walkEnded() {
        if (!held) {
            close();
        }
    }

    /** A vertex was visited: closes each open instance for which it was the last one to wait for. */
    void visited(Node n) {
        if (open.isEmpty() || held) {
            return;
        }
        List<Open> done = new ArrayList<>();
        for (Open o : open.values()) {
            if (o.waitingFor.remove(n) && o.waitingFor.isEmpty()) {
                done.add(o);
            }
        }
        done.forEach(this::close);
    }

    /** Closes everything still open and stops renewing; the walk's end. */
    @Override
    public void close() {
        for (Open o : new ArrayList<>(open.values())) {
            close(o);
        }
        synchronized (this) {
            if (renewer != null) {
                renewer.shutdownNow();
                renewer = null;
            }
        }
    }

    boolean isOpen(AbsResourceInstance addr) {
        return open.containsKey(addr);
    }

    private void close(Open o) {
        synchronized (this) {
            if (open.remove(o.addr) == null) {
                return;
            }
            if (o.renewal != null) {
                o.renewal.cancel(false);
            }
        }
        events.ephemeralStart(o.addr, EphemeralAction.CLOSE);
        long t0 = System.nanoTime();
        ProviderDiagnostics d;
        try {
            d = o.provider.closeEphemeralResource(new Provider.CloseEphemeralRequest(o.type, o.privateState));
        } catch (RuntimeException | Error e) {
            // Every open instance still gets its close, and the failure is a diagnostic naming it.
            LOG.debug("ephemeral: closing {} threw", o.addr, e);
            d = ProviderDiagnostics.error(
                    "Failed to close ephemeral resource", dev.strata.engine.graph.DagWalker.describe(e));
        }
        report(o.addr, d);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (d.hasErrors()) {
            events.ephemeralErrored(o.addr, EphemeralAction.CLOSE, took);
        } else {
            events.ephemeralComplete(o.addr, EphemeralAction.CLOSE, took);
        }
    }

    private void schedule(Open o, Instant renewAt) {
        if (renewAt == null) {
            return;
        }
        if (renewer == null) {
            ScheduledThreadPoolExecutor ex = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "strata-ephemeral-renew");
                t.setDaemon(true);
                return t;
            });
            ex.setRemoveOnCancelPolicy(true);
            renewer = ex;
        }
        long delay = Math.max(0, Duration.between(clock.instant(), renewAt).toMillis());
        o.renewal = renewer.schedule(() -> renew(o), delay, TimeUnit.MILLISECONDS);
    }

    private void renew(Open o) {
        if (!open.containsKey(o.addr)) {
            return;
        }
        events.ephemeralStart(o.addr, EphemeralAction.RENEW);
        long t0 = System.nanoTime();
        Provider.RenewEphemeralResponse r;
        try {
            r = o.provider.renewEphemeralResource(new Provider.RenewEphemeralRequest(o.type, o.privateState));
        } catch (RuntimeException | Error e) {
            // On the renewal thread nothing else would see it: it becomes a diagnostic naming the instance.
            LOG.debug("ephemeral: renewing {} threw", o.addr, e);
            r = new Provider.RenewEphemeralResponse(
                    null,
                    o.privateState,
                    ProviderDiagnostics.error(
                            "Failed to renew ephemeral resource", dev.strata.engine.graph.DagWalker.describe(e)));
        }
        o.privateState = r.privateState();
        report(o.addr, r.diagnostics());
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (r.diagnostics().hasErrors()) {
            events.ephemeralErrored(o.addr, EphemeralAction.RENEW, took);
        } else {
            events.ephemeralComplete(o.addr, EphemeralAction.RENEW, took);
        }
        synchronized (this) {
            if (open.containsKey(o.addr) && renewer != null) {
                schedule(o, r.renewAt());
            }
        }
    }

    private void report(AbsResourceInstance addr, ProviderDiagnostics pd) {
        for (ProviderDiagnostic p : pd) {
            diagnose.accept(p.toDiagnostic(null).withAddress(addr.toString()));
        }
    }
}
