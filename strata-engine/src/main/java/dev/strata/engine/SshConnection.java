package dev.strata.engine;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.client.session.forward.ExplicitPortForwardingTracker;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.scp.client.ScpClient;
import org.apache.sshd.scp.client.ScpClientCreator;

/**
 * An SSH connection to the machine a {@code file} or {@code remote-exec} provisioner works on, as
 * Terraform's SSH communicator makes it: password and/or private key (optionally with an OpenSSH
 * certificate) authentication, an optional bastion host reached first (the target is reached through a
 * forwarded port), the host key checked when {@code host_key} is set, and retries until {@code timeout}
 * while the machine is still booting. Files go over SCP, as Terraform sends them.
 */
final class SshConnection implements AutoCloseable {
    static final Map<String, ProvisionerArgs.Kind> ARGS = Map.ofEntries(
            Map.entry("type", ProvisionerArgs.Kind.STRING),
            Map.entry("user", ProvisionerArgs.Kind.STRING),
            Map.entry("password", ProvisionerArgs.Kind.STRING),
            Map.entry("host", ProvisionerArgs.Kind.STRING),
            Map.entry("port", ProvisionerArgs.Kind.NUMBER),
            Map.entry("timeout", ProvisionerArgs.Kind.STRING),
            Map.entry("script_path", ProvisionerArgs.Kind.STRING),
            Map.entry("private_key", ProvisionerArgs.Kind.STRING),
            Map.entry("certificate", ProvisionerArgs.Kind.STRING),
            Map.entry("host_key", ProvisionerArgs.Kind.STRING),
            Map.entry("target_platform", ProvisionerArgs.Kind.STRING),
            Map.entry("agent", ProvisionerArgs.Kind.BOOL),
            Map.entry("agent_identity", ProvisionerArgs.Kind.STRING),
            Map.entry("bastion_host", ProvisionerArgs.Kind.STRING),
            Map.entry("bastion_host_key", ProvisionerArgs.Kind.STRING),
            Map.entry("bastion_port", ProvisionerArgs.Kind.NUMBER),
            Map.entry("bastion_user", ProvisionerArgs.Kind.STRING),
            Map.entry("bastion_password", ProvisionerArgs.Kind.STRING),
            Map.entry("bastion_private_key", ProvisionerArgs.Kind.STRING),
            Map.entry("bastion_certificate", ProvisionerArgs.Kind.STRING),
            Map.entry("proxy_scheme", ProvisionerArgs.Kind.STRING),
            Map.entry("proxy_host", ProvisionerArgs.Kind.STRING),
            Map.entry("proxy_port", ProvisionerArgs.Kind.NUMBER),
            Map.entry("proxy_user_name", ProvisionerArgs.Kind.STRING),
            Map.entry("proxy_user_password", ProvisionerArgs.Kind.STRING),
            Map.entry("https", ProvisionerArgs.Kind.BOOL),
            Map.entry("insecure", ProvisionerArgs.Kind.BOOL),
            Map.entry("use_ntlm", ProvisionerArgs.Kind.BOOL),
            Map.entry("cacert", ProvisionerArgs.Kind.STRING));

    /** Terraform's default remote path for uploaded scripts; {@code %RAND%} becomes a random number. */
    static final String DEFAULT_SCRIPT_PATH = "/tmp/terraform_%RAND%.sh";

    private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(500);

    /** One end of the connection: where, who, and how it proves it. */
    private record Endpoint(
            String host,
            int port,
            String user,
            String password,
            String privateKey,
            String certificate,
            String hostKey) {
        boolean hasKey() {
            return privateKey != null && !privateKey.isEmpty();
        }
    }

    private final SshClient client;
    private final List<ClientSession> sessions;
    private final ClientSession session;
    private final Duration timeout;
    private final String scriptPath;

    private SshConnection(
            SshClient client,
            List<ClientSession> sessions,
            ClientSession session,
            Duration timeout,
            String scriptPath) {
        this.client = client;
        this.sessions = sessions;
        this.session = session;
        this.timeout = timeout;
        this.scriptPath = scriptPath;
    }

