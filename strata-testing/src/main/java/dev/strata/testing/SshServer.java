package dev.strata.testing;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A throwaway OpenSSH server for the provisioner tests: {@code sshd -D} with a generated configuration,
 * listening on 127.0.0.1 on a free port, running as the current user, with a host key and a user key made
 * in a temp dir (no system files are used: the authorized keys are in the temp dir, strict modes and PAM
 * off). One per JVM, started on first use and stopped when the JVM exits. Tests are skipped, not failed,
 * where OpenSSH is not installed or cannot start ({@code scripts/install-sshd.sh} installs it).
 */
public final class SshServer {
    private static final SshServer INSTANCE = new SshServer();
    private static final Path SSHD = Path.of("/usr/sbin/sshd");

    private Path dir;
    private Integer port;
    private String failure;

    private SshServer() {}

    /** The server, started on first use; skips the calling test when it cannot run. */
    public static SshServer get() {
        INSTANCE.ensureStarted();
        return INSTANCE;
    }

    public int port() {
        return port;
    }

    /** The user the server lets in: the user running the tests. */
    public String user() {
        return System.getProperty("user.name");
    }

    /** The user's private key, in OpenSSH's text form. */
    public Path privateKey() {
        return dir.resolve("user_key");
    }

    /** The server's host key in {@code authorized_keys} form, for {@code host_key}. */
    public String hostPublicKey() {
        try {
            return Files.readString(dir.resolve("host_key.pub")).strip();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A fresh key the server does not accept, for the refusal tests. */
    public Path strangerKey() {
        return dir.resolve("stranger_key");
    }

    /** Runs {@code command} on the server through the system's {@code ssh} client. */
    public ProcessResult exec(String command) throws IOException, InterruptedException {
        return Processes.run(
                new ProcessBuilder(
                        "ssh",
                        "-i",
                        privateKey().toString(),
                        "-p",
                        Integer.toString(port),
                        "-o",
                        "StrictHostKeyChecking=no",
                        "-o",
                        "UserKnownHostsFile=/dev/null",
                        "-o",
                        "BatchMode=yes",
                        "-o",
                        "LogLevel=ERROR",
                        user() + "@127.0.0.1",
                        command),
                null,
                Duration.ofSeconds(30));
    }

    private synchronized void ensureStarted() {
        if (port == null && failure == null) {
            try {
                port = start();
            } catch (IOException | InterruptedException | RuntimeException e) {
                failure = e.getMessage() == null ? e.toString() : e.getMessage();
            }
        }
        assumeThat(failure).as("OpenSSH test server: %s", failure).isNull();
    }

    private int start() throws IOException, InterruptedException {
        if (!Files.isExecutable(SSHD)) {
            throw new IllegalStateException(SSHD + " not found (scripts/install-sshd.sh installs it)");
        }
        if (!Executables.isOnPath("ssh-keygen") || !Executables.isOnPath("ssh")) {
            throw new IllegalStateException("ssh-keygen or ssh not found (scripts/install-sshd.sh installs them)");
        }
        dir = Files.createTempDirectory("strata-sshd-");
        // ECDSA keys: readable by every SSH library without extra crypto providers.
        for (String k : List.of("host_key", "user_key", "stranger_key")) {
            run(List.of(
                    "ssh-keygen",
                    "-q",
                    "-t",
                    "ecdsa",
                    "-b",
                    "256",
                    "-N",
                    "",
                    "-C",
                    k,
                    "-f",
                    dir.resolve(k).toString()));
        }
        Files.copy(dir.resolve("user_key.pub"), dir.resolve("authorized_keys"));
        boolean root = "root".equals(user());
        if (root) {
            // sshd started by root wants its privilege separation directory, as the package would create it.
            Files.createDirectories(Path.of("/run/sshd"));
        }
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        Path config = dir.resolve("sshd_config");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "Port " + free,
                        "ListenAddress 127.0.0.1",
                        "HostKey " + dir.resolve("host_key"),
                        "PidFile " + dir.resolve("sshd.pid"),
                        "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                        "StrictModes no",
                        "UsePAM no",
                        "PasswordAuthentication no",
                        "KbdInteractiveAuthentication no",
                        "PubkeyAuthentication yes",
                        "PermitRootLogin " + (root ? "prohibit-password" : "no"),
                        "AllowTcpForwarding yes",
                        "Subsystem sftp internal-sftp",
                        "LogLevel ERROR",
                        ""));
        Process p = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("sshd.log").toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            p.destroy();
            try (Stream<Path> w = Files.walk(dir)) {
                w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException | RuntimeException e) {
                // best effort: only the temp dir is left behind
            }
        }));
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("sshd exited: "
                        + Files.readString(dir.resolve("sshd.log")).strip());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", free), 500);
                return free;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        p.destroy();
        throw new IllegalStateException("sshd did not start listening within 15s");
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        ProcessResult r = Processes.run(
                new ProcessBuilder(new ArrayList<>(cmd)).redirectErrorStream(true), null, Duration.ofSeconds(30));
        if (r.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + r.stdout());
        }
    }
}
