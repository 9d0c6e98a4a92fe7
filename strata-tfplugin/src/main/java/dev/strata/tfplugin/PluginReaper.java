package dev.strata.tfplugin;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last resort that keeps provider plugins from outliving Strata. Every plugin process is recorded here
 * from its start until it is stopped; when the JVM exits (its shutdown hook) or a second signal ends the
 * command at once, whatever is still recorded is stopped: a close that never ran, a start still in progress.
 * Without it such a plugin keeps running with parent 1, holding memory and, for a plugin mid-call, a cloud
 * session. A {@code kill -9} of Strata runs no code at all; nothing here can help that case.
 */
final class PluginReaper {
    private static final Logger LOG = LoggerFactory.getLogger(PluginReaper.class);
    /** How long a plugin may take to exit after SIGTERM at JVM exit before it is killed. */
    static final Duration AT_EXIT = Duration.ofSeconds(2);

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();
    /** Set once stopping began: a plugin whose start ends after that is stopped at once. */
    private static volatile boolean stopping;

    private PluginReaper() {}

    /** Records a started plugin; stops it at once when the JVM is already on its way out. */
    static void started(Process p) {
        RUNNING.add(p);
        if (HOOK_INSTALLED.compareAndSet(false, true)) {
            try {
                Runtime.getRuntime()
                        .addShutdownHook(
                                Thread.ofPlatform().name("strata-plugin-reaper").unstarted(() -> stopForExit(AT_EXIT)));
            } catch (IllegalStateException shuttingDown) {
                stopping = true;
            }
        }
        if (stopping) {
            stopAll(Duration.ZERO);
        }
    }

    /** Forgets a plugin that has been stopped. */
    static void stopped(Process p) {
        RUNNING.remove(p);
    }

    /** Stops every plugin still running, and any whose start ends later: the process is about to exit. */
    static int stopForExit(Duration grace) {
        stopping = true;
        return stopAll(grace);
    }

    /**
     * Stops every recorded plugin still running: SIGTERM to each (and what it started), then SIGKILL to
     * those still alive after {@code grace}. Returns how many were running.
     */
    static int stopAll(Duration grace) {
        List<Process> alive = RUNNING.stream().filter(Process::isAlive).toList();
        RUNNING.removeAll(alive);
        if (alive.isEmpty()) {
            return 0;
        }
        LOG.debug(
                "stopping {} provider plugin(s) still running: pids {}",
                alive.size(),
                alive.stream().map(Process::pid).toList());
        List<ProcessHandle> children =
                alive.stream().flatMap(Process::descendants).toList();
        alive.forEach(p -> p.toHandle().destroy());
        long deadline = System.nanoTime() + grace.toNanos();
        for (Process p : alive) {
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    p.waitFor(left, TimeUnit.NANOSECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        alive.stream().filter(Process::isAlive).forEach(p -> p.toHandle().destroyForcibly());
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        return alive.size();
    }
}
