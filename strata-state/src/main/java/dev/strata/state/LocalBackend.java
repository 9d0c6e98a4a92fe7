package dev.strata.state;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The default backend: {@code terraform.tfstate} in the working directory for the default workspace
 * and {@code terraform.tfstate.d/NAME/terraform.tfstate} for the others, the layout Terraform uses.
 * Terraform's {@code path} and {@code workspace_dir} settings move them ({@link #withPaths}); as in
 * Terraform, {@code path} applies to the default workspace only.
 */
public final class LocalBackend implements Backend {
    public static final String STATE_FILE = "terraform.tfstate";
    public static final String WORKSPACE_DIR = "terraform.tfstate.d";
    public static final String BACKUP_SUFFIX = ".backup";

    private final Path dir;
    /** The default workspace's state file. */
    private final Path defaultState;
    /** Where the other workspaces' directories are. */
    private final Path workspaceDir;

    private final String version;
    private final LockTiming timing;
    private final Encryption encryption;
    /** The legacy -state-out and -backup paths of the default workspace; see {@link #withLegacyPaths}. */
    private final LegacyPaths legacy;

    /** {@code out}: where the default workspace's state is written (null: where it is read); {@code backup}: null for the default. */
    private record LegacyPaths(Path out, Path backup, boolean noBackup, long stamp) {
        static final LegacyPaths NONE = new LegacyPaths(null, null, false, 0);
    }

    private LocalBackend(
            Path dir, Path defaultState, Path workspaceDir, String version, LockTiming timing, Encryption encryption) {
        this(dir, defaultState, workspaceDir, version, timing, encryption, LegacyPaths.NONE);
    }

    private LocalBackend(
            Path dir,
            Path defaultState,
            Path workspaceDir,
            String version,
            LockTiming timing,
            Encryption encryption,
            LegacyPaths legacy) {
        this.dir = dir.toAbsolutePath().normalize();
        this.defaultState = this.dir.resolve(defaultState).normalize();
        this.workspaceDir = this.dir.resolve(workspaceDir).normalize();
        this.version = version;
        this.timing = timing;
        this.encryption = encryption;
        this.legacy = legacy;
    }

    /**
     * The same backend with Terraform's legacy local-state flags applied to the default workspace:
     * {@code state} ({@code -state}) is read and locked, {@code stateOut} ({@code -state-out}) is where
     * changes are written, and {@code backup} ({@code -backup}) keeps the state as it was before the
     * first change ({@code "-"}: no backup; default: the written path with {@code .backup}). Null or
     * empty keeps a setting's default; relative paths are relative to the working directory.
     */
    public LocalBackend withLegacyPaths(String state, String stateOut, String backup) {
        Path read = state == null || state.isEmpty()
                ? defaultState
                : dir.resolve(state).normalize();
        Path out = stateOut == null || stateOut.isEmpty()
                ? null
                : dir.resolve(stateOut).normalize();
        boolean none = "-".equals(backup);
        Path b = backup == null || backup.isEmpty() || none
                ? null
                : dir.resolve(backup).normalize();
        return new LocalBackend(
                dir, read, workspaceDir, version, timing, encryption, new LegacyPaths(out, b, none, legacy.stamp()));
    }

    /**
     * The same backend keeping backups as Terraform's {@code state} subcommands do: beside the state,
     * named {@code <state file>.<unixSeconds>.backup}, so that each edit keeps its own (unless
     * {@link #withLegacyPaths} set {@code -backup}).
     */
    public LocalBackend withTimestampedBackups(long unixSeconds) {
        return new LocalBackend(
                dir,
                defaultState,
                workspaceDir,
                version,
                timing,
                encryption,
                new LegacyPaths(legacy.out(), legacy.backup(), legacy.noBackup(), unixSeconds));
    }

    /** The local backend of a working directory; {@code version} is Strata's, written into states and locks. */
    public static LocalBackend in(Path workingDir, String version) {
        return new LocalBackend(
                workingDir, Path.of(STATE_FILE), Path.of(WORKSPACE_DIR), version, LockTiming.DEFAULT, Encryption.NONE);
    }

    /**
     * The same backend with the state of the default workspace at {@code path} and the other
     * workspaces under {@code workspaceDir} (Terraform's {@code path} and {@code workspace_dir}
     * settings); relative paths are relative to the working directory, null keeps the default.
     */
    public LocalBackend withPaths(String path, String workspaceDir) {
        return new LocalBackend(
                dir,
                Path.of(path == null ? STATE_FILE : path),
                Path.of(workspaceDir == null ? WORKSPACE_DIR : workspaceDir),
                version,
                timing,
                encryption);
    }

    LocalBackend withTiming(LockTiming t) {
        return new LocalBackend(dir, defaultState, workspaceDir, version, t, encryption, legacy);
    }

    /** The same backend, storing states encrypted (or reading them) as {@code e} says. */
    public LocalBackend withEncryption(Encryption e) {
        return new LocalBackend(dir, defaultState, workspaceDir, version, timing, e, legacy);
    }

