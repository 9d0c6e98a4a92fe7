package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * {@link StateManager} of the s3 backend. A state write is one PUT of the whole object (S3 replaces
 * objects atomically: readers see the old or the new state, never a mix). Journal entries are one
 * object each under {@code <state key>.journal/}, named by the serial they apply to and their sequence
 * number so that a listing gives them in order; a compaction writes the state first and deletes the
 * entries after, and entries of an older serial left by a crash in between are recognised and skipped.
 */
final class S3StateManager implements StateManager {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(S3StateManager.class);
    private final S3Backend backend;
    private final String workspace;
    private final String key;
    private final LockInfo lock;
    private StateSnapshot state;
    private boolean exists;
    /** ETag of the state object as last read or written: a writer that ignored the lock changes it. */
    private String etag;

    private boolean closed;
    private int journalSize;
    private long seq;
    private final OpenIntents openIntents = new OpenIntents();

    S3StateManager(S3Backend backend, String workspace, LockInfo lock) {
        this.backend = backend;
        this.workspace = workspace;
        this.key = backend.settings().stateKey(workspace);
        this.lock = lock;
        this.state = StateSnapshot.empty(backend.version());
    }

    private String bucket() {
        return backend.settings().bucket();
    }

    private String display() {
        return backend.display(workspace);
    }

    /** Reads the state object and replays the journal objects beside it. */
    synchronized Diagnostics load() {
        S3Objects.Read read;
        List<String> entries;
        try {
            read = S3Objects.get(backend.client(), bucket(), key);
            entries = S3Objects.list(backend.client(), bucket(), key + S3Backend.JOURNAL_SUFFIX);
        } catch (SdkException e) {
            return Diagnostics.of(backend.error("Failed to read the state", e));
        }
        etag = read == null ? null : read.etag();
        if (read != null && read.bytes().length > 0) {
            Result<StateSnapshot> r = backend.encryption()
                    .decode(
                            read.bytes(),
                            display(),
                            "Restore an earlier version of the object if the bucket has versioning enabled.");
            if (r.hasErrors()) {
                return r.diagnostics();
            }
            state = r.value();
            exists = true;
            LOG.debug("state read from {}: {} bytes, serial {}", display(), read.bytes().length, state.serial());
        }
        if (entries.isEmpty()) {
            return Diagnostics.NONE;
        }
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        try {
            for (String e : entries) {
                S3Objects.Read r = S3Objects.get(backend.client(), bucket(), e);
                if (r != null) {
                    lines.writeBytes(r.bytes());
                }
            }
        } catch (SdkException e) {
            return Diagnostics.of(backend.error("Failed to read the state journal", e));
        }
        if (!exists) {
            return Diagnostics.of(Diagnostic.error(
                    "State journal without a state",
                    display() + " has journal entries (" + key + S3Backend.JOURNAL_SUFFIX
                            + "…) but no state object to replay them on.",
                    null));
        }
        Result<Journal.Replay> r = Journal.replay(state, lines.toByteArray(), key + S3Backend.JOURNAL_SUFFIX);
        if (r.hasErrors()) {
            return r.diagnostics();
        }
        state = r.value().state();
        journalSize = r.value().applied();
        seq = journalSize;
        openIntents.addAll(r.value().openIntents());
        if (r.value().stale() && journalSize == 0 && lock != null) {
            try {
                deleteJournal();
            } catch (SdkException e) {
                return Diagnostics.of(backend.error("Failed to clean the state journal", e));
            }
        }
        return Diagnostics.NONE;
    }

    @Override
    public String workspace() {
        return workspace;
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
        if (refused != null) {
            return refused;
        }
        return write(next, false, false);
    }

    @Override
    public synchronized Result<StateSnapshot> replace(StateSnapshot incoming, boolean force) {
        Result<StateSnapshot> refused = WriteChecks.replace(exists, state, incoming, force);
        if (refused != null) {
            return refused;
        }
        return write(incoming, true, false);
    }

