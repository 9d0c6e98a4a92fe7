package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;

/** {@link StateManager} of the local backend. */
final class LocalStateManager implements StateManager {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LocalStateManager.class);
    private final String workspace;
    private final Path statePath;
    /** Where the state is written: {@link #statePath} unless the legacy {@code -state-out} names another file. */
    private final Path outPath;
    /** Null with {@code -backup=-}: no backup is kept. */
    private final Path backupPath;

    private final String displayPath;
    private final String version;
    private final LocalLock lock;
    private final Encryption encryption;
    private StateSnapshot state;
    private boolean exists;
    /** What the state file on disk was when we last read or wrote it, to notice writers that ignored the lock. */
    private FileIdentity identity;

    private boolean backedUp;
    /** Whether this session has written the state (to {@link #outPath}) at least once. */
    private boolean wroteOut;

    private boolean closed;
    private final Path journalPath;
    private volatile java.nio.channels.FileChannel journal;
    private long seq;
    /** Written under the monitor; read without it by {@link #journalSize()}, which every append is followed by. */
    private volatile int journalSize;

    private final OpenIntents openIntents = new OpenIntents();

    /** Entries up to this size are joined to their header and written in one call. */
    private static final int SMALL_ENTRY = 64 * 1024;

    /** The file as found on disk: its snapshot (null when absent or empty) and identity. */
    record Disk(StateSnapshot snapshot, FileIdentity identity) {}

    /** Inode (where the platform has one), size and modification time: any replacement or rewrite changes it. */
    record FileIdentity(Object key, long size, long modifiedNanos) {
        static FileIdentity of(Path p) throws IOException {
            try {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                return new FileIdentity(
                        a.fileKey(), a.size(), a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS));
            } catch (NoSuchFileException e) {
                return null;
            }
        }
    }

    LocalStateManager(
            String workspace,
            Path statePath,
            Path backupPath,
            String displayPath,
            String version,
            LocalLock lock,
            Disk disk,
            Encryption encryption) {
        this(workspace, statePath, statePath, backupPath, displayPath, version, lock, disk, encryption);
    }

    /** A state read from {@code statePath} (and locked there) and written to {@code outPath}. */
    LocalStateManager(
            String workspace,
            Path statePath,
            Path outPath,
            Path backupPath,
            String displayPath,
            String version,
            LocalLock lock,
            Disk disk,
            Encryption encryption) {
        this.outPath = outPath;
        this.encryption = encryption;
        this.journalPath = statePath.resolveSibling(statePath.getFileName() + ".journal");
        this.workspace = workspace;
        this.statePath = statePath;
        this.backupPath = backupPath;
        this.displayPath = displayPath;
        this.version = version;
        this.lock = lock;
        this.exists = disk.snapshot() != null;
        this.state = exists ? disk.snapshot() : StateSnapshot.empty(version);
        this.identity = disk.identity();
    }

    /** Reads the state file: through {@code lock}'s channel when it is locked (opening the path again would drop the lock). */
    static Result<Disk> readDisk(
            Path statePath,
            Path backupPath,
            String display,
            String backupDisplay,
            Encryption encryption,
            LocalLock lock) {
        try {
            FileIdentity id = FileIdentity.of(statePath);
            if (id == null) {
                return Result.of(new Disk(null, null));
            }
            byte[] bytes = lock != null ? lock.readState() : LocalLock.readUnlocked(statePath);
            if (bytes.length == 0) {
                // Terraform treats an empty state file as no state; so do we.
                return Result.of(new Disk(null, id));
            }
            String recovery = backupPath != null && Files.exists(backupPath)
                    ? "The state before the last change is in " + backupDisplay + "; check it and, if it is intact, "
                            + "restore it with \"strata state push " + backupDisplay + "\" or by copying it over "
                            + display + "."
                    : "No backup (" + backupDisplay
                            + ") exists; restore the file from your own backups or version control.";
            Result<StateSnapshot> r = encryption.decode(bytes, display, recovery);
            LOG.debug(
                    "state read from {}: {} bytes, serial {}",
                    display,
                    bytes.length,
                    r.value() == null ? "-" : r.value().serial());
            return r.hasErrors()
                    ? Result.of(null, r.diagnostics())
                    : Result.of(new Disk(r.value(), id), r.diagnostics());
        } catch (IOException e) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to read the state file",
                            "Could not read " + display + ": " + dev.strata.hcl.IoProblems.reason(e) + ".",
                            null)));
        }
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
        return lock == null ? null : lock.info();
    }

    @Override
    public synchronized Result<StateSnapshot> persist(StateSnapshot next) {
        Result<StateSnapshot> refused = WriteChecks.persist(exists, state, next, displayPath);
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
            throw new IllegalStateException("state manager of " + displayPath + " is closed");
        }
        if (lock != null && lock.lostReason() != null) {
            return WriteChecks.lockLost(WriteChecks.notHeld(displayPath, lock.lostReason()));
        }
        try {
            FileIdentity now = FileIdentity.of(statePath);
            if (!Objects.equals(now, identity)) {
                return WriteChecks.changedSinceRead(
                        displayPath,
                        "process",
                        lock == null ? " (locking is off: -lock=false)" : " without taking the lock");
            }
            boolean sameHistory = next.lineage().equals(state.lineage());
            // With -state-out the state goes to another file, which must be written even when nothing changed.
            boolean elsewhere = !outPath.equals(statePath) && !wroteOut;
            if (exists && sameHistory && next.sameContentAs(state) && journalSize == 0 && !elsewhere) {
                return Result.of(state);
            }
            long serial = WriteChecks.serial(exists, lineageMayChange, placeholder, next, state);
            StateSnapshot toWrite = next.withSerial(serial).withTerraformVersion(version);
            if (!lineageMayChange) {
                toWrite = toWrite.withLineage(state.lineage());
            }
            if (!backedUp) {
                // The backup is the state as this session found it, as Terraform keeps it: after an apply
                // it holds the state from before the apply, not from halfway through it. No state (or the
                // empty file created to lock it), no backup.
                if (!outPath.equals(statePath)) {
                    // With -state-out the backup is of the file about to be overwritten, as Terraform keeps it.
                    byte[] previous = Files.exists(outPath) ? LocalLock.readUnlocked(outPath) : new byte[0];
                    if (previous.length > 0 && backupPath != null) {
                        AtomicFiles.write(backupPath, previous);
                    }
                } else if (now != null && now.size() > 0 && backupPath != null) {
                    // From the bytes, not by copying the path: opening the locked file would drop its lock.
                    AtomicFiles.write(backupPath, lock != null ? lock.readState() : LocalLock.readUnlocked(statePath));
                }
                backedUp = true;
            }
            long started = System.nanoTime();
            byte[] encoded = encryption.encode(toWrite);
            if (!outPath.equals(statePath)) {
                AtomicFiles.write(outPath, encoded);
            } else if (lock != null) {
                lock.replaceState(encoded);
            } else {
                AtomicFiles.write(statePath, encoded);
            }
            LOG.debug(
                    "state written to {}: serial {}, {} bytes, in {} ms",
                    displayPath,
                    serial,
                    encoded.length,
                    (System.nanoTime() - started) / 1_000_000);
            identity = FileIdentity.of(statePath);
            wroteOut = true;
            state = toWrite;
            exists = true;
            if (journalSize > 0 || Files.exists(journalPath)) {
                clearJournal();
            }
            return Result.of(state);
        } catch (IOException e) {
            return error(
                    "Failed to write the state",
                    "Could not write " + displayPath + ": " + dev.strata.hcl.IoProblems.reason(e)
                            + ". The previous state file is unchanged.");
        }
    }

    /**
     * Replays the journal left by the previous holder. A journal already folded into the snapshot (the
     * compaction crashed before removing it) is removed, and a torn last line (the writer died while
     * appending it, so it was never acknowledged) is cut off; both only while holding the lock.
     */
    synchronized Diagnostics loadJournal() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(journalPath);
        } catch (NoSuchFileException e) {
            return Diagnostics.NONE;
        } catch (IOException e) {
            return Diagnostics.of(Diagnostic.error(
                    "Failed to read the state journal",
                    journalPath + ": " + dev.strata.hcl.IoProblems.reason(e),
                    null));
        }
        if (bytes.length == 0) {
            return Diagnostics.NONE;
        }
        if (!exists) {
            return Diagnostics.of(Diagnostic.error(
                    "State journal without a state",
                    "The journal " + journalPath.getFileName()
                            + " exists but " + displayPath
                            + " does not; the journal cannot be replayed without the snapshot it "
                            + "extends. Restore " + displayPath + " (or its backup) first.",
                    null));
        }
        Result<Journal.Replay> r =
                Journal.replay(state, bytes, journalPath.getFileName().toString());
        if (r.hasErrors()) {
            return r.diagnostics();
        }
        Journal.Replay replay = r.value();
        state = replay.state();
        journalSize = replay.applied();
        seq = replay.applied();
        openIntents.addAll(replay.openIntents());
        Diagnostics out = Diagnostics.NONE;
        try {
            if (replay.stale() && replay.applied() == 0) {
                if (lock != null) {
                    Files.deleteIfExists(journalPath);
                    AtomicFiles.forceDirectory(journalPath.toAbsolutePath().getParent());
                }
            } else if (replay.tornTail()) {
                out = Diagnostics.of(Diagnostic.warning(
                        "Incomplete journal entry ignored",
                        "The last entry of "
                                + journalPath.getFileName()
                                + " was cut off (the writer stopped while writing it), so it was never "
                                + "acknowledged; it is ignored.",
                        null));
                if (lock != null) {
                    int end = bytes.length;
                    while (end > 0 && bytes[end - 1] != '\n') {
                        end--;
                    }
                    try (java.nio.channels.FileChannel ch =
                            java.nio.channels.FileChannel.open(journalPath, java.nio.file.StandardOpenOption.WRITE)) {
                        ch.truncate(end);
                        ch.force(true);
                    }
                }
            }
        } catch (IOException e) {
            return Diagnostics.of(Diagnostic.error(
                    "Failed to repair the state journal",
                    journalPath + ": " + dev.strata.hcl.IoProblems.reason(e),
                    null));
        }
        return out;
    }

    /**
     * Group commit: the entry is written under the manager's monitor, and made durable outside it by
     * one fdatasync that covers every entry written before it, so concurrent operations share syncs
     * instead of queueing for one each. Returns only when this entry is durable.
     */
    @Override
    public Result<StateSnapshot> append(JournalEntry entry) {
        long started = System.nanoTime();
        // Encoded before taking the monitor: the entry's own fields (a whole object's attributes) are most of
        // its line, and encoding them while a hundred other appends waited was most of the time it was held.
        byte[] body = Journal.body(entry);
        long[] ticket = new long[1];
        Result<StateSnapshot> r = write(entry, body, ticket);
        if (r.hasErrors() || ticket[0] == 0) {
            return r;
        }
        boolean durable = syncUpTo(ticket[0]);
        if (LOG.isTraceEnabled()) {
            LOG.trace(
                    "journal append ({}) durable={} in {} ms",
                    Journal.describe(entry),
                    durable,
                    (System.nanoTime() - started) / 1_000_000);
        }
        return durable
                ? r
                : error(
                        "Failed to append to the state journal",
                        journalPath
                                + ": the entry was written but could not be made durable. The entry is not recorded.");
    }

    /**
     * The entries written one after the other under the manager's monitor, then made durable by one sync
     * (group commit as for {@link #append}): an object created and the end of its operation's intent cost
     * one wait for the disk instead of two. Lines and their order on disk are those of separate appends.
     */
    @Override
    public Result<StateSnapshot> appendAll(List<JournalEntry> entries) {
        if (entries.size() == 1) {
            return append(entries.getFirst());
        }
        long started = System.nanoTime();
        byte[][] bodies = new byte[entries.size()][];
        for (int i = 0; i < bodies.length; i++) {
            bodies[i] = Journal.body(entries.get(i));
        }
        long[] ticket = new long[1];
        Result<StateSnapshot> r = writeAll(entries, bodies, ticket);
        if (ticket[0] == 0) {
            return r;
        }
        // Those written before an error are made durable too, as separate appends would have left them.
        boolean durable = syncUpTo(ticket[0]);
        if (LOG.isTraceEnabled()) {
            LOG.trace(
                    "journal append of {} entries ({}) durable={} in {} ms",
                    entries.size(),
                    entries.stream().map(Journal::describe).collect(java.util.stream.Collectors.joining("; ")),
                    durable,
                    (System.nanoTime() - started) / 1_000_000);
        }
        if (r.hasErrors() || durable) {
            return r;
        }
        return error(
                "Failed to append to the state journal",
                journalPath
                        + ": the entries were written but could not be made durable. The entries are not recorded.");
    }

    private synchronized Result<StateSnapshot> writeAll(List<JournalEntry> entries, byte[][] bodies, long[] ticket) {
        int total = 0;
        for (byte[] b : bodies) {
            total += b.length;
        }
        if (total > SMALL_ENTRY) {
            Result<StateSnapshot> r = Result.of(state);
            for (int i = 0; i < bodies.length; i++) {
                r = write(entries.get(i), bodies[i], ticket);
                if (r.hasErrors()) {
                    return r;
                }
            }
            return r;
        }
        // Small entries (an object and the end of its intent) go to the file in one write call: the lines are
        // those separate writes would have made, one system call (and one blocking of the calling thread) fewer.
        Result<StateSnapshot> notReady = ready();
        if (notReady != null) {
            return notReady;
        }
        byte[][] heads = new byte[bodies.length][];
        int size = 0;
        for (int i = 0; i < bodies.length; i++) {
            heads[i] = head(seq + 1 + i);
            size += heads[i].length + bodies[i].length - 1;
        }
        byte[] lines = new byte[size];
        int p = 0;
        for (int i = 0; i < bodies.length; i++) {
            System.arraycopy(heads[i], 0, lines, p, heads[i].length);
            p += heads[i].length;
            System.arraycopy(bodies[i], 1, lines, p, bodies[i].length - 1);
            p += bodies[i].length - 1;
        }
        try {
            AtomicFiles.writeFully(journal, lines);
        } catch (IOException e) {
            // None is recorded here. What reached the file may replay (an object whose intent stays open, which
            // the next run settles, as after a crash between the lines).
            journalFailure = dev.strata.hcl.IoProblems.reason(e);
            return error(
                    "Failed to append to the state journal",
                    journalPath + ": " + dev.strata.hcl.IoProblems.reason(e) + ". The entries are not recorded.");
        }
        for (JournalEntry entry : entries) {
            recorded(entry, ticket);
        }
        return Result.of(state);
    }

    /** How many times the journal was made durable (for tests: appends share syncs). */
    long syncs() {
        return syncs;
    }

    private volatile long syncs;

    /**
     * One sync at a time; appends that arrive while it runs wait on {@link #syncDone} (parked, not
     * spinning on a monitor: a hundred operations append at once) and are covered by the next one.
     */
    private final java.util.concurrent.locks.ReentrantLock syncLock = new java.util.concurrent.locks.ReentrantLock();

    private final java.util.concurrent.locks.Condition syncDone = syncLock.newCondition();
    private boolean syncing;
    private volatile long written;
    private volatile long synced;

    private boolean syncUpTo(long ticket) {
        if (synced >= ticket) {
            return true;
        }
        syncLock.lock();
        try {
            while (synced < ticket) {
                if (syncing) {
                    syncDone.awaitUninterruptibly();
                    continue;
                }
                syncing = true;
                long target = written;
                boolean ok;
                syncLock.unlock();
                try {
                    ok = force();
                } finally {
                    syncLock.lock();
                    syncing = false;
                    syncDone.signalAll();
                }
                if (!ok) {
                    return false;
                }
                synced = Math.max(synced, target);
            }
            return true;
        } finally {
            syncLock.unlock();
        }
    }

    /** Makes the journal's written entries durable; false when that failed. */
    private boolean force() {
        // Read without the manager's monitor: a writer holding it may be waiting for this sync.
        java.nio.channels.FileChannel ch = journal;
        try {
            if (ch != null) {
                // Data only (fdatasync): the cost of the new bytes, not of the state.
                ch.force(false);
                // One sync runs at a time (syncUpTo), so this is never counted by two threads at once.
                syncs++;
            }
            return true;
        } catch (java.nio.channels.ClosedChannelException e) {
            // Compacted meanwhile: the snapshot, written durably, holds every entry.
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private synchronized Result<StateSnapshot> write(JournalEntry entry, byte[] body, long[] ticket) {
        Result<StateSnapshot> notReady = ready();
        if (notReady != null) {
            return notReady;
        }
        try {
            byte[] head = head(seq + 1);
            if (body.length <= SMALL_ENTRY) {
                AtomicFiles.writeFully(journal, Journal.join(head, body));
            } else {
                // No copy of a large entry (a value of megabytes) to join it to its header; a crash between
                // the two writes leaves a torn last line, which replay drops (it was never acknowledged).
                AtomicFiles.writeFully(journal, head);
                AtomicFiles.writeFully(journal, body, 1);
            }
        } catch (IOException e) {
            journalFailure = dev.strata.hcl.IoProblems.reason(e);
            return error(
                    "Failed to append to the state journal",
                    journalPath + ": " + dev.strata.hcl.IoProblems.reason(e) + ". The entry is not recorded.");
        }
        recorded(entry, ticket);
        return Result.of(state);
    }

    /**
     * Checks that the journal may be written and opens it (writing the first snapshot when there is none);
     * null when ready, else the error. Under the monitor.
     */
    private Result<StateSnapshot> ready() {
        if (lock == null) {
            return WriteChecks.journalNeedsLock(displayPath, "");
        }
        if (lock.lostReason() != null) {
            return error("State lock lost", WriteChecks.notHeld(displayPath, lock.lostReason()) + ".");
        }
        if (!exists) {
            // The journal needs a snapshot to extend. This empty one keeps serial 0, so that the first
            // compaction writes serial 1, as Terraform's first write does.
            Result<StateSnapshot> first = write(state, false, true);
            if (first.hasErrors()) {
                return first;
            }
        }
        if (journalFailure != null) {
            // A write that failed may have left part of a line in the file: a line appended after it would
            // make the journal unreadable from there on, where a torn last line is dropped on replay.
            return error(
                    "Failed to append to the state journal",
                    journalPath + ": an earlier append failed (" + journalFailure + "), so nothing more is"
                            + " appended to it until the state is written whole. The entry is not recorded.");
        }
        if (journal == null) {
            try {
                boolean created = !Files.exists(journalPath);
                journal = java.nio.channels.FileChannel.open(
                        journalPath,
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.WRITE,
                        java.nio.file.StandardOpenOption.APPEND);
                if (created) {
                    AtomicFiles.forceDirectory(journalPath.toAbsolutePath().getParent());
                }
            } catch (IOException e) {
                return error(
                        "Failed to append to the state journal",
                        journalPath + ": " + dev.strata.hcl.IoProblems.reason(e) + ". The entry is not recorded.");
            }
        }
        return null;
    }

    /** Why an append to the journal failed in this run, until the state is written whole; under the monitor. */
    private String journalFailure;

    /** The header of line {@code n} over the current snapshot. Under the monitor. */
    private byte[] head(long n) {
        if (headTail == null || headSerial != state.serial() || !headLineage.equals(state.lineage())) {
            headTail = Journal.tail(state.lineage(), state.serial());
            headLineage = state.lineage();
            headSerial = state.serial();
        }
        return Journal.header(headTail, n);
    }

    /** The header's part after the line number, as last encoded (by {@link #head}), and what it was encoded for. */
    private byte[] headTail;

    private String headLineage;
    private long headSerial;

    /** An entry is in the file: counts it and applies it to the state. Under the monitor. */
    private void recorded(JournalEntry entry, long[] ticket) {
        seq++;
        journalSize++;
        written++;
        ticket[0] = written;
        state = Journal.apply(state, entry);
        openIntents.track(entry);
    }

    @Override
    public synchronized Result<StateSnapshot> compact() {
        if (journalSize == 0) {
            return Result.of(state);
        }
        LOG.debug("compacting the journal of {}: {} entries into the snapshot", displayPath, journalSize);
        return write(state, false, false);
    }

    @Override
    public int journalSize() {
        // Not synchronized: the apply asks after every append whether to compact, and a hundred threads
        // queueing on the monitor for that cost more than the appends.
        return journalSize;
    }

    @Override
    public synchronized List<JournalEntry.Intent> openIntents() {
        return openIntents.list();
    }

    /** After the snapshot holds everything: remove the journal, then re-append intents still open. */
    private void clearJournal() throws IOException {
        if (journal != null) {
            journal.close();
            journal = null;
        }
        if (Files.deleteIfExists(journalPath)) {
            AtomicFiles.forceDirectory(journalPath.toAbsolutePath().getParent());
        }
        journalSize = 0;
        seq = 0;
        // The snapshot holds every recorded entry and the journal that a write failed on is gone.
        journalFailure = null;
        Result<StateSnapshot> failed = openIntents.reappend(this::append);
        if (failed != null) {
            throw new IOException(failed.diagnostics().asList().get(0).detail());
        }
    }

    @Override
    public Diagnostics checkWritable() {
        Diagnostics.Builder out = Diagnostics.builder();
        // Existing files are opened for writing (without changing them): that is what the OS refuses for
        // a read-only or immutable file, whoever we run as. The directory must take new files, since every
        // write goes through a temporary file renamed into place.
        // The locked state file is open for writing already (an fcntl write lock needs that), and opening it
        // again here would drop the lock when closed: POSIX locks belong to the process, not the descriptor.
        List<Path> files = new java.util.ArrayList<>(List.of(journalPath));
        if (lock == null || !outPath.equals(statePath)) {
            files.add(outPath);
        }
        if (backupPath != null) {
            files.add(backupPath);
        }
        for (Path p : files) {
            if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.exists(p)) {
                try (var ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
                    // opened: writable
                } catch (IOException e) {
                    out.add(Diagnostic.error(
                            "State file is not writable",
                            "Cannot write " + p + ": "
                                    + dev.strata.hcl.IoProblems.reason(e)
                                    + ". Strata checks this before changing anything, because a change "
                                    + "the state cannot record would be lost. Fix the permissions (or the path) and run the "
                                    + "command again.",
                            null));
                }
            }
        }
        Path dir = statePath.toAbsolutePath().getParent();
        Path existing = dir;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        String problem = null;
        if (existing != null && !Files.isDirectory(existing)) {
            problem = existing + ": not a directory";
        } else if (existing != null) {
            try {
                Path probe = Files.createTempFile(existing, "." + statePath.getFileName() + ".strata-check-", ".tmp");
                Files.delete(probe);
            } catch (IOException e) {
                problem = existing + ": " + dev.strata.hcl.IoProblems.reason(e);
            }
        }
        if (problem != null) {
            out.add(Diagnostic.error(
                    "State directory is not writable",
                    "Cannot create files in the directory of "
                            + statePath + " (" + problem
                            + "). Every state write goes through a new file in that directory. "
                            + "Strata checks this before changing anything, because a change the state cannot record would be "
                            + "lost. Fix the permissions (or the path) and run the command again.",
                    null));
        }
        return out.build();
    }

    private static Result<StateSnapshot> error(String summary, String detail) {
        return WriteChecks.error(summary, detail);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            if (journal != null) {
                try {
                    journal.close();
                } catch (IOException e) {
                    // every appended entry was forced to disk already
                }
            }
            if (lock != null) {
                lock.close();
            }
        }
    }
}