    /**
     * The bytes of a local state file read from outside a backend session (e.g. {@code terraform_remote_state}).
     * Use this rather than opening the file: if this process holds the file's lock, closing another
     * descriptor of it would release that lock (POSIX record locks belong to the process).
     */
    public static byte[] readStateFile(Path file) throws IOException {
        return LocalLock.readUnlocked(file);
    }

    /** The state file of a workspace. */
    public Path statePath(String workspace) {
        return workspace.equals(Workspaces.DEFAULT)
                ? defaultState
                : workspaceDir.resolve(workspace).resolve(STATE_FILE);
    }

    /** The backup of a workspace's state; null when {@code -backup=-} turned it off. */
    public Path backupPath(String workspace) {
        boolean isDefault = workspace.equals(Workspaces.DEFAULT);
        if (isDefault && legacy.noBackup()) {
            return null;
        }
        if (isDefault && legacy.backup() != null) {
            return legacy.backup();
        }
        Path p = outPath(workspace);
        String stamp = legacy.stamp() > 0 ? "." + legacy.stamp() : "";
        return p.resolveSibling(p.getFileName() + stamp + BACKUP_SUFFIX);
    }

    /** Where a workspace's state is written: its state file, unless {@code -state-out} names another. */
    private Path outPath(String workspace) {
        return workspace.equals(Workspaces.DEFAULT) && legacy.out() != null ? legacy.out() : statePath(workspace);
    }

    @Override
    public Result<List<String>> workspaces() {
        List<String> names = new ArrayList<>();
        names.add(Workspaces.DEFAULT);
        Path wsDir = workspaceDir;
        if (Files.isDirectory(wsDir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(wsDir, Files::isDirectory)) {
                for (Path p : ds) {
                    String n = p.getFileName().toString();
                    if (!n.equals(Workspaces.DEFAULT) && Workspaces.checkName(n) == null) {
                        names.add(n);
                    }
                }
            } catch (IOException e) {
                return Result.of(names, ioError("Failed to list workspaces", wsDir, e));
            }
        }
        names.subList(1, names.size()).sort(Comparator.naturalOrder());
        return Result.of(List.copyOf(names));
    }

    private boolean workspaceExists(String name) {
        return name.equals(Workspaces.DEFAULT) || Files.isDirectory(workspaceDir.resolve(name));
    }

    @Override
    public Result<String> createWorkspace(String name) {
        Diagnostic bad = Workspaces.checkName(name);
        if (bad != null) {
            return Result.of(name, Diagnostics.of(bad));
        }
        if (workspaceExists(name)) {
            return Result.of(
                    name,
                    Diagnostics.of(Diagnostic.error(
                            "Workspace already exists", "Workspace \"" + name + "\" already exists.", null)));
        }
        try {
            Files.createDirectories(workspaceDir.resolve(name));
            return Result.of(name);
        } catch (IOException e) {
            return Result.of(name, ioError("Failed to create workspace", workspaceDir.resolve(name), e));
        }
    }

