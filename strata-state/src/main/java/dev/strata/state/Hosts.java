package dev.strata.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/** Facts about this process and machine that go into lock info. */
final class Hosts {
    private static volatile String hostName;

    private Hosts() {}

    /** Avoids InetAddress.getLocalHost(), which can block for seconds on a DNS lookup. */
    static String hostName() {
        String h = hostName;
        if (h == null) {
            h = System.getenv("HOSTNAME");
            if (h == null || h.isBlank()) {
                try {
                    h = Files.readString(Path.of("/etc/hostname")).strip();
                } catch (IOException | RuntimeException e) {
                    h = "";
                }
            }
            if (h.isBlank()) {
                h = "localhost";
            }
            hostName = h;
        }
        return h;
    }

    static String who() {
        return System.getProperty("user.name", "unknown") + "@" + hostName();
    }

    static long pid() {
        return ProcessHandle.current().pid();
    }

    static Instant processStart() {
        return ProcessHandle.current().info().startInstant().orElse(null);
    }

    /**
     * Whether the process with this pid and start time still runs on this host. A pid alone is not
     * enough: pids are reused, so a different start time means the holder is gone.
     */
    static boolean isAlive(long pid, Instant start) {
        if (pid <= 0) {
            return true; // unknown holder (e.g. written by Terraform): assume alive, rely on the OS lock
        }
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .map(p -> start == null
                        || p.info()
                                .startInstant()
                                .map(s -> Math.abs(s.toEpochMilli() - start.toEpochMilli()) < 1000)
                                .orElse(true))
                .orElse(false);
    }
}
