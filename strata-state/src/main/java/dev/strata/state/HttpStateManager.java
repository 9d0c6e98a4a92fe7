package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.net.URI;
import java.util.Base64;
import java.util.List;

/**
 * {@link StateManager} of the http backend. The protocol has one document and no append, so a journal
 * entry is made durable by POSTing the whole state with it applied: each append costs a full write
 * (docs/backends.md), and the open intents live only in this process.
 */
final class HttpStateManager implements StateManager {
    private final HttpBackend backend;
    private final LockInfo lock;
    private StateSnapshot state;
    private boolean exists;
    private boolean closed;
    private int journalSize;
    private final OpenIntents openIntents = new OpenIntents();

    HttpStateManager(HttpBackend backend, LockInfo lock) {
        this.backend = backend;
        this.lock = lock;
        this.state = StateSnapshot.empty(backend.version());
    }

    private String display() {
        return HttpBackend.display(backend.settings().address());
    }

    synchronized Diagnostics load() {
        HttpBackend.Answer a;
        try {
            a = backend.send("GET", backend.settings().address(), null, "get");
        } catch (IOException e) {
            return Diagnostics.of(backend.unreachable(
                    "Failed to read the state", backend.settings().address(), e));
        }
        if (a.status() == 404 || a.status() == 204 || (a.status() == 200 && a.body().length == 0)) {
            return Diagnostics.NONE;
        }
        if (a.status() != 200) {
            return Diagnostics.of(backend.status(
                    "Failed to read the state", backend.settings().address(), a));
        }
        if (a.contentMd5() != null) {
            String got = Base64.getEncoder().encodeToString(HttpBackend.md5(a.body()));
            if (!got.equals(a.contentMd5().strip())) {
                return Diagnostics.of(Diagnostic.error(
                        "Failed to read the state",
                        "The state from " + display() + " does not match its Content-MD5 header (sent " + a.contentMd5()
                                + ", received data hashes to " + got + "): it was damaged on the way. Try again.",
                        null));
            }
        }
        Result<StateSnapshot> r = backend.encryption().decode(a.body(), display(), "Restore it on the server.");
        if (r.hasErrors()) {
            return r.diagnostics();
        }
        state = r.value();
        exists = true;
        return r.diagnostics();
    }

    @Override
    public String workspace() {
        return Workspaces.DEFAULT;
    }

    @Override
    public synchronized StateSnapshot state() {
        return state;
    }

    @Override
    public synchronized boolean exists() {
        return exists;
    }

    @Override
    public LockInfo lock() {
        return lock;
    }

    @Override
    public synchronized Result<StateSnapshot> persist(StateSnapshot next) {
        Result<StateSnapshot> refused = WriteChecks.persist(exists, state, next, display());
        return refused != null ? refused : write(next, false, false);
    }

    @Override
    public synchronized Result<StateSnapshot> replace(StateSnapshot incoming, boolean force) {
        Result<StateSnapshot> refused = WriteChecks.replace(exists, state, incoming, force);
        return refused != null ? refused : write(incoming, true, false);
    }

    private Result<StateSnapshot> write(StateSnapshot next, boolean lineageMayChange, boolean placeholder) {
        if (closed) {
            throw new IllegalStateException("state manager of " + display() + " is closed");
        }
        if (exists && next.lineage().equals(state.lineage()) && next.sameContentAs(state) && journalSize == 0) {
            return Result.of(state);
        }
        long serial = WriteChecks.serial(exists, lineageMayChange, placeholder, next, state);
        StateSnapshot toWrite = next.withSerial(serial).withTerraformVersion(backend.version());
        if (!lineageMayChange) {
            toWrite = toWrite.withLineage(state.lineage());
        }
        Result<StateSnapshot> w = post(toWrite);
        if (w.hasErrors()) {
            return w;
        }
        journalSize = 0;
        return w;
    }

    private Result<StateSnapshot> post(StateSnapshot toWrite) {
        URI address = backend.settings().address();
        if (lock != null) {
            String sep = address.getRawQuery() == null ? "?" : "&";
            address = URI.create(address + sep + "ID="
                    + java.net.URLEncoder.encode(lock.id(), java.nio.charset.StandardCharsets.UTF_8));
        }
        try {
            HttpBackend.Answer a = backend.send(
                    backend.settings().updateMethod(),
                    address,
                    backend.encryption().encode(toWrite),
                    "update");
            if (a.status() != 200 && a.status() != 201 && a.status() != 204) {
                return Result.of(null, Diagnostics.of(backend.status("Failed to write the state", address, a)));
            }
        } catch (IOException e) {
            return Result.of(null, Diagnostics.of(backend.unreachable("Failed to write the state", address, e)));
        }
        state = toWrite;
        exists = true;
        return Result.of(state);
    }

    @Override
    public synchronized Result<StateSnapshot> append(JournalEntry entry) {
        if (lock == null && backend.settings().lockAddress() != null) {
            return WriteChecks.error(
                    "The journal needs the state lock",
                    "Writing changes to " + display() + " one by one without holding its lock could interleave with"
                            + " another writer; open the state with locking on.");
        }
        StateSnapshot next = Journal.apply(state, entry);
        openIntents.track(entry);
        if (entry instanceof JournalEntry.Intent || entry instanceof JournalEntry.Completed) {
            return Result.of(state); // intents change no state; without a journal there is nowhere durable for them
        }
        return write(next, false, false);
    }

    @Override
    public synchronized Result<StateSnapshot> compact() {
        return Result.of(state);
    }

    @Override
    public synchronized int journalSize() {
        return journalSize;
    }

    @Override
    public synchronized List<JournalEntry.Intent> openIntents() {
        return openIntents.list();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            backend.unlock(lock);
        }
    }
}