    @Override
    public Result<String> deleteWorkspace(String name) {
        if (name.equals(Workspaces.DEFAULT)) {
            return Result.of(name, Diagnostics.of(Workspaces.defaultCannotBeDeleted()));
        }
        if (!workspaceExists(name)) {
            return Result.of(name, Diagnostics.of(Workspaces.notFound(name)));
        }
        Path wsDir = workspaceDir.resolve(name);
        try (Stream<Path> walk = Files.walk(wsDir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
            return Result.of(name);
        } catch (IOException e) {
            return Result.of(name, ioError("Failed to delete workspace", wsDir, e));
        }
    }

    @Override
    public Result<StateManager> open(String workspace, LockRequest request) {
        Diagnostic bad = Workspaces.checkName(workspace);
        if (bad != null) {
            return Result.of(null, Diagnostics.of(bad));
        }
        if (!workspaceExists(workspace)) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Workspace does not exist",
                            "Workspace \"" + workspace + "\" doesn't exist. Create it with \"strata workspace new "
                                    + workspace + "\" or select another one with \"strata workspace select\".",
                            null)));
        }
        Path state = statePath(workspace);
        Diagnostics.Builder diags = Diagnostics.builder();
        LocalLock lock = null;
        if (request.enabled()) {
            Result<LocalLock> l = lock(state, request);
            diags.addAll(l.diagnostics());
            if (l.hasErrors()) {
                return Result.of(null, diags.build());
            }
            lock = l.value();
            AtomicFiles.removeLeftovers(state);
        }
        Path backup = backupPath(workspace);
        Result<LocalStateManager.Disk> disk = LocalStateManager.readDisk(
                state, backup, relative(state), backup == null ? "-" : relative(backup), encryption, lock);
        diags.addAll(disk.diagnostics());
        if (disk.hasErrors()) {
            if (lock != null) {
                lock.close();
            }
            return Result.of(null, diags.build());
        }
        LocalStateManager m = new LocalStateManager(
                workspace, state, outPath(workspace), backup, relative(state), version, lock, disk.value(), encryption);
        Diagnostics journal = m.loadJournal();
        diags.addAll(journal);
        if (journal.hasErrors()) {
            m.close();
            return Result.of(null, diags.build());
        }
        return Result.of(m, diags.build());
    }

    private Result<LocalLock> lock(Path state, LockRequest request) {
        LockInfo proposed = new LockInfo(
                UUID.randomUUID().toString(),
                request.operation(),
                request.info(),
                Hosts.who(),
                version,
                timing.clock().instant(),
                relative(state),
                Hosts.hostName(),
                Hosts.pid(),
                Hosts.processStart(),
                null);
        LockWait wait = new LockWait(request, timing);
        while (true) {
            LocalLock.Attempt a = LocalLock.tryAcquire(state, proposed, timing);
            switch (a) {
                case LocalLock.Attempt.Acquired ok -> {
                    Diagnostics warnings = Diagnostics.NONE;
                    if (ok.tookOver() != null || ok.staleReason() != null) {
                        LockInfo old = ok.tookOver();
                        warnings = Diagnostics.of(Diagnostic.warning(
                                "Took over a stale state lock",
                                "The state lock"
                                        + (old == null
                                                ? ""
                                                : " " + old.id() + " of " + old.who()
                                                        + (old.pid() > 0 ? " (pid " + old.pid() + ")" : "") + " for "
                                                        + old.operation())
                                        + " was left behind: " + ok.staleReason() + ". Strata took it over. If that "
                                        + "operation was interrupted, check that the state matches your infrastructure "
                                        + "(strata plan) before applying.",
                                null));
                    }
                    return Result.of(ok.lock(), warnings);
                }
                case LocalLock.Attempt.Failed f -> {
                    return Result.of(
                            null,
                            Diagnostics.of(Diagnostic.error("Error acquiring the state lock", f.message(), null)));
                }
                case LocalLock.Attempt.Busy busy -> {
                    if (wait.expired()) {
                        return Result.of(null, Diagnostics.of(lockHeld(busy, wait.waited(), request.timeout())));
                    }
                    if (!wait.pause()) {
                        return Result.of(null, Diagnostics.of(LockWait.interrupted()));
                    }
                }
            }
        }
    }

    private Diagnostic lockHeld(LocalLock.Attempt.Busy busy, Duration waited, Duration timeout) {
        LockInfo h = busy.holder();
        Instant now = timing.clock().instant();
        StringBuilder d = new StringBuilder();
        if (h == null) {
            d.append(
                    "Error message: the state is locked by another process, which has not written its lock info yet.\n");
        } else {
            d.append("Error message: the state is locked by ").append(h.who());
            if (h.pid() > 0) {
                d.append(" (pid ").append(h.pid()).append(')');
            }
            d.append(" for ").append(h.operation().isEmpty() ? "an unnamed operation" : h.operation());
            d.append(", held for ").append(Durations.human(h.age(now)));
            if (h.heartbeat() != null) {
                Duration silent = Duration.between(h.heartbeat(), now);
                if (silent.compareTo(timing.staleAfter()) > 0) {
                    d.append("; its holder has not renewed the lock for ")
                            .append(Durations.human(silent))
                            .append(" and may be hung");
                }
            }
            d.append(".\n");
            d.append("Lock Info:\n");
            d.append("  ID:        ").append(h.id()).append('\n');
            d.append("  Path:      ").append(h.path()).append('\n');
            d.append("  Operation: ").append(h.operation()).append('\n');
            d.append("  Who:       ").append(h.who()).append('\n');
            d.append("  Version:   ").append(h.version()).append('\n');
            d.append("  Created:   ")
                    .append(h.created() == null ? "" : TF_TIME.format(h.created()))
                    .append('\n');
            d.append("  Info:      ").append(h.info()).append('\n');
        }
        if (!timeout.isZero()) {
            d.append("\nGave up after waiting ")
                    .append(Durations.human(waited))
                    .append(" (-lock-timeout=")
                    .append(Durations.human(timeout))
                    .append(").\n");
        }
        d.append("\nStrata acquires a state lock to protect the state from being written by multiple users at the "
                + "same time. Please resolve the issue above and try again. For most commands, you can disable "
                + "locking with the \"-lock=false\" flag, but this is not recommended.");
        return Diagnostic.error("Error acquiring the state lock", d.toString(), null);
    }

    /** Go's default time format, as Terraform prints Created. */
    private static final DateTimeFormatter TF_TIME = DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd HH:mm:ss.SSSSSSSSS xx 'UTC'")
            .withZone(ZoneOffset.UTC);

    @Override
    public Result<LockInfo> forceUnlock(String workspace, String lockId) {
        return LocalLock.forceUnlock(statePath(workspace), lockId);
    }

    private String relative(Path p) {
        return p.startsWith(dir) ? dir.relativize(p).toString() : p.toString();
    }

    private static Diagnostics ioError(String summary, Path p, IOException e) {
        return Diagnostics.of(Diagnostic.error(summary, p + ": " + e.getMessage(), null));
    }
}
