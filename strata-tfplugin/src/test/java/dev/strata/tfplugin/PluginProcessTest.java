package dev.strata.tfplugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Start-up failures, with stand-in plugins written as shell scripts. */
@Timeout(60)
class PluginProcessTest {
    @TempDir
    Path dir;

    private Path script(String body) throws IOException {
        Path p = dir.resolve("terraform-provider-fake");
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    private static Diagnostic onlyError(Result<PluginProcess> r) {
        assertThat(r.value()).isNull();
        assertThat(r.diagnostics().asList()).hasSize(1);
        Diagnostic d = r.diagnostics().asList().get(0);
        assertThat(d.isError()).isTrue();
        return d;
    }

    @Test
    void crashBeforeHandshakeNamesProviderAndShowsStderr() throws IOException {
        Path p = script("echo 'panic: something broke' >&2\necho 'goroutine 1 [running]:' >&2\nexit 2");
        Diagnostic d = onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", p)));
        assertThat(d.summary()).isEqualTo("Provider example.com/test/fake crashed while starting");
        assertThat(d.detail())
                .contains("exited with status 2")
                .contains("panic: something broke")
                .contains("goroutine 1 [running]:");
    }

    @Test
    void startAndFailureAreLoggedForWhoeverDebugsASlowOrStuckRun() throws IOException {
        ch.qos.logback.classic.Logger log =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(PluginProcess.class);
        ch.qos.logback.classic.Level before = log.getLevel();
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> seen =
                new ch.qos.logback.core.read.ListAppender<>();
        seen.start();
        log.addAppender(seen);
        log.setLevel(ch.qos.logback.classic.Level.DEBUG);
        try {
            Path p = script("exit 3");
            onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", p)));
        } finally {
            log.detachAppender(seen);
            log.setLevel(before);
        }
        List<String> lines = seen.list.stream()
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .toList();
        assertThat(lines)
                .anyMatch(l -> l.matches("started provider example\\.com/test/fake \\(pid \\d+, run \\d+\\) from .*"
                        + "terraform-provider-fake, offering protocols \\[5, 6\\]"));
        assertThat(lines)
                .contains(
                        "provider example.com/test/fake did not start: Provider example.com/test/fake crashed while starting");
    }

    @Test
    void pluginSeesTheMagicCookieProtocolsAndClientCertificate() throws IOException {
        Path p = script("echo \"$TF_PLUGIN_MAGIC_COOKIE $PLUGIN_PROTOCOL_VERSIONS\" >&2\n"
                + "echo \"$PLUGIN_CLIENT_CERT\" | head -1 >&2\nexit 1");
        Diagnostic d = onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", p)));
        assertThat(d.detail())
                .contains(PluginProcess.MAGIC_COOKIE_VALUE + " 5,6")
                .contains("-----BEGIN CERTIFICATE-----");
    }

    /**
     * As under Terraform, the plugin runs in the run's working directory with the environment
     * Strata was given, not the JVM's: relative paths in provider settings resolve there.
     */
    @Test
    void pluginRunsInTheGivenDirectoryWithExactlyTheGivenEnvironment() throws IOException {
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("creds"), "from-the-working-directory\n");
        Path p =
                script("echo \"cwd=$(pwd) creds=$(cat creds) key=$AWS_ACCESS_KEY_ID home=${HOME:-unset}\" >&2\nexit 1");
        Diagnostic d = onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", p)
                .in(work, java.util.Map.of("AWS_ACCESS_KEY_ID", "injected", "PATH", "/usr/bin:/bin"))));
        assertThat(d.detail())
                .contains("cwd=" + work.toRealPath())
                .contains("creds=from-the-working-directory")
                .contains("key=injected")
                .contains("home=unset");
    }

    /** The LC_CTYPE the launcher set for the JVM alone (no locale) is not the plugin's, given environment or not. */
    @Test
    void theCharacterTypeTheLauncherAddedIsNotPassedOn() throws IOException {
        Path p = script("echo \"ctype=[${LC_CTYPE:-}]\" >&2\nexit 1");
        String before = System.getProperty("strata.launcher.lcCtype");
        System.setProperty("strata.launcher.lcCtype", "added");
        try {
            Diagnostic d = onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", p)
                    .in(dir, java.util.Map.of("LC_CTYPE", "C.UTF-8", "PATH", "/usr/bin:/bin"))));
            assertThat(d.detail()).contains("ctype=[]");
        } finally {
            if (before == null) {
                System.clearProperty("strata.launcher.lcCtype");
            } else {
                System.setProperty("strata.launcher.lcCtype", before);
            }
        }
    }

    @Test
    void withoutAGivenEnvironmentThePluginInheritsTheJvms() throws IOException {
        Path p = script("echo \"path=${PATH:-unset}\" >&2\nexit 1");
        Diagnostic d = onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", p)));
        assertThat(d.detail()).contains("path=" + System.getenv("PATH"));
    }

    /** The crash report keeps panics, warnings and errors, not the trace logging providers write to stderr. */
    @Test
    void stderrTailKeepsWhatTerraformWouldShow() {
        StderrTail t = new StderrTail(10);
        t.add("{\"@level\":\"trace\",\"@message\":\"calling downstream\",\"@module\":\"sdk.mux\"}");
        t.add("[DEBUG] Waiting for state to become: [success]");
        t.add("{\"@level\":\"error\",\"@message\":\"request failed\",\"@module\":\"aws\"}");
        t.add("panic: runtime error: invalid memory address");
        t.add("[WARN] something odd");
        assertThat(t.lines())
                .containsExactly(
                        "[ERROR] request failed",
                        "panic: runtime error: invalid memory address",
                        "[WARN] something odd");
    }

    @Test
    void badHandshakeLineIsExplained() throws IOException {
        Path p = script("echo '1|4|unix|/tmp/x.sock|grpc|'\nsleep 30");
        Diagnostic d = onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", p)));
        assertThat(d.summary()).isEqualTo("Provider example.com/test/fake sent an invalid handshake");
        assertThat(d.detail()).contains("\"1|4|unix|/tmp/x.sock|grpc|\"").contains("protocol version 4");
    }

    @Test
    void silentPluginTimesOutAndIsKilled() throws IOException {
        Path p = script("echo started >&2\nexec sleep 60");
        Diagnostic d = onlyError(PluginProcess.start(
                PluginLaunch.of("example.com/test/fake", p).withStartTimeout(Duration.ofMillis(700))));
        assertThat(d.summary()).isEqualTo("Provider example.com/test/fake did not start in time");
        assertThat(d.detail()).contains("started");
        assertThat(ProcessHandle.allProcesses()
                        .filter(h -> h.info().commandLine().orElse("").contains(dir.toString()))
                        .toList())
                .isEmpty();
    }

    @Test
    void missingExecutableIsADiagnostic() {
        Diagnostic d = onlyError(PluginProcess.start(PluginLaunch.of("example.com/test/fake", dir.resolve("nope"))));
        assertThat(d.summary()).isEqualTo("Failed to start provider example.com/test/fake");
    }

    @Test
    void handshakeFieldsAreValidated() throws Exception {
        List<Integer> offered = List.of(5, 6);
        assertThat(Handshake.parse("1|5|unix|/tmp/p.sock|grpc|\n", offered))
                .isEqualTo(new Handshake(1, 5, "unix", "/tmp/p.sock", "grpc", java.util.Optional.empty()));
        for (String bad : List.of(
                "",
                "2|5|unix|/s|grpc|",
                "1|x|unix|/s|grpc|",
                "1|5|pipe|/s|grpc|",
                "1|5|unix||grpc|",
                "1|5|unix|/s|netrpc|",
                "1|5|unix|/s",
                "1|5|unix|/s|grpc|!!notbase64")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Handshake.parse(bad, offered))
                    .as(bad)
                    .isInstanceOf(Handshake.HandshakeException.class);
        }
    }
}