    /** The script path for the next upload, with {@code %RAND%} replaced as Terraform does. */
    String scriptPath() {
        return scriptPath.replace(
                "%RAND%", Long.toString(Integer.toUnsignedLong(new java.security.SecureRandom().nextInt())));
    }

    /** Connects (retrying until the timeout) and says so on {@code out} in Terraform's words. */
    static SshConnection open(ProvisionerArgs a, Consumer<String> out, BooleanSupplier stop) throws ProvisionerFailure {
        String type = a.has("type") ? a.string("type") : "ssh";
        if (!type.equals("ssh")) {
            throw new ProvisionerFailure("Strata connects to machines over SSH only; connection type \"" + type
                    + "\" (WinRM) is not supported. Use type = \"ssh\".");
        }
        if (!a.has("host") || a.string("host").isEmpty()) {
            throw new ProvisionerFailure("The connection block needs a \"host\": the address of the machine to "
                    + "connect to (for example self.public_ip).");
        }
        if (a.has("proxy_host")) {
            throw new ProvisionerFailure("Strata does not connect through an HTTP or SOCKS proxy (proxy_host); use "
                    + "a bastion host (bastion_host) instead.");
        }
        if (Boolean.TRUE.equals(a.bool("agent"))) {
            String sock = System.getenv("SSH_AUTH_SOCK");
            throw new ProvisionerFailure(
                    sock == null || sock.isEmpty()
                            ? "agent = true, but no SSH agent is running (SSH_AUTH_SOCK is not set). Set agent = false and "
                                    + "give the key with private_key (for example private_key = file(\"~/.ssh/id_ed25519\"))."
                            : "Strata does not authenticate through an SSH agent. Set agent = false and give the key with "
                                    + "private_key (for example private_key = file(\"~/.ssh/id_ed25519\")).");
        }
        Duration timeout = DEFAULT_TIMEOUT;
        if (a.has("timeout")) {
            timeout = dev.strata.lang.funcs.GoDuration.parse(a.string("timeout"));
            if (timeout == null) {
                throw new ProvisionerFailure("The connection timeout \"" + a.string("timeout")
                        + "\" is not a duration such as \"30s\" or \"5m\".");
            }
        }
        String user = a.has("user") ? a.string("user") : "root";
        Endpoint target = new Endpoint(
                a.string("host"),
                a.has("port") ? a.integer("port") : 22,
                user,
                a.string("password"),
                a.string("private_key"),
                a.string("certificate"),
                a.string("host_key"));
        Endpoint bastion = null;
        if (a.has("bastion_host")) {
            bastion = new Endpoint(
                    a.string("bastion_host"),
                    a.has("bastion_port") ? a.integer("bastion_port") : target.port(),
                    a.has("bastion_user") ? a.string("bastion_user") : user,
                    a.has("bastion_password") ? a.string("bastion_password") : target.password(),
                    a.has("bastion_private_key") ? a.string("bastion_private_key") : target.privateKey(),
                    a.has("bastion_certificate") ? a.string("bastion_certificate") : target.certificate(),
                    a.string("bastion_host_key"));
        }
        out.accept("Connecting to remote host via SSH...");
        describe(target, out);
        out.accept("  Target Platform: unix");
        if (bastion != null) {
            out.accept("Using configured bastion host...");
            describe(bastion, out);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = null;
        SshClient client = SshClient.setUpDefaultClient();
        client.start();
        while (true) {
            List<ClientSession> opened = new ArrayList<>();
            try {
                ClientSession s;
                if (bastion != null) {
                    ClientSession b = session(client, bastion, bastion.host(), bastion.port(), timeout);
                    opened.add(b);
                    ExplicitPortForwardingTracker fwd = b.createLocalPortForwardingTracker(
                            new SshdSocketAddress(SshdSocketAddress.LOCALHOST_IPV4, 0),
                            new SshdSocketAddress(target.host(), target.port()));
                    SshdSocketAddress local = fwd.getBoundAddress();
                    s = session(client, target, local.getHostName(), local.getPort(), timeout);
                } else {
                    s = session(client, target, target.host(), target.port(), timeout);
                }
                opened.add(s);
                out.accept("Connected!");
                String path = a.has("script_path") ? a.string("script_path") : DEFAULT_SCRIPT_PATH;
                return new SshConnection(client, opened, s, timeout, path);
            } catch (ProvisionerFailure f) {
                closeAll(opened);
                client.stop();
                throw f;
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                closeAll(opened);
                last = reason(e);
            }
            if (System.nanoTime() + RETRY_PAUSE.toNanos() > deadline || stop.getAsBoolean()) {
                client.stop();
                throw new ProvisionerFailure("timeout - last error: " + last);
            }
            try {
                Thread.sleep(RETRY_PAUSE);
            } catch (InterruptedException e) {
                client.stop();
                Thread.currentThread().interrupt();
                throw new ProvisionerFailure("interrupted while connecting - last error: " + last);
            }
        }
    }

    private static void describe(Endpoint e, Consumer<String> out) {
        out.accept("  Host: " + e.host());
        out.accept("  User: " + e.user());
        out.accept("  Password: " + (e.password() != null && !e.password().isEmpty()));
        out.accept("  Private key: " + e.hasKey());
        out.accept(
                "  Certificate: " + (e.certificate() != null && !e.certificate().isEmpty()));
        out.accept("  SSH Agent: false");
        out.accept(
                "  Checking Host Key: " + (e.hostKey() != null && !e.hostKey().isEmpty()));
    }

    private static ClientSession session(SshClient client, Endpoint e, String host, int port, Duration timeout)
            throws IOException, GeneralSecurityException, ProvisionerFailure {
        PublicKey expected = null;
        if (e.hostKey() != null && !e.hostKey().isEmpty()) {
            expected = publicKey(e.hostKey(), "host_key");
        }
        ClientSession s = client.connect(e.user(), host, port).verify(timeout).getSession();
        try {
            PublicKey want = expected;
            java.util.concurrent.atomic.AtomicReference<PublicKey> rejected =
                    new java.util.concurrent.atomic.AtomicReference<>();
            s.setServerKeyVerifier((session, address, key) -> {
                if (want == null || KeyUtils.compareKeys(want, key)) {
                    return true;
                }
                rejected.set(key);
                return false;
            });
            if (e.password() != null && !e.password().isEmpty()) {
                s.addPasswordIdentity(e.password());
            }
            if (e.hasKey()) {
                for (KeyPair kp : keyPairs(e)) {
                    s.addPublicKeyIdentity(kp);
                }
            }
            try {
                s.auth().verify(timeout);
            } catch (IOException x) {
                if (rejected.get() != null) {
                    throw new IOException(
                            "ssh: handshake failed: host key mismatch: " + host + " offered "
                                    + KeyUtils.getFingerPrint(rejected.get()) + ", not the key given in host_key ("
                                    + KeyUtils.getFingerPrint(want) + ")",
                            x);
                }
                throw new IOException(
                        "SSH authentication failed (" + e.user() + "@" + e.host() + ":" + e.port() + "): " + reason(x),
                        x);
            }
            return s;
        } catch (IOException | ProvisionerFailure | RuntimeException x) {
            s.close(true);
            throw x;
        }
    }

    private static List<KeyPair> keyPairs(Endpoint e) throws ProvisionerFailure {
        List<KeyPair> out = new ArrayList<>();
        try {
            Iterable<KeyPair> loaded = SecurityUtils.loadKeyPairIdentities(
                    null,
                    NamedResource.ofName("private_key"),
                    new ByteArrayInputStream(e.privateKey().getBytes(StandardCharsets.UTF_8)),
                    FilePasswordProvider.EMPTY);
            if (loaded != null) {
                loaded.forEach(out::add);
            }
        } catch (IOException | GeneralSecurityException | RuntimeException x) {
            throw new ProvisionerFailure("Failed to parse ssh private key: " + reason(x));
        }
        if (out.isEmpty()) {
            throw new ProvisionerFailure(
                    "Failed to parse ssh private key: no key found (give the key's PEM or OpenSSH text, for "
                            + "example with file(\"~/.ssh/id_ed25519\"))");
        }
        if (e.certificate() != null && !e.certificate().isEmpty()) {
            PublicKey cert = publicKey(e.certificate(), "certificate");
            out.addFirst(new KeyPair(cert, out.getFirst().getPrivate()));
        }
        return out;
    }

    /** A key in the {@code authorized_keys} form ({@code ssh-ed25519 AAAA... comment}). */
    private static PublicKey publicKey(String text, String what) throws ProvisionerFailure {
        try {
            return PublicKeyEntry.parsePublicKeyEntry(text.strip()).resolvePublicKey(null, Map.of(), null);
        } catch (IOException | GeneralSecurityException | RuntimeException x) {
            throw new ProvisionerFailure("Failed to parse the " + what + ": " + reason(x)
                    + " (expected the key as an authorized_keys line, such as \"ssh-ed25519 AAAA...\")");
        }
    }

    /** Uploads {@code data} to {@code path} with the given mode. */
    void upload(byte[] data, String path, Set<PosixFilePermission> mode) throws IOException {
        scp().upload(data, path, mode, null);
    }

    /**
     * Uploads a local file or directory as Terraform's file provisioner does: a directory whose name ends
     * in a slash has its contents copied into {@code destination}, otherwise the directory itself.
     */
    void uploadPath(Path source, String sourceText, String destination, Consumer<String> out)
            throws IOException, ProvisionerFailure {
        if (!Files.isDirectory(source)) {
            scp().upload(source, destination, ScpClient.Option.PreserveAttributes);
            return;
        }
        if (sourceText.endsWith("/")) {
            run("mkdir -p " + shellQuote(destination), out, true);
            try (var children = Files.list(source)) {
                for (Path c : children.sorted().toList()) {
                    scp().upload(c, destination, ScpClient.Option.Recursive, ScpClient.Option.PreserveAttributes);
                }
            }
        } else {
            scp().upload(source, destination, ScpClient.Option.Recursive, ScpClient.Option.PreserveAttributes);
        }
    }

    private ScpClient scp() {
        return ScpClientCreator.instance().createScpClient(session);
    }

    /**
     * Runs {@code command}, passing each line it prints (stdout and stderr) to {@code out}; a non-zero exit
     * fails with Terraform's "error executing" message.
     */
    void run(String command, Consumer<String> out, boolean quiet) throws IOException, ProvisionerFailure {
        LineSink sink = new LineSink(quiet ? l -> {} : out);
        try (ChannelExec ch = session.createExecChannel(command)) {
            ch.setOut(sink);
            ch.setErr(sink);
            ch.open().verify(timeout);
            ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED, ClientChannelEvent.EXIT_STATUS), 0L);
            ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), Duration.ofSeconds(5));
            sink.flush();
            Integer status = ch.getExitStatus();
            if (status == null) {
                throw new ProvisionerFailure("error executing \"" + command + "\": the connection closed before "
                        + "the command reported its exit status");
            }
            if (status != 0) {
                throw new ProvisionerFailure(
                        "error executing \"" + command + "\": Process exited with status " + status);
            }
        }
    }

    @Override
    public void close() {
        closeAll(sessions);
        client.stop();
    }

    private static void closeAll(List<ClientSession> ss) {
        for (ClientSession s : ss.reversed()) {
            try {
                s.close();
            } catch (IOException e) {
                // Closing an SSH session that failed: nothing is left to do for it.
            }
        }
    }

    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    private static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getMessage() == null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? "the connection failed without a reason" : t.getMessage();
    }

    /** Splits what the remote command prints into lines as they complete. */
    private static final class LineSink extends OutputStream {
        private final Consumer<String> out;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

        LineSink(Consumer<String> out) {
            this.out = out;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                emit();
            } else {
                line.write(b);
            }
        }

        @Override
        public synchronized void flush() {
            if (line.size() > 0) {
                emit();
            }
        }

        private void emit() {
            String s = line.toString(StandardCharsets.UTF_8);
            line.reset();
            out.accept(s.endsWith("\r") ? s.substring(0, s.length() - 1) : s);
        }
    }
}
