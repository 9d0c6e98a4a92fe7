package dev.strata.tfplugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Plugins nobody stopped do not outlive the JVM that started them. */
@Timeout(60)
class PluginReaperTest {
    @TempDir
    Path dir;

    @Test
    void stopsWhatIsStillRunningAndKillsWhatIgnoresTheRequest() throws Exception {
        Process polite = new ProcessBuilder("sleep", "60").start();
        Process stubborn = new ProcessBuilder("sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done")
                .redirectErrorStream(true)
                .start();
        assertThat(new String(stubborn.getInputStream().readNBytes(6), StandardCharsets.UTF_8))
                .isEqualTo("ready\n");
        Process closed = new ProcessBuilder("sleep", "60").start();
        List.of(polite, stubborn, closed).forEach(PluginReaper::started);
        PluginReaper.stopped(closed);

        long t0 = System.nanoTime();
        assertThat(PluginReaper.stopAll(Duration.ofMillis(300))).isEqualTo(2);
        assertThat(polite.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(polite.exitValue()).as("SIGTERM").isEqualTo(128 + 15);
        assertThat(stubborn.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(stubborn.exitValue()).as("SIGKILL after the grace").isEqualTo(128 + 9);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(5_000);
        assertThat(closed.isAlive())
                .as("a plugin already stopped is not the reaper's")
                .isTrue();
        closed.destroyForcibly();
        assertThat(PluginReaper.stopAll(Duration.ZERO))
                .as("each is stopped once")
                .isZero();
    }

    /** A JVM that exits while a plugin it started is still running (never closed) stops that plugin. */
    @Test
    void aPluginNeverClosedIsStoppedWhenTheJvmExits() throws Exception {
        Path plugin = dir.resolve("terraform-provider-fake");
        Files.writeString(plugin, "#!/bin/sh\necho '1|6|tcp|127.0.0.1:9|grpc|'\nexec sleep 60\n");
        Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(
                        java,
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        PluginLeaker.class.getName(),
                        plugin.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(jvm.exitValue()).as(out).isZero();
        long pid = Long.parseLong(out);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as("plugin process %d stopped before the JVM ended", pid)
                .isFalse();
    }

    /** Starts the plugin named by its argument, prints its process id and exits without closing it. */
    static final class PluginLeaker {
        public static void main(String[] args) throws IOException {
            var started = PluginProcess.start(PluginLaunch.of("example.com/test/fake", Path.of(args[0])));
            if (started.value() == null) {
                System.out.println(started.diagnostics());
                System.exit(3);
            }
            System.out.println(started.value().pid());
            System.out.flush();
            System.exit(0);
        }
    }
}
