package dev.strata.state;

import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The lock of one local state file: an exclusive OS lock on {@code .NAME.lock} (released by the
 * kernel when the holder dies, however it dies) plus the lock-info file {@code .NAME.lock.info}
 * saying who holds it, refreshed by a heartbeat.
 *
 * <p>The OS lock file is never deleted: deleting it would let a newcomer lock a fresh inode while an
 * old holder still holds the deleted one. When the file system cannot lock (some network file
 * systems), the lock-info file alone is the lock, created exclusively, and the heartbeat decides when
 * an abandoned one may be taken over.
 */
final class LocalLock implements AutoCloseable {
    /** Locks held by this JVM, by lock file: a second in-process tryLock would throw, and closing its channel could drop ours. */
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LocalLock.class);
    private static final Map<Path, LocalLock> HELD_HERE = new ConcurrentHashMap<>();
    private static final ScheduledExecutorService HEARTBEATS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "strata-lock-heartbeat");
        t.setDaemon(true);
        return t;
    });

    private final Path lockFile;
    private final Path infoFile;
    private final FileChannel channel;
    private final FileLock osLock;
    private final LockTiming timing;
    private volatile LockInfo info;
    private volatile String lostReason;
    private ScheduledFuture<?> heartbeat;

    private LocalLock(Path lockFile, Path infoFile, FileChannel channel, FileLock osLock, LockInfo info, LockTiming timing) {
        this.lockFile = lockFile;
        this.infoFile = infoFile;
        this.channel = channel;
        this.osLock = osLock;
        this.info = info;
        this.timing = timing;
    }

    static Path lockFileOf(Path stateFile) {
        return stateFile.resolveSibling("." + stateFile.getFileName() + ".lock");
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
     * Serialises opening and closing lock-file channels within this JVM. The JDK's file locks are POSIX
     * record locks (checked on Linux): closing any descriptor of a file drops every lock this process
     * holds on it, so a second thread's failed attempt must never close a channel while another thread
     * is between taking the lock and registering it in {@link #HELD_HERE}.
     */
    private static final Object CHANNELS = new Object();

    /** One non-blocking attempt to take the lock of {@code stateFile}. */
    static Attempt tryAcquire(Path stateFile, LockInfo proposed, LockTiming timing) {
        long started = System.nanoTime();
        Attempt a;
        synchronized (CHANNELS) {
            a = tryAcquireLocked(stateFile, proposed, timing);
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        switch (a) {
            case Attempt.Acquired ok -> LOG.debug("lock {} on {} acquired for {} in {} ms{}", ok.lock().info.id(), stateFile,
                    proposed.operation(), ms, ok.tookOver() == null ? "" : ", taking over the stale lock of "
                            + ok.tookOver().who() + " (" + ok.staleReason() + ")");
            case Attempt.Busy busy -> LOG.debug("lock on {} is busy: held by {}{}", stateFile,
                    busy.holder() == null ? "an unknown holder" : busy.holder().who() + " (pid " + busy.holder().pid() + ", "
                            + busy.holder().operation() + ", lock " + busy.holder().id() + ")",
                    busy.note() == null ? "" : ", " + busy.note());
            case Attempt.Failed f -> LOG.debug("lock on {} failed: {}", stateFile, f.message());
        }
        return a;
    }

    private static Attempt tryAcquireLocked(Path stateFile, LockInfo proposed, LockTiming timing) {
        Path lockFile = lockFileOf(stateFile).toAbsolutePath().normalize();
        Path infoFile = infoFileOf(stateFile);
        LocalLock mine = HELD_HERE.get(lockFile);
        if (mine != null) {
            return new Attempt.Busy(mine.info, "held by this process");
        }
        FileChannel ch = null;
        FileLock os = null;
        boolean osLocksWork = true;
        try {
            Files.createDirectories(lockFile.getParent());
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
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
            if (heldByTerraform(stateFile)) {
                release(ch, os);
                return new Attempt.Busy(readInfo(infoFile), "held by Terraform");
            }
            LockInfo previous = readInfo(infoFile);
            boolean infoExists = Files.exists(infoFile);
            Instant now = timing.clock().instant();
            String staleReason = null;
            if (infoExists) {
                staleReason = staleReason(previous, osLocksWork, now, timing.staleAfter(), infoFile);
                if (staleReason == null) {
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
                    Files.write(infoFile, info.toJson(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                            StandardOpenOption.SYNC);
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    release(ch, null);
                    return new Attempt.Busy(readInfo(infoFile), null);
                }
            }
            LocalLock lock = new LocalLock(lockFile, infoFile, ch, os, info, timing);
            HELD_HERE.put(lockFile, lock);
            lock.startHeartbeat();
            return new Attempt.Acquired(lock, infoExists ? previous : null, staleReason);
        } catch (IOException e) {
            release(ch, os);
            return new Attempt.Failed("Could not lock " + lockFile + ": " + e.getMessage());
        }
    }

    /**
     * Terraform locks the state file itself (fcntl on {@code terraform.tfstate}), not our lock file, and
     * writes the same lock-info file: so check its lock too, or a long Terraform apply would look like a
     * stale lock to us.
     */
    static boolean heldByTerraform(Path stateFile) {
        if (!Files.isRegularFile(stateFile)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(stateFile, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l == null) {
                return true;
            }
            l.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return false;
        } catch (IOException e) {
            // Unlockable or unwritable: nothing to learn here; our own lock decides.
            return false;
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
                        ? "its lock info was unreadable and untouched for " + Durations.human(Duration.between(modified, now)) : null;
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
        if (heartbeatOld) {
            return "its holder has not renewed its heartbeat for " + Durations.human(silent);
        }
        if (osLocksWork && holder.pid() <= 0 && holder.heartbeat() == null) {
            // Written by Terraform (no pid, no heartbeat): Terraform holds an OS lock on the state file
            // itself, not on ours, so we cannot tell; a Terraform lock info without a live lock is stale
            // only if old.
            return holder.created() != null && Duration.between(holder.created(), now).compareTo(staleAfter) > 0
                    ? "it was created " + Durations.human(Duration.between(holder.created(), now)) + " ago by " + holder.who()
                    + " and nothing renews it" : null;
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
            Files.write(tmp, next.toJson(), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE, StandardOpenOption.SYNC);
            LockInfo current = readInfo(infoFile);
            if (current == null || !current.id().equals(info.id())) {
                lostReason = current == null
                        ? "its lock info " + infoFile + " was removed (force-unlock?)"
                        : "lock " + current.id() + " of " + current.who() + " replaced it";
                Files.deleteIfExists(tmp);
                return;
            }
            Files.move(tmp, infoFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
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
        LOG.debug("lock {} on {} released after {} ms", info.id(), lockFile, info.age(timing.clock().instant()).toMillis());
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
                HELD_HERE.remove(lockFile, this);
                release(channel, osLock);
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
            return Result.of(null, dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                    "Failed to unlock state", "The state " + stateFile.getFileName() + " is not locked.", null)));
        }
        if (holder != null && !holder.id().equals(id)) {
            return Result.of(null, dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                    "Failed to unlock state", "Lock ID \"" + id + "\" does not match the existing lock ID \"" + holder.id()
                            + "\" (held by " + holder.who() + " for " + holder.operation() + ").", null)));
        }
        Path lockFile = lockFileOf(stateFile).toAbsolutePath().normalize();
        LocalLock here = HELD_HERE.get(lockFile);
        if (here != null) {
            // Held by this very process: force-unlock means the holder's work is abandoned.
            here.lostReason = "it was force-unlocked";
            here.close();
            return Result.of(holder);
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock os = null;
            try {
                os = ch.tryLock();
                if (os == null) {
                    return Result.of(null, dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                            "Failed to unlock state", "The lock is held by a running process"
                                    + (holder == null ? "" : " (" + holder.who() + ", pid " + holder.pid() + ")")
                                    + ". Stop that process first; its lock goes away when it exits.", null)));
                }
            } catch (IOException | OverlappingFileLockException e) {
                // No OS locks here: the info file is the lock, remove it.
            }
            Files.deleteIfExists(infoFile);
            if (os != null) {
                os.release();
            }
            return Result.of(holder);
        } catch (IOException e) {
            return Result.of(null, dev.strata.hcl.Diagnostics.of(dev.strata.hcl.Diagnostic.error(
                    "Failed to unlock state", "Could not remove " + infoFile + ": " + e.getMessage(), null)));
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
