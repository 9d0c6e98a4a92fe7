package dev.strata.state;

import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The lock of one local state file: an exclusive OS lock on the state file itself, the lock Terraform's
 * local backend takes (a whole-file {@code fcntl} write lock, released by the kernel when the holder
 * dies, however it dies), so that Strata and Terraform exclude each other; plus the lock-info file
 * {@code .NAME.lock.info} saying who holds it, refreshed by a heartbeat. The info file is information,
 * not the lock: one left behind by a process that no longer holds the OS lock is taken over.
 *
 * <p>The JDK's file locks are POSIX record locks on Linux, which belong to the process and the inode:
 * closing <em>any</em> descriptor of the file in this process drops them, and Strata replaces the state
 * file by rename, which puts a new inode at the path. So while held:
 * <ul>
 *   <li>the state file is read through the locked channel ({@link #readState}), never by opening the
 *       path again, and nothing else in this process may open it (in-process openers go through
 *       {@link #HELD_HERE});</li>
 *   <li>a new state is written to a temporary file that is locked before it is renamed into place
 *       ({@link #replaceState}), so the path's current inode is always locked; the replaced inodes stay
 *       locked until release, so a process that opened one of them before the rename cannot lock it
 *       while we run;</li>
 *   <li>a state file that does not exist is created empty to be locked, as Terraform does, and removed
 *       again at release if nothing was written to it.</li>
 * </ul>
 * Remaining edge cases, documented in docs/state.md: a Terraform that waits with {@code -lock-timeout}
 * keeps the descriptor it opened before Strata replaced the file, so after Strata releases it can lock
 * the replaced (unlinked) inode and work on the state as it was before Strata's run; and deleting the
 * state file from outside while it is locked lets the next process lock a new file.
 *
 * <p>When the file system cannot lock (some network file systems), the lock-info file alone is the
 * lock, created exclusively, and the heartbeat decides when an abandoned one may be taken over.
 */
final class LocalLock implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LocalLock.class);
    /** Locks held by this JVM, by state file: a second in-process tryLock would throw, and closing its channel would drop ours. */
    private static final Map<Path, LocalLock> HELD_HERE = new ConcurrentHashMap<>();

    private static final ScheduledExecutorService HEARTBEATS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "strata-lock-heartbeat");
        t.setDaemon(true);
        return t;
    });
    /** Attempts to lock a state file that another Strata keeps replacing before one counts as busy. */
    private static final int REPLACED_RETRIES = 20;

    private final Path stateFile;
    private final Path infoFile;
    /** The channel of the inode at the path now, and its OS lock (null when the file system cannot lock). */
    private FileChannel channel;

    private FileLock osLock;
    /** Channels of inodes this lock replaced by rename: kept locked until release (see the class comment). */
    private final List<FileChannel> superseded = new ArrayList<>();
    /** We created the state file to lock it and have not written it yet: remove it again at release. */
    private boolean createdEmpty;

    private final LockTiming timing;
    private volatile LockInfo info;
    private volatile String lostReason;
    private ScheduledFuture<?> heartbeat;

    private LocalLock(
            Path stateFile,
            Path infoFile,
            FileChannel channel,
            FileLock osLock,
            boolean createdEmpty,
            LockInfo info,
            LockTiming timing) {
        this.stateFile = stateFile;
        this.infoFile = infoFile;
        this.channel = channel;
        this.osLock = osLock;
        this.createdEmpty = createdEmpty;
        this.info = info;
        this.timing = timing;
    }

    static Path infoFileOf(Path stateFile) {
        return stateFile.resolveSibling("." + stateFile.getFileName() + ".lock.info");
    }

    /** The outcome of one attempt. */
    sealed interface Attempt {
        /** Acquired; {@code tookOver} is the stale holder replaced, with why it was judged stale. */
        record Acquired(LocalLock lock, LockInfo tookOver, String staleReason) implements Attempt {}

        /** Someone else holds it; {@code holder} may be null when the info is unreadable or not yet written. */
        record Busy(LockInfo holder, String note) implements Attempt {}

        record Failed(String message) implements Attempt {}
    }

    /**
     * Serialises opening and closing state-file channels within this JVM: closing any descriptor of a
     * file drops every lock this process holds on it, so a second thread's failed attempt must never
     * close a channel while another thread is between taking the lock and registering it in
     * {@link #HELD_HERE}.
     */
    private static final Object CHANNELS = new Object();

    /** One non-blocking attempt to take the lock of {@code stateFile}. */
    static Attempt tryAcquire(Path stateFile, LockInfo proposed, LockTiming timing) {
        long started = System.nanoTime();
        Attempt a;
        synchronized (CHANNELS) {
            a = null;
            for (int i = 0; i < REPLACED_RETRIES; i++) {
                a = tryAcquireLocked(stateFile.toAbsolutePath().normalize(), proposed, timing);
                if (!(a instanceof Attempt.Busy b && REPLACED.equals(b.note()))) {
                    break;
                }
            }
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        switch (a) {
            case Attempt.Acquired ok ->
                LOG.debug(
                        "lock {} on {} acquired for {} in {} ms{}",
                        ok.lock().info.id(),
                        stateFile,
                        proposed.operation(),
                        ms,
                        ok.tookOver() == null
                                ? ""
                                : ", taking over the stale lock of "
                                        + ok.tookOver().who() + " (" + ok.staleReason() + ")");
            case Attempt.Busy busy ->
                LOG.debug(
                        "lock on {} is busy: held by {}{}",
                        stateFile,
                        busy.holder() == null
                                ? "an unknown holder"
                                : busy.holder().who() + " (pid " + busy.holder().pid() + ", "
                                        + busy.holder().operation() + ", lock "
                                        + busy.holder().id() + ")",
                        busy.note() == null ? "" : ", " + busy.note());
            case Attempt.Failed f -> LOG.debug("lock on {} failed: {}", stateFile, f.message());
        }
        return a;
    }

    private static final String REPLACED = "the state file was replaced while it was being locked";

    private static Attempt tryAcquireLocked(Path stateFile, LockInfo proposed, LockTiming timing) {
        Path infoFile = infoFileOf(stateFile);
        LocalLock mine = HELD_HERE.get(stateFile);
        if (mine != null) {
            return new Attempt.Busy(mine.info, "held by this process");
        }
        FileChannel ch = null;
        FileLock os = null;
        boolean osLocksWork = true;
        boolean created = false;
        try {
            Files.createDirectories(stateFile.getParent());
            Object before = fileKey(stateFile);
            try {
                ch = FileChannel.open(
                        stateFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
                created = true;
            } catch (FileAlreadyExistsException e) {
                ch = FileChannel.open(stateFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            try {
                os = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                closeQuietly(ch);
                return new Attempt.Busy(readInfo(infoFile), "held by this process");
            } catch (IOException e) {
                // The file system cannot lock: fall back to the lock-info file alone.
                osLocksWork = false;
            }
            if (osLocksWork && os == null) {
                closeQuietly(ch);
                return new Attempt.Busy(readInfo(infoFile), null);
            }
            // The path must still name the inode we locked: another Strata may have renamed a new state
            // over it between our open and our lock, or removed the empty file it had created.
            Object after = fileKey(stateFile);
            if (after == null || !(created || after.equals(before))) {
                release(ch, os);
                return new Attempt.Busy(readInfo(infoFile), REPLACED);
            }
            LockInfo previous = readInfo(infoFile);
            boolean infoExists = Files.exists(infoFile);
            Instant now = timing.clock().instant();
            String staleReason = null;
            if (infoExists) {
                staleReason = staleReason(previous, osLocksWork, now, timing.staleAfter(), infoFile);
                if (staleReason == null) {
                    removeCreated(stateFile, created, ch);
                    release(ch, os);
                    return new Attempt.Busy(previous, null);
                }
            }
            LockInfo info = proposed.withHeartbeat(now);
            if (osLocksWork) {
                AtomicFiles.write(infoFile, info.toJson());
            } else {
                if (infoExists) {
                    Files.deleteIfExists(infoFile);
                }
                try {
                    Files.write(
                            infoFile,
                            info.toJson(),
                            StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.SYNC);
                } catch (FileAlreadyExistsException e) {
                    removeCreated(stateFile, created, ch);
                    release(ch, null);
                    return new Attempt.Busy(readInfo(infoFile), null);
                }
            }
            LocalLock lock = new LocalLock(stateFile, infoFile, ch, os, created, info, timing);
            HELD_HERE.put(stateFile, lock);
            lock.startHeartbeat();
            return new Attempt.Acquired(lock, infoExists ? previous : null, staleReason);
        } catch (IOException e) {
            removeCreated(stateFile, created, ch);
            release(ch, os);
            return new Attempt.Failed("Could not lock " + stateFile + ": " + dev.strata.hcl.IoProblems.reason(e));
        }
    }

    /** The file's identity (its inode where the platform has one), or null when it does not exist. */
    private static Object fileKey(Path p) throws IOException {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            Object k = a.fileKey();
            return k != null ? k : a.creationTime();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Removes the empty state file we created to lock it, while still holding its lock. */
    private static void removeCreated(Path stateFile, boolean created, FileChannel ch) {
        if (!created || ch == null) {
            return;
        }
        try {
            if (ch.size() == 0) {
                Files.deleteIfExists(stateFile);
            }
        } catch (IOException e) {
            // An empty state file means no state, to Strata and Terraform alike.
        }
    }

    /** The bytes of the locked state file, read through the locked channel (opening the path again would drop the lock). */
    synchronized byte[] readState() throws IOException {
        long size = channel.size();
        if (size > Integer.MAX_VALUE - 16) {
            throw new IOException("the file is too large (" + size + " bytes)");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        while (buf.hasRemaining()) {
            // A slice at a time, for the same reason as AtomicFiles.writeFully: the channel reads through a
            // temporary direct buffer as large as the space it is offered.
            buf.limit(Math.min(buf.capacity(), buf.position() + (1 << 20)));
            if (channel.read(buf, buf.position()) < 0) {
                break;
            }
            buf.limit(buf.capacity());
        }
        return buf.position() == buf.capacity() ? buf.array() : Arrays.copyOf(buf.array(), buf.position());
    }

    /**
     * The bytes of a state file this lock does not cover. Another lock of this process on it is read
     * through its channel: opening and closing the path here would drop that lock.
     */
    static byte[] readUnlocked(Path stateFile) throws IOException {
        LocalLock held;
        synchronized (CHANNELS) {
            held = HELD_HERE.get(stateFile.toAbsolutePath().normalize());
            if (held == null) {
                return Files.readAllBytes(stateFile);
            }
        }
        return held.readState();
    }

    /**
     * Atomically replaces the state file with {@code content}, keeping it locked throughout: the
     * temporary file is locked before it is renamed over the state file, and the replaced inode stays
     * locked until release.
     */
    synchronized void replaceState(byte[] content) throws IOException {
        Path dir = stateFile.getParent();
        Path tmp = dir.resolve("." + stateFile.getFileName() + AtomicFiles.TEMP_MARKER
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        FileChannel ch =
                FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        boolean adopted = false;
        try {
            FileLock l = null;
            if (osLock != null) {
                l = ch.tryLock();
                if (l == null) {
                    throw new IOException("could not lock the new state file " + tmp.getFileName());
                }
            }
            AtomicFiles.writeFully(ch, content);
            ch.force(true);
            try {
                Files.move(tmp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + dir + " cannot rename files atomically", e);
            }
            superseded.add(channel);
            channel = ch;
            osLock = l;
            createdEmpty = false;
            adopted = true;
            AtomicFiles.forceDirectory(dir);
        } finally {
            if (!adopted) {
                closeQuietly(ch);
                Files.deleteIfExists(tmp);
            }
        }
    }

    /**
     * Why the recorded holder no longer holds the lock we just got the OS lock for, or null if it still
     * does. Pure, apart from the process table lookup.
     */
    static String staleReason(LockInfo holder, boolean osLocksWork, Instant now, Duration staleAfter, Path infoFile) {
        if (holder == null) {
            // Unreadable info: half-written by a holder in the info-only mode, or garbage left by a crash.
            if (osLocksWork) {
                return "its lock info was unreadable and no process holds the lock";
            }
            try {
                Instant modified = Files.getLastModifiedTime(infoFile).toInstant();
                return Duration.between(modified, now).compareTo(staleAfter) > 0
                        ? "its lock info was unreadable and untouched for "
                                + Durations.human(Duration.between(modified, now))
                        : null;
            } catch (IOException e) {
                return "its lock info has disappeared";
            }
        }
        boolean sameHost = holder.host().equals(Hosts.hostName());
        Duration silent = holder.heartbeat() == null ? null : Duration.between(holder.heartbeat(), now);
        boolean heartbeatOld = silent != null && silent.compareTo(staleAfter) > 0;
        if (sameHost && holder.pid() > 0 && !Hosts.isAlive(holder.pid(), holder.processStart())) {
            return "its process " + holder.pid() + " on " + holder.host() + " is no longer running";
        }
        if (osLocksWork && sameHost) {
            // The kernel released the holder's OS lock, so the holder (or at least its lock) is gone.
            return "the process that held it exited without releasing it";
        }
        if (osLocksWork && holder.host().isEmpty()) {
            // Written by Terraform (it records no host): its lock is the OS lock on the state file, which
            // we now hold, so the info is a leftover; Terraform itself overwrites such info.
            return "no process holds the lock on the state file any more (" + holder.who()
                    + " stopped without removing its lock info)";
        }
        if (heartbeatOld) {
            return "its holder has not renewed its heartbeat for " + Durations.human(silent);
        }
        if (holder.pid() <= 0 && holder.heartbeat() == null) {
            // Written by Terraform (no pid, no heartbeat) on a file system without OS locks: nothing
            // renews it, so it is stale only once old.
            return holder.created() != null
                            && Duration.between(holder.created(), now).compareTo(staleAfter) > 0
                    ? "it was created " + Durations.human(Duration.between(holder.created(), now)) + " ago by "
                            + holder.who() + " and nothing renews it"
                    : null;
        }
        return null;
    }

    static LockInfo readInfo(Path infoFile) {
        try {
            byte[] bytes = Files.readAllBytes(infoFile);
            Result<LockInfo> r = LockInfo.parse(bytes, infoFile.getFileName().toString());
            return r.value();
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private void startHeartbeat() {
        long ms = Math.max(1, timing.heartbeatInterval().toMillis());
        heartbeat = HEARTBEATS.scheduleWithFixedDelay(this::beat, ms, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * Renews the heartbeat, or notices that the lock was taken from us (force-unlock, takeover, info
     * removed). The new info is made durable in a temp file first and the ownership check comes right
     * before the rename, so a removal is not undone by a beat that was already under way.
     */
    void beat() {
        if (lostReason != null) {
            return;
        }
        LockInfo next = info.withHeartbeat(timing.clock().instant());
        Path tmp = infoFile.resolveSibling(infoFile.getFileName() + AtomicFiles.TEMP_MARKER + "beat");
        try {
            Files.write(
                    tmp,
                    next.toJson(),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.SYNC);
            LockInfo current = readInfo(infoFile);
            if (current == null || !current.id().equals(info.id())) {
                lostReason = current == null
                        ? "its lock info " + infoFile + " was removed (force-unlock?)"
                        : "lock " + current.id() + " of " + current.who() + " replaced it";
                Files.deleteIfExists(tmp);
                return;
            }
            Files.move(
                    tmp,
                    infoFile,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            info = next;
        } catch (IOException e) {
            // A missed beat is not fatal: the stale timeout is many intervals long.
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a leftover temp file is removed with the next writer's leftovers
            }
        }
    }

    LockInfo info() {
        return info;
    }

    /** Why the lock is no longer ours, or null while it is. */
    String lostReason() {
        return lostReason;
    }

    @Override
    public void close() {
        LOG.debug(
                "lock {} on {} released after {} ms",
                info.id(),
                stateFile,
                info.age(timing.clock().instant()).toMillis());
        if (heartbeat != null) {
            heartbeat.cancel(false);
        }
        try {
            LockInfo current = readInfo(infoFile);
            if (current != null && current.id().equals(info.id())) {
                Files.deleteIfExists(infoFile);
            }
        } catch (IOException e) {
            // A leftover info file is recognised as stale by the next holder.
        } finally {
            synchronized (CHANNELS) {
                synchronized (this) {
                    if (HELD_HERE.remove(stateFile, this)) {
                        removeCreated(stateFile, createdEmpty, channel);
                    }
                    release(channel, osLock);
                    superseded.forEach(LocalLock::closeQuietly);
                    superseded.clear();
                }
            }
        }
    }

    /**
     * Removes a lock that is not held by a live process (force-unlock). Refuses when a process holds
     * the OS lock: removing its info file would not free the lock, only hide who holds it.
     */
    static Result<LockInfo> forceUnlock(Path stateFile, String id) {
        synchronized (CHANNELS) {
            return forceUnlockLocked(stateFile, id);
        }
    }

    private static Result<LockInfo> forceUnlockLocked(Path stateFile, String id) {
        Path infoFile = infoFileOf(stateFile);
        LockInfo holder = readInfo(infoFile);
        if (holder == null && !Files.exists(infoFile)) {
            return Result.of(
                    null,
                    dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                            "Failed to unlock state",
                            "The state " + stateFile.getFileName() + " is not locked.",
                            null)));
        }
        if (holder != null && !holder.id().equals(id)) {
            return Result.of(
                    null,
                    dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                            "Failed to unlock state",
                            "Lock ID \"" + id + "\" does not match the existing lock ID \"" + holder.id()
                                    + "\" (held by " + holder.who() + " for " + holder.operation() + ").",
                            null)));
        }
        Path key = stateFile.toAbsolutePath().normalize();
        LocalLock here = HELD_HERE.get(key);
        if (here != null) {
            // Held by this very process: force-unlock means the holder's work is abandoned.
            here.lostReason = "it was force-unlocked";
            here.close();
            return Result.of(holder);
        }
        FileChannel ch = null;
        FileLock os = null;
        try {
            try {
                ch = FileChannel.open(key, StandardOpenOption.READ, StandardOpenOption.WRITE);
                os = ch.tryLock();
                if (os == null) {
                    return Result.of(
                            null,
                            dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                                    "Failed to unlock state",
                                    "The lock is held by a running process"
                                            + (holder == null
                                                    ? ""
                                                    : " (" + holder.who()
                                                            + (holder.pid() > 0 ? ", pid " + holder.pid() : "") + ")")
                                            + ". Stop that process first; its lock goes away when it exits.",
                                    null)));
                }
            } catch (NoSuchFileException e) {
                // No state file, so no OS lock: only the info is left.
            } catch (IOException | OverlappingFileLockException e) {
                // No OS locks here: the info file is the lock, remove it.
            }
            Files.deleteIfExists(infoFile);
            return Result.of(holder);
        } catch (IOException e) {
            return Result.of(
                    null,
                    dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                            "Failed to unlock state",
                            "Could not remove " + infoFile + ": " + dev.strata.hcl.IoProblems.reason(e),
                            null)));
        } finally {
            release(ch, os);
        }
    }

    private static void release(FileChannel ch, FileLock os) {
        try {
            if (os != null && os.isValid()) {
                os.release();
            }
        } catch (IOException e) {
            // Closing the channel below releases it too.
        }
        closeQuietly(ch);
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // nothing more to release
            }
        }
    }
}