    private Result<StateSnapshot> write(StateSnapshot next, boolean lineageMayChange, boolean placeholder) {
        if (closed) {
            throw new IllegalStateException("state manager of " + display() + " is closed");
        }
        boolean sameHistory = next.lineage().equals(state.lineage());
        if (exists && sameHistory && next.sameContentAs(state) && journalSize == 0) {
            return Result.of(state);
        }
        long serial = WriteChecks.serial(exists, lineageMayChange, placeholder, next, state);
        StateSnapshot toWrite = next.withSerial(serial).withTerraformVersion(backend.version());
        if (!lineageMayChange) {
            toWrite = toWrite.withLineage(state.lineage());
        }
        try {
            Result<StateSnapshot> lost = checkLockAndObject();
            if (lost != null) {
                return lost;
            }
            long started = System.nanoTime();
            byte[] data = backend.encryption().encode(toWrite);
            var put = backend.client()
                    .putObject(
                            backend.withEncryption(PutObjectRequest.builder()
                                            .bucket(bucket())
                                            .key(key)
                                            .contentType("application/json"))
                                    .build(),
                            RequestBody.fromBytes(data));
            etag = put.eTag();
            // The state now holds every journaled change; entries left by a crash here are skipped as stale.
            deleteJournal();
            LOG.debug(
                    "state written to {}: serial {}, {} bytes, in {} ms",
                    display(),
                    serial,
                    data.length,
                    (System.nanoTime() - started) / 1_000_000);
        } catch (SdkException e) {
            return Result.of(null, Diagnostics.of(backend.error("Failed to write the state", e)));
        }
        state = toWrite;
        exists = true;
        journalSize = 0;
        seq = 0;
        Result<StateSnapshot> failed = openIntents.reappend(this::append);
        return failed != null ? failed : Result.of(state);
    }

    /** An error when our lock is gone or the state object changed behind us; null when writing is safe. */
    private Result<StateSnapshot> checkLockAndObject() {
        if (lock != null) {
            String lockKey = key + S3Backend.LOCK_SUFFIX;
            S3Objects.Read held = S3Objects.get(backend.client(), bucket(), lockKey);
            LockInfo holder =
                    held == null ? null : LockInfo.parse(held.bytes(), lockKey).value();
            if (holder == null || !holder.id().equals(lock.id())) {
                return WriteChecks.lockLost(WriteChecks.notHeld(
                        display(),
                        "the lock object " + lockKey
                                + (holder == null ? " was removed" : " now belongs to " + holder.who())
                                + " (force-unlock?)"));
            }
        }
        String now = S3Objects.head(backend.client(), bucket(), key);
        if (!Objects.equals(now, etag)) {
            return WriteChecks.changedSinceRead(
                    display(), "client", lock == null ? " (locking is off)" : " without taking the lock");
        }
        return null;
    }

    private void deleteJournal() {
        for (String j : S3Objects.list(backend.client(), bucket(), key + S3Backend.JOURNAL_SUFFIX)) {
            backend.client().deleteObject(d -> d.bucket(bucket()).key(j));
        }
    }

    @Override
    public synchronized Result<StateSnapshot> append(JournalEntry entry) {
        if (lock == null) {
            return WriteChecks.journalNeedsLock(display(), " (use_lockfile = true)");
        }
        if (!exists) {
            // The journal needs a snapshot to extend; this empty one keeps serial 0 (WriteChecks.serial).
            Result<StateSnapshot> first = write(state, false, true);
            if (first.hasErrors()) {
                return first;
            }
        }
        long started = System.nanoTime();
        long next = seq + 1;
        byte[] line = Journal.line(entry, state.lineage(), state.serial(), next);
        String name = key + S3Backend.JOURNAL_SUFFIX + String.format("%019d-%010d", state.serial(), next);
        try {
            backend.client()
                    .putObject(
                            backend.withEncryption(PutObjectRequest.builder()
                                            .bucket(bucket())
                                            .key(name)
                                            .contentType("application/x-ndjson"))
                                    .build(),
                            RequestBody.fromBytes(line));
        } catch (SdkException e) {
            return Result.of(null, Diagnostics.of(backend.error("Failed to append to the state journal", e)));
        }
        LOG.trace(
                "journal append ({}) to {}, {} bytes, in {} ms",
                Journal.describe(entry),
                name,
                line.length,
                (System.nanoTime() - started) / 1_000_000);
        seq = next;
        journalSize++;
        state = Journal.apply(state, entry);
        openIntents.track(entry);
        return Result.of(state);
    }

    @Override
    public synchronized Result<StateSnapshot> compact() {
        if (journalSize == 0) {
            return Result.of(state);
        }
        LOG.debug("compacting the journal of {}: {} entries into the state", display(), journalSize);
        return write(state, false, false);
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
            backend.unlock(workspace, lock);
            if (lock != null) {
                LOG.debug(
                        "lock {} on {} released after {} ms",
                        lock.id(),
                        display(),
                        lock.age(java.time.Instant.now()).toMillis());
            }
        }
    }
}
